package org.claimdesk.ui.audit;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.ObservableList;
import org.claimdesk.app.CsvFile;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.app.Queries;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.common.RowList;
import org.claimdesk.ui.common.TaskRunner;

/** The audit trail, newest first, filtered by subject, actor and action, a page at a time; CSV export. */
public final class AuditViewModel {
    public static final int PAGE_SIZE = 200;
    static final int EXPORT_BATCH = 5_000;

    private final Queries queries;
    private final TaskRunner tasks;

    private final StringProperty subject = new SimpleStringProperty("");
    private final StringProperty actor = new SimpleStringProperty("");
    private final StringProperty action = new SimpleStringProperty();
    private final RowList<AuditEntry> rows = new RowList<>();
    private final ReadOnlyStringWrapper pageText = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper hasNext = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper hasPrevious = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper exporting = new ReadOnlyBooleanWrapper();
    private final ReadOnlyObjectWrapper<Notice> notice = new ReadOnlyObjectWrapper<>();
    private int offset;
    /** The newest entry the first page showed: later pages are counted among the entries up to it. */
    private Long pinnedTop;
    /** Goes up with each page read asked for; a read superseded before it starts reads nothing. */
    private volatile long request;
    /** The claim numbers of the claims the page on screen names, by id. */
    private Map<Long, String> claimNumbers = Map.of();

    /** A page of entries and the numbers of the claims they name. */
    private record Loaded(List<AuditEntry> entries, Map<Long, String> claimNumbers) {
    }

    public AuditViewModel(Queries queries, TaskRunner tasks) {
        this.queries = queries;
        this.tasks = tasks;
    }

    /**
     * An entry's subject as the page shows it: a claim by its number (as staff quote it and may type it in the
     * subject filter), an outbox row by that name, the worker once (its entries' subject id is the word itself),
     * anything else by its kind and id.
     */
    public String subjectText(AuditEntry entry) {
        if (AuditActions.SUBJECT_OUTBOX.equals(entry.subjectType())) {
            return "outbox row " + entry.subjectId();
        }
        String number = AuditActions.SUBJECT_CLAIM.equals(entry.subjectType()) ? claimNumbers.get(claimId(entry))
                : null;
        if (number != null) {
            return "claim " + number;
        }
        if (entry.subjectType().equals(entry.subjectId())) {
            return entry.subjectType();
        }
        return entry.subjectType() + " " + entry.subjectId();
    }

    public StringProperty subjectProperty() {
        return subject;
    }

    public StringProperty actorProperty() {
        return actor;
    }

    public StringProperty actionProperty() {
        return action;
    }

    /** The actions the filter offers: every action the audit trail records. */
    public List<String> actions() {
        return AuditActions.ALL;
    }

    public ObservableList<AuditEntry> rows() {
        return rows;
    }

