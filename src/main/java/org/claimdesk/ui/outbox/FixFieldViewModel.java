package org.claimdesk.ui.outbox;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.claimdesk.app.BulkEdit;
import org.claimdesk.app.Resubmission;
import org.claimdesk.domain.Checked;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.InvalidFieldsException;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.common.TaskRunner;

/**
 * "Fix a field…" on the Outbox page: one field set to one value on the claims of the chosen failed rows (an error
 * group, a selection or the filter), then those rows resubmitted together. The value is checked by the field's rule
 * as staff type; a preview lists each claim's value now and after and the claims skipped; Apply and Resubmit each
 * need a reason, report progress and can be cancelled between two claims or rows.
 */
public final class FixFieldViewModel {
    private final BulkEdit bulk;
    private final Resubmission resubmission;
    private final TaskRunner tasks;
    private final String actor;

    private final ObjectProperty<ClaimField<?>> field = new SimpleObjectProperty<>();
    private final StringProperty value = new SimpleStringProperty("");
    private final ReadOnlyStringWrapper valueError = new ReadOnlyStringWrapper();
    private final ReadOnlyStringWrapper scope = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<BulkEdit.Preview> preview = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<BulkEdit.Result> editResult = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<Resubmission.BulkPreview> resubmitPreview = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<Resubmission.BulkResult> resubmitResult = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    /** Previews asked for and not answered yet: busy until the last one is, whichever ends first. */
    private int previewsRunning;
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper();
    private final ReadOnlyObjectWrapper<TaskRunner.ProgressUpdate> progress = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<Notice> notice = new ReadOnlyObjectWrapper<>();
    private final AtomicBoolean cancelRequested = new AtomicBoolean();

    private OutboxQuery rows;
    /** The claims the last fix changed: the only ones its resubmission offers. */
    private List<Long> fixed = List.of();
    private Runnable onChange = () -> { };
    private long previewRequest;

    public FixFieldViewModel(BulkEdit bulk, Resubmission resubmission, TaskRunner tasks, String actor) {
        this.bulk = bulk;
        this.resubmission = resubmission;
        this.tasks = tasks;
        this.actor = actor;
        field.set(ClaimField.HOLDER_ID);
        field.addListener((obs, old, f) -> changed());
        value.addListener((obs, old, v) -> changed());
    }

    /** Told after claims or rows were changed, so the page showing them reloads. */
    public void setOnChange(Runnable onChange) {
        this.onChange = onChange == null ? () -> { } : onChange;
    }

    // ---- properties ---------------------------------------------------------------------------------

    /** The fields that may be set on many claims (every one but the tax id). */
    public List<ClaimField<?>> fields() {
        return BulkEdit.fields();
    }

    public ObjectProperty<ClaimField<?>> fieldProperty() {
        return field;
    }

    public StringProperty valueProperty() {
        return value;
    }

    /** The rule the typed value breaks, as the console shows it next to the value; null when it keeps it. */
    public ReadOnlyStringProperty valueErrorProperty() {
        return valueError.getReadOnlyProperty();
    }

