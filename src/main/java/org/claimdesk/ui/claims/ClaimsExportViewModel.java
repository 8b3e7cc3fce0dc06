package org.claimdesk.ui.claims;

import java.nio.file.Path;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import org.claimdesk.app.ClaimExport;
import org.claimdesk.app.Queries;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.common.TaskRunner;

/**
 * "Export…" on the Claims page: the claims of the page's filter written in the import's format through
 * {@link ClaimExport}, tax ids masked unless staff include them with a reason (audited, as {@code claims export
 * --include-tax-id}). Runs through the {@link TaskRunner} with progress; the result names the file.
 */
public final class ClaimsExportViewModel {
    private final ClaimExport export;
    private final Queries queries;
    private final TaskRunner tasks;
    private final String actor;

    private final ReadOnlyBooleanWrapper exporting = new ReadOnlyBooleanWrapper();
    /** Set by {@link #cancel}, read by the export between its pages. */
    private final java.util.concurrent.atomic.AtomicBoolean cancelRequested = new java.util.concurrent.atomic.AtomicBoolean();
    private final ReadOnlyObjectWrapper<TaskRunner.ProgressUpdate> progress = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<ClaimExport.Result> result = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<Notice> notice = new ReadOnlyObjectWrapper<>();
    private Request failed;
    /** An export refused because its file exists, waiting for staff to say whether to replace it; null when none. */
    private final ReadOnlyObjectWrapper<Request> replaceQuestion = new ReadOnlyObjectWrapper<>();
    private ClaimQuery questionFilter;

    /** What staff asked for: the file, and the tax ids whole with a reason, or masked. */
    public record Request(Path file, boolean includeTaxIds, String reason) {
    }

    public ClaimsExportViewModel(ClaimExport export, Queries queries, TaskRunner tasks, String actor) {
        this.export = export;
        this.queries = queries;
        this.tasks = tasks;
        this.actor = actor;
    }

    public ReadOnlyBooleanProperty exportingProperty() {
        return exporting.getReadOnlyProperty();
    }

    /** Claims written of those the filter selects; null when no export runs. */
    public ReadOnlyObjectProperty<TaskRunner.ProgressUpdate> progressProperty() {
        return progress.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<ClaimExport.Result> resultProperty() {
        return result.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Notice> noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    /**
     * An export whose file exists, waiting for {@link #replaceAnswered}: the view asks staff whether to replace it. The
     * file's existence is learnt by the export's own background work, never on the UI thread.
     */
    public ReadOnlyObjectProperty<Request> replaceQuestionProperty() {
        return replaceQuestion.getReadOnlyProperty();
    }

    /** Staff's answer to {@link #replaceQuestionProperty()}: the export again over the file, or nothing written. */
    public void replaceAnswered(boolean replace) {
        Request asked = replaceQuestion.get();
        if (asked == null) {
            return;
        }
        replaceQuestion.set(null);
        if (replace) {
            export(asked.file(), questionFilter, asked.includeTaxIds(), asked.reason(), true);
        } else {
            failed = asked;
            notice.set(Notice.warning("Nothing was exported: " + asked.file() + " is kept as it was"));
        }
    }

    /** The last export asked for that failed, to offer again as it was typed; null after one that worked. */
    public Request failedRequest() {
        return failed;
    }

    /**
     * Writes the claims {@code filter} selects to {@code file}, off the UI thread. With {@code includeTaxIds} the
     * tax ids are written whole and the export is audited with {@code reason} (required); otherwise masked.
     */
    public void export(Path file, ClaimQuery filter, boolean includeTaxIds, String reason) {
        export(file, filter, includeTaxIds, reason, false);
    }

    /** As {@link #export(Path, ClaimQuery, boolean, String)}; an existing file is replaced only with {@code replace}. */
    public void export(Path file, ClaimQuery filter, boolean includeTaxIds, String reason, boolean replace) {
        if (exporting.get() || file == null || filter == null) {
            return;
        }
        if (includeTaxIds && (reason == null || reason.isBlank())) {
            notice.set(Notice.warning("Exporting full tax ids needs a reason; nothing was exported"));
            return;
        }
        ClaimExport.TaxIds taxIds = includeTaxIds ? ClaimExport.TaxIds.included(actor, reason.strip())
                : ClaimExport.TaxIds.masked();
        exporting.set(true);
        result.set(null);
        notice.set(null);
        progress.set(new TaskRunner.ProgressUpdate(0, 0, "claims written"));
        cancelRequested.set(false);
        tasks.submit("export claims", p -> {
            int total = queries.countClaims(filter);
            p.update(0, total, "claims written");
            return export.run(file, filter, taxIds, replace, written -> p.update(written, total, "claims written"),
                    cancelRequested::get);
        }, done -> {
            exporting.set(false);
            progress.set(null);
            failed = null;
            result.set(done);
            notice.set(Notice.success(describe(done)));
        }, e -> {
            exporting.set(false);
            progress.set(null);
            Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                    ? e.getCause() : e;
            if (cause instanceof ClaimExport.Cancelled) {
                notice.set(Notice.info(cause.getMessage().substring(0, 1).toUpperCase() + cause.getMessage().substring(1)
                        + (includeTaxIds ? " (its start, with whole tax ids asked for, is in the audit trail)" : "")));
                return;
            }
            if (cause instanceof ClaimExport.FileExists) {
                questionFilter = filter;
                replaceQuestion.set(new Request(file, includeTaxIds, reason));
                return;
            }
            failed = new Request(file, includeTaxIds, reason);
            notice.set(Notice.error("export the claims", e));
        }, update -> {
            if (exporting.get()) {
                progress.set(update);
            }
        });
    }

    /** Stops the export under way after the page it is writing; no file is left. */
    public void cancel() {
        if (exporting.get()) {
            cancelRequested.set(true);
        }
    }

    /** "Exported 42 claims to /path/claims.csv (…)": what the export wrote and what the file is for. */
    public static String describe(ClaimExport.Result r) {
        return "Exported " + Formats.count(r.claims()) + " claim(s) to " + r.file() + (r.taxIds()
                ? " with full tax ids (the export is in the audit trail; keep the file safe and delete it when done)"
                : " with tax ids masked: for reading (an import rejects its rows at taxId)");
    }
}