    public ReadOnlyStringProperty pageTextProperty() {
        return pageText.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty hasNextProperty() {
        return hasNext.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty hasPreviousProperty() {
        return hasPrevious.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty exportingProperty() {
        return exporting.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Notice> noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    public void applyFilters() {
        applied = new Filters(subject.get(), actor.get(), action.get());
        offset = 0;
        // the old filter's pages are gone: no Next until the new filter's first page says there is one, and its
        // pages count from the entry that page pins, not from one the old filter pinned
        hasNext.set(false);
        pinnedTop = null;
        load();
    }

    /** The filters as last applied: text typed but not applied is part of no page, refresh or export. */
    private record Filters(String subject, String actor, String action) {
    }

    private Filters applied = new Filters("", "", null);

    public void refresh() {
        load();
    }

    public void nextPage() {
        if (hasNext.get()) {
            offset += PAGE_SIZE;
            load();
        }
    }

    public void previousPage() {
        if (offset > 0) {
            offset = Math.max(0, offset - PAGE_SIZE);
            load();
        }
    }

    /** Shows the audit entries of one subject (a claim id or an outbox row id). */
    public void showSubject(String subjectId) {
        subject.set(subjectId == null ? "" : subjectId);
        actor.set("");
        action.set(null);
        applyFilters();
    }

    private void load() {
        String s = applied.subject();
        String a = applied.actor();
        String act = applied.action();
        int from = offset;
        // the first page reads the newest entries and pins the newest it shows; the pages after it count from that
        // entry, so that entries added meanwhile (another workstation's) neither repeat nor skip entries on Next
        Long top = from == 0 ? null : pinnedTop;
        long mine = ++request;
        tasks.submitInteractive("load audit page", p -> {
            if (mine != request) {
                return null;
            }
            List<AuditEntry> page = queries.audit(s, a, act, top, from, PAGE_SIZE + 1);
            return new Loaded(page, queries.claimNumbers(page.stream().filter(e ->
                    AuditActions.SUBJECT_CLAIM.equals(e.subjectType())).map(AuditViewModel::claimId)
                    .filter(java.util.Objects::nonNull).collect(Collectors.toSet())));
        }, loaded -> showPage(mine, from, loaded), e -> {
            if (mine == request) {
                notice.set(Notice.error("load the audit trail", e));
            }
        });
    }

    private static Long claimId(AuditEntry entry) {
        try {
            return Long.valueOf(entry.subjectId());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private void showPage(long mine, int from, Loaded loaded) {
        if (mine != request) {
            return;
        }
        List<AuditEntry> page = loaded.entries();
        claimNumbers = loaded.claimNumbers();
        if (from == 0) {
            pinnedTop = page.isEmpty() ? null : page.get(0).auditId();
        }
        boolean more = page.size() > PAGE_SIZE;
        rows.showInPlace(more ? page.subList(0, PAGE_SIZE) : page);
        hasNext.set(more);
        hasPrevious.set(from > 0);
        int shown = Math.min(page.size(), PAGE_SIZE);
        pageText.set(shown == 0 ? "no entries"
                : Formats.count(from + 1L) + "–" + Formats.count((long) from + shown) + (more ? " of more" : ""));
    }

    /** Writes every entry matching the current filters to {@code file}, newest first. */
    public void exportCsv(Path file) {
        String s = applied.subject();
        String a = applied.actor();
        String act = applied.action();
        exporting.set(true);
        tasks.submit("export audit CSV", p -> {
            CsvFile csv = CsvFile.create(file, List.of("audit_id", "at", "actor", "action", "subject_type",
                    "subject_id", "reason", "details"), CsvFile.Guard.FORMULAS);
            try {
                // one state of the trail for every page: entries other workstations add meanwhile, newest first,
                // would push the pages after them down and repeat their last entries
                long written = queries.snapshot(() -> {
                    // each batch read below the last entry written, not at an offset: the last batch of a long trail
                    // costs what the first does
                    Long atMost = null;
                    while (true) {
                        List<AuditEntry> batch = queries.audit(s, a, act, atMost, 0, EXPORT_BATCH);
                        for (AuditEntry e : batch) {
                            csv.row(List.of(e.auditId(), e.at(), e.actor(), e.action(), e.subjectType(),
                                    e.subjectId(), e.reason() == null ? "" : e.reason(),
                                    e.details() == null ? "" : e.details()));
                        }
                        p.update(csv.rows(), 0, "exported " + csv.rows());
                        if (batch.size() < EXPORT_BATCH) {
                            break;
                        }
                        atMost = batch.get(batch.size() - 1).auditId() - 1;
                    }
                    return csv.rows();
                });
                // in place only once the snapshot ended well
                csv.finish();
                return written;
            } catch (RuntimeException | Error e) {
                // a full heap too: the partial file, its lock and its channel go now, not at the process's exit
                csv.abort();
                throw e;
            }
        }, n -> {
            exporting.set(false);
            notice.set(Notice.success("Exported " + Formats.count(n) + " audit entries to " + file));
        }, e -> {
            exporting.set(false);
            notice.set(Notice.error("export the audit trail", e));
        });
    }
}