    /** Which rows the claims come from, in words ("the selected error group"). */
    public ReadOnlyStringProperty scopeProperty() {
        return scope.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<BulkEdit.Preview> previewProperty() {
        return preview.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<BulkEdit.Result> editResultProperty() {
        return editResult.getReadOnlyProperty();
    }

    /** After an edit: what resubmitting the rows would do ("Resubmit N corrected rows"). */
    public ReadOnlyObjectProperty<Resubmission.BulkPreview> resubmitPreviewProperty() {
        return resubmitPreview.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Resubmission.BulkResult> resubmitResultProperty() {
        return resubmitResult.getReadOnlyProperty();
    }

    /** Reading or writing: the buttons wait. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** An apply or a resubmission under way, which {@link #cancel()} stops between two claims or rows. */
    public ReadOnlyBooleanProperty runningProperty() {
        return running.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<TaskRunner.ProgressUpdate> progressProperty() {
        return progress.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Notice> noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    // ---- commands -----------------------------------------------------------------------------------

    /** Starts over on the claims of the failed rows {@code failedRows} selects, described as {@code words}. */
    public void open(OutboxQuery failedRows, String words) {
        open(failedRows, words, null);
    }

    /**
     * As {@link #open(OutboxQuery, String)}, on the field the state named in {@code refusedField} (a row's last answer,
     * as the state names it: {@code statePropertyId}) when it is one this dialog sets; else the field chosen before.
     */
    public void open(OutboxQuery failedRows, String words, String refusedField) {
        String named = org.claimdesk.domain.StateFields.onTheClaim(refusedField);
        Optional<ClaimField<?>> refused = ClaimField.byName(named);
        refused.filter(f -> fields().contains(f)).ifPresent(field::set);
        rows = failedRows;
        fixed = List.of();
        scope.set(words);
        value.set("");
        editResult.set(null);
        resubmitPreview.set(null);
        resubmitResult.set(null);
        progress.set(null);
        notice.set(notSetHere(named, refused));
        changed();
    }

    /**
     * What staff do instead when the state named something this dialog does not set on many claims at once (the tax
     * id, the evidence: {@code evidence[0]…} or {@code evidence.address}, as the claim's edit form tells them apart too;
     * a name of no field of the claim); null when it sets it, or nothing was named.
     */
    private Notice notSetHere(String named, Optional<ClaimField<?>> refused) {
        if (named.isEmpty() || refused.filter(f -> fields().contains(f)).isPresent()) {
            return null;
        }
        if (refused.filter(ClaimField.TAX_ID::equals).isPresent()) {
            return Notice.info("The state named the tax id, which is not set on several claims at once: replace it on"
                    + " each claim's detail (Claims page, Replace…, a reason audited), then resubmit its row");
        }
        if (org.claimdesk.domain.StateFields.isEvidence(named)) {
            return Notice.info("The state named the claim's evidence, which is not set here: add it on each claim's"
                    + " Evidence tab (Claims page), then resubmit its row");
        }
        return Notice.info("The state named “" + named + "”, which is no field of the claim: its last answer (the"
                + " row's attempts) says what it refused");
    }

    private void previewEnded() {
        if (--previewsRunning == 0) {
            busy.set(false);
        }
    }

    /** A new field or value: the old preview no longer holds, and the value is checked by the field's rule. */
    private void changed() {
        previewRequest++;
        preview.set(null);
        ClaimField<?> f = field.get();
        String text = value.get();
        if (f == null || text == null || text.isBlank()) {
            valueError.set(null);
            return;
        }
        Checked<String> checked = bulk.check(f.name(), text);
        valueError.set(checked.isOk() ? null : checked.violations().get(0).message());
    }

    /** Reads the preview off the FX thread; a value its rule refuses is not sent. */
    public void preview() {
        ClaimField<?> f = field.get();
        String text = value.get();
        if (rows == null || f == null || running.get()) {
            // while a change runs (Enter in the value field), a preview would end the dialog's busy state under it
            return;
        }
        if (valueError.get() != null) {
            notice.set(Notice.warning(valueError.get() + "; nothing was previewed"));
            return;
        }
        long request = ++previewRequest;
        previewsRunning++;
        busy.set(true);
        tasks.submit("preview setting a field on claims", p -> bulk.preview(f.name(), text, rows), found -> {
            previewEnded();
            // a preview of a value changed since is dropped
            if (request == previewRequest) {
                preview.set(found);
                notice.set(found.eligible() == 0 ? Notice.warning("Nothing to change: " + found.describe())
                        : Notice.info(found.describe()));
            }
        }, e -> {
            previewEnded();
            if (request != previewRequest) {
                return;
            }
            if (e instanceof InvalidFieldsException invalid) {
                valueError.set(invalid.violations().get(0).message());
            }
            notice.set(Notice.error("preview the change", e));
        });
    }

    /** Applies the preview with its reason; the resubmission of the corrected rows is offered afterwards. */
    public void apply(String reason) {
        if (running.get()) {
            return;
        }
        BulkEdit.Preview seen = preview.get();
        if (seen == null || seen.eligible() == 0) {
            notice.set(Notice.warning("Preview the change first"));
            return;
        }
        if (reason == null || reason.isBlank()) {
            notice.set(Notice.warning("Setting a field on many claims needs a reason; nothing was changed"));
            return;
        }
        int total = seen.eligible();
        start(total, "claims changed");
        tasks.submit("set a field on claims", p -> bulk.apply(seen, actor, reason.strip(),
                done -> p.update(done, total, "claims changed"), cancelRequested::get), result -> {
                    finish();
                    preview.set(null);
                    editResult.set(result);
                    notice.set(result.failure() != null ? Notice.warning(result.describe())
                            : Notice.success(result.describe()));
                    onChange.run();
                    if (!result.changed().isEmpty()) {
                        fixed = result.changedIds();
                        previewResubmit();
                    }
                }, e -> {
                    finish();
                    notice.set(Notice.error("set the field", e));
                    onChange.run();
                }, progress::set);
    }

    /**
     * What resubmitting the rows would do now: the rows whose claims this fix changed are resubmitted; others are
     * skipped, with the reason (a claim someone else corrected meanwhile among them).
     */
    public void previewResubmit() {
        if (rows == null) {
            return;
        }
        OutboxQuery selected = rows;
        List<Long> corrected = fixed;
        previewsRunning++;
        busy.set(true);
        tasks.submit("preview resubmitting rows", p -> resubmission.preview(selected, corrected), found -> {
            previewEnded();
            resubmitPreview.set(found);
        }, e -> {
            previewEnded();
            notice.set(Notice.error("preview the resubmission", e));
        });
    }

    /** Resubmits the previewed rows under new keys, one reason for all. */
    public void resubmit(String reason) {
        if (running.get()) {
            return;
        }
        Resubmission.BulkPreview seen = resubmitPreview.get();
        if (seen == null || seen.eligible() == 0) {
            notice.set(Notice.warning("No corrected row to resubmit"));
            return;
        }
        if (reason == null || reason.isBlank()) {
            notice.set(Notice.warning("Resubmitting needs a reason; nothing was sent"));
            return;
        }
        int total = seen.eligible();
        start(total, "rows resubmitted");
        tasks.submit("resubmit corrected rows", p -> resubmission.resubmitAll(seen, actor, reason.strip(),
                done -> p.update(done, total, "rows resubmitted"), cancelRequested::get), result -> {
                    finish();
                    resubmitPreview.set(null);
                    resubmitResult.set(result);
                    notice.set(result.failure() != null ? Notice.warning(result.describe())
                            : Notice.success(result.describe()));
                    onChange.run();
                }, e -> {
                    finish();
                    notice.set(Notice.error("resubmit the rows", e));
                    onChange.run();
                }, progress::set);
    }

    /** Stops the run under way before its next claim or row; what was done stays done and is reported. */
    public void cancel() {
        if (running.get()) {
            cancelRequested.set(true);
        }
    }

    private void start(int total, String what) {
        cancelRequested.set(false);
        busy.set(true);
        running.set(true);
        progress.set(new TaskRunner.ProgressUpdate(0, total, what));
    }

    private void finish() {
        busy.set(false);
        running.set(false);
        progress.set(null);
    }
}
