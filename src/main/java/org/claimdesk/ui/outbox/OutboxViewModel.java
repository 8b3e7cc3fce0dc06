package org.claimdesk.ui.outbox;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.claimdesk.app.Queries;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.Json;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.ui.common.CsvWriter;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.common.Paging;
import org.claimdesk.ui.common.RowList;
import org.claimdesk.ui.common.TaskRunner;

/**
 * The outbox page: filters (failed by default when any exist), error groups, a page of rows, the selected
 * row's payload and attempts, bulk re-queue and abandon (preview, reason, optional reconcile, progress,
 * result) and CSV export of the current filter.
 */
public final class OutboxViewModel {
    public static final int PAGE_SIZE = 200;
    static final int EXPORT_BATCH = 2_000;

    /** How old a row must be to show. */
    public enum Age {
        ANY("Any age", null),
        HOUR("Older than 1 hour", Duration.ofHours(1)),
        DAY("Older than 1 day", Duration.ofDays(1)),
        WEEK("Older than 7 days", Duration.ofDays(7)),
        MONTH("Older than 30 days", Duration.ofDays(30));

        private final String label;
        private final Duration age;

        Age(String label, Duration age) {
            this.label = label;
            this.age = age;
        }

        public String label() {
            return label;
        }
    }

    /** What a bulk action applies to. */
    public enum Scope {
        SELECTION("the selected rows"),
        GROUP("the selected error group"),
        FILTER("every row matching the filter");

        private final String words;

        Scope(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /** A previewed bulk action waiting for staff to confirm it with a reason. */
    public record Plan(OutboxTriage.Action action, Scope scope, List<Long> ids, OutboxTriage.Preview preview) {
    }

    /** The selected row in full: pretty payload and attempt history. */
    public record Detail(OutboxRow row, String prettyPayload, List<DeliveryAttempt> attempts) {
    }

    private final Queries queries;
    private final OutboxTriage triage;
    private final TaskRunner tasks;
    private final String actor;

    private final ObjectProperty<DeliveryState> state = new SimpleObjectProperty<>();
    private final ObjectProperty<String> jurisdiction = new SimpleObjectProperty<>();
    private final StringProperty errorText = new SimpleStringProperty("");
    private final ObjectProperty<Age> age = new SimpleObjectProperty<>(Age.ANY);

    private final RowList<OutboxRow> rows = new RowList<>();
    private final RowList<OutboxTriage.ErrorGroup> groups = new RowList<>();
    private final ObservableList<String> jurisdictions = FXCollections.observableArrayList();
    private final ReadOnlyObjectWrapper<Map<DeliveryState, Integer>> stateCounts = new ReadOnlyObjectWrapper<>(Map.of());
    private final ReadOnlyObjectWrapper<OutboxTriage.ErrorGroup> selectedGroup = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<Paging> paging = new ReadOnlyObjectWrapper<>(Paging.first(PAGE_SIZE));
    private final ReadOnlyObjectWrapper<List<OutboxRow>> selection = new ReadOnlyObjectWrapper<>(List.of());
    private final ReadOnlyObjectWrapper<Detail> detail = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<Plan> plan = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyObjectWrapper<TaskRunner.ProgressUpdate> progress = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<OutboxTriage.Result> lastResult = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyObjectWrapper<Notice> notice = new ReadOnlyObjectWrapper<>();

    private List<Long> groupIds;
    private long pageRequest;
    private long groupRequest;
    /** The filter the error groups were last loaded for: a change of the state filter alone keeps them. */
    private GroupFilter groupsLoadedFor;
    private long detailRequest;

    public OutboxViewModel(Queries queries, OutboxTriage triage, TaskRunner tasks, String actor) {
        this.queries = queries;
        this.triage = triage;
        this.tasks = tasks;
        this.actor = actor;
    }

    // ---- properties ---------------------------------------------------------------------------------

    public ObjectProperty<DeliveryState> stateProperty() {
        return state;
    }

    public ObjectProperty<String> jurisdictionProperty() {
        return jurisdiction;
    }

    public StringProperty errorTextProperty() {
        return errorText;
    }

    public ObjectProperty<Age> ageProperty() {
        return age;
    }

    public ObservableList<OutboxRow> rows() {
        return rows;
    }

    public ObservableList<OutboxTriage.ErrorGroup> groups() {
        return groups;
    }

    public ObservableList<String> jurisdictions() {
        return jurisdictions;
    }

    public ReadOnlyObjectProperty<Map<DeliveryState, Integer>> stateCountsProperty() {
        return stateCounts.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<OutboxTriage.ErrorGroup> selectedGroupProperty() {
        return selectedGroup.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Paging> pagingProperty() {
        return paging.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<List<OutboxRow>> selectionProperty() {
        return selection.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Detail> detailProperty() {
        return detail.getReadOnlyProperty();
    }

    /** A previewed bulk action awaiting confirmation; the view asks for the reason when it appears. */
    public ReadOnlyObjectProperty<Plan> planProperty() {
        return plan.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<TaskRunner.ProgressUpdate> progressProperty() {
        return progress.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<OutboxTriage.Result> lastResultProperty() {
        return lastResult.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Notice> noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    // ---- loading ------------------------------------------------------------------------------------

    /** First load: failed rows by default when there are any, every row otherwise. */
    public void load() {
        tasks.submit("count outbox rows", p -> new Start(queries.countOutboxByState(), queries.jurisdictions()), s -> {
            stateCounts.set(s.counts());
            jurisdictions.setAll(s.jurisdictions());
            if (s.counts().getOrDefault(DeliveryState.FAILED, 0) > 0) {
                state.set(DeliveryState.FAILED);
            }
            applyFilters();
        }, e -> notice.set(Notice.error("count the outbox rows", e)));
    }

    private record Start(Map<DeliveryState, Integer> counts, List<String> jurisdictions) {
    }

    public void applyFilters() {
        selectedGroup.set(null);
        groupIds = null;
        paging.set(paging.get().firstPage());
        loadPage();
        if (!groupFilter().equals(groupsLoadedFor)) {
            loadGroups();
        }
    }

    /** What the error groups depend on: they always group failed rows, whatever state the table shows. */
    private record GroupFilter(String jurisdiction, String errorText, Age age) {
    }

    private GroupFilter groupFilter() {
        return new GroupFilter(jurisdiction.get(), errorText.get() == null ? "" : errorText.get().strip(), age.get());
    }

    /** Reloads counts, groups and the current page, keeping the selection where its rows remain. */
    public void refresh() {
        tasks.submit("count outbox rows", p -> queries.countOutboxByState(), stateCounts::set, e -> { });
        loadGroups();
        OutboxTriage.ErrorGroup group = selectedGroup.get();
        if (group == null) {
            loadPage();
        } else {
            selectGroup(group);
        }
    }

    /** The rows on screen and the state counts (one indexed read), without regrouping the failures. */
    public void refreshRows() {
        tasks.submit("count outbox rows", p -> queries.countOutboxByState(), stateCounts::set, e -> { });
        if (selectedGroup.get() == null) {
            loadPage();
        } else {
            selectGroup(selectedGroup.get());
        }
    }

    OutboxQuery filter() {
        Instant before = age.get() == null || age.get().age == null ? null : Instant.now().minus(age.get().age);
        String text = errorText.get() == null || errorText.get().isBlank() ? null : errorText.get().strip();
        return new OutboxQuery(state.get(), jurisdiction.get(), text, before, null, 0, 0);
    }

    private void loadPage() {
        OutboxQuery filter = filter();
        Paging page = paging.get();
        List<Long> ids = groupIds;
        long request = ++pageRequest;
        loading.set(true);
        tasks.submitInteractive("load outbox page", p -> {
            if (ids != null) {
                int from = Math.min(page.offset(), ids.size());
                int to = Math.min(ids.size(), from + PAGE_SIZE);
                return new PageResult(withClaims(queries.outboxEvents(ids.subList(from, to))), ids.size());
            }
            List<OutboxEvent> events = queries.outbox(filter.withPage(page.offset(), PAGE_SIZE));
            return new PageResult(withClaims(events), queries.countOutbox(filter));
        }, result -> {
            if (request != pageRequest) {
                return;
            }
            loading.set(false);
            paging.set(paging.get().withTotal(result.total()));
            rows.showInPlace(result.rows());
            refreshSelection();
        }, e -> {
            if (request == pageRequest) {
                loading.set(false);
                notice.set(Notice.error("load outbox rows", e));
            }
        });
    }

    private record PageResult(List<OutboxRow> rows, int total) {
    }

    /** The rows with their claims' number, jurisdiction, claimant and status, the claims read in one query. */
    private List<OutboxRow> withClaims(List<OutboxEvent> events) {
        Map<Long, Claim> claims = queries.claims(events.stream().map(OutboxEvent::aggregateId).toList());
        List<OutboxRow> result = new ArrayList<>(events.size());
        for (OutboxEvent e : events) {
            Optional<Claim> claim = Optional.ofNullable(claims.get(e.aggregateId()));
            result.add(new OutboxRow(e, claim.map(Claim::claimNumber).orElse("claim " + e.aggregateId()),
                    claim.map(Claim::jurisdiction).orElse(""), claim.map(Claim::claimantName).orElse(""),
                    claim.map(c -> c.status().label()).orElse("")));
        }
        return result;
    }

    private void loadGroups() {
        groupsLoadedFor = groupFilter();
        OutboxQuery filter = filter().withState(DeliveryState.FAILED);
        long request = ++groupRequest;
        tasks.submit("group failed rows", p -> triage.errorGroups(filter), list -> {
            if (request == groupRequest) {
                groups.showInPlace(list);
            }
        }, e -> {
            if (request == groupRequest) {
                groupsLoadedFor = null;
            }
            notice.set(Notice.error("group the failed rows", e));
        });
    }

    /** Shows only the rows of {@code group} (null shows the filter's rows again). */
    public void selectGroup(OutboxTriage.ErrorGroup group) {
        if (group == null) {
            if (selectedGroup.get() != null) {
                selectedGroup.set(null);
                groupIds = null;
                paging.set(paging.get().firstPage());
                loadPage();
            }
            return;
        }
        boolean same = selectedGroup.get() != null && selectedGroup.get().signature().equals(group.signature());
        selectedGroup.set(group);
        OutboxQuery filter = filter().withState(DeliveryState.FAILED);
        tasks.submit("load error group", p -> triage.idsInGroup(filter, group.signature()), ids -> {
            OutboxTriage.ErrorGroup current = selectedGroup.get();
            if (current == null || !current.signature().equals(group.signature())) {
                return;
            }
            groupIds = ids;
            if (!same) {
                paging.set(paging.get().firstPage());
            }
            loadPage();
        }, e -> notice.set(Notice.error("load the error group", e)));
    }

    public void nextPage() {
        move(paging.get().next());
    }

    public void previousPage() {
        move(paging.get().previous());
    }

    private void move(Paging target) {
        if (target.offset() != paging.get().offset()) {
            paging.set(target);
            loadPage();
        }
    }

    // ---- selection and detail -----------------------------------------------------------------------

    /** The rows selected in the table; the first one is shown in the detail pane. */
    public void select(List<OutboxRow> selected) {
        List<OutboxRow> copy = List.copyOf(selected);
        Detail shown = detail.get();
        selection.set(copy);
        if (copy.isEmpty()) {
            detail.set(null);
            return;
        }
        OutboxRow first = copy.get(0);
        if (shown == null || shown.row().id() != first.id() || !shown.row().equals(first)) {
            loadDetail(first);
        }
    }

    private void refreshSelection() {
        if (selection.get().isEmpty()) {
            return;
        }
        Map<Long, OutboxRow> byId = new HashMap<>();
        rows.forEach(r -> byId.put(r.id(), r));
        List<OutboxRow> fresh = new ArrayList<>();
        for (OutboxRow r : selection.get()) {
            OutboxRow now = byId.get(r.id());
            if (now != null) {
                fresh.add(now);
            }
        }
        select(fresh);
    }

    private void loadDetail(OutboxRow row) {
        long request = ++detailRequest;
        tasks.submitInteractive("load outbox row detail", p -> new Detail(row, Json.pretty(row.event().payload()),
                queries.attempts(row.id())), d -> {
                    if (request == detailRequest) {
                        detail.set(d);
                    }
                }, e -> notice.set(Notice.error("load the row's attempts", e)));
    }

    // ---- bulk actions -------------------------------------------------------------------------------

    /** Works out which rows {@code scope} means and what {@code action} would do to them; sets {@link #planProperty()}. */
    public void preview(OutboxTriage.Action action, Scope scope) {
        List<Long> selectedIds = selection.get().stream().map(OutboxRow::id).toList();
        OutboxTriage.ErrorGroup group = selectedGroup.get();
        OutboxQuery filter = filter();
        if (scope == Scope.SELECTION && selectedIds.isEmpty()) {
            notice.set(Notice.warning("Select rows first (click, Shift+click, Ctrl+A), or act on a group or the filter"));
            return;
        }
        if (scope == Scope.GROUP && group == null) {
            notice.set(Notice.warning("Select an error group first"));
            return;
        }
        busy.set(true);
        tasks.submit("preview " + action.verb(), p -> {
            List<Long> ids = switch (scope) {
                case SELECTION -> selectedIds;
                case GROUP -> triage.idsInGroup(filter.withState(DeliveryState.FAILED), group.signature());
                case FILTER -> triage.ids(filter);
            };
            return new Plan(action, scope, ids, triage.preview(action, ids));
        }, p -> {
            busy.set(false);
            if (p.preview().eligible() == 0) {
                notice.set(Notice.warning("Nothing to " + action.verb().toLowerCase() + " in " + scope.words() + ": "
                        + p.preview().describe()));
                return;
            }
            plan.set(p);
        }, e -> {
            busy.set(false);
            notice.set(Notice.error("preview " + action.verb().toLowerCase(), e));
        });
    }

    public void cancelPlan() {
        plan.set(null);
    }

    /** Runs the confirmed plan with its reason; progress and the result report follow. */
    public void execute(Plan confirmed, String reason, boolean reconcile) {
        plan.set(null);
        if (reason == null || reason.isBlank()) {
            notice.set(Notice.warning(confirmed.action().verb() + " needs a reason; nothing was changed"));
            return;
        }
        busy.set(true);
        progress.set(new TaskRunner.ProgressUpdate(0, confirmed.ids().size(), "starting"));
        tasks.submit(confirmed.action().verb() + " outbox rows",
                p -> triage.apply(confirmed.preview(), actor, reason, reconcile, p), result -> {
                    busy.set(false);
                    progress.set(null);
                    lastResult.set(result);
                    notice.set(Notice.success(describe(result)));
                    refresh();
                }, e -> {
                    busy.set(false);
                    progress.set(null);
                    notice.set(Notice.error(confirmed.action().verb().toLowerCase() + " the rows", e));
                    refresh();
                }, progress::set);
    }

    static String describe(OutboxTriage.Result r) {
        StringBuilder s = new StringBuilder(Formats.count(r.changed()) + " row(s) " + r.action().past());
        if (r.reconciled() > 0) {
            s.append(", ").append(Formats.count(r.reconciled())).append(" already at the state and marked sent");
        }
        if (r.skipped() > 0) {
            s.append(", ").append(Formats.count(r.skipped())).append(" skipped because their state changed");
        }
        if (!r.notes().isEmpty()) {
            s.append(" (").append(String.join("; ", r.notes())).append(')');
        }
        return s.toString();
    }

    // ---- export -------------------------------------------------------------------------------------

    /** Writes every row of the current filter (or the selected group) to {@code file}. */
    public void exportCsv(Path file) {
        OutboxQuery filter = filter();
        List<Long> ids = groupIds;
        busy.set(true);
        tasks.submit("export outbox CSV", p -> {
            CsvWriter csv = new CsvWriter(file, List.of("outbox_event_id", "claim_id", "claim_number", "jurisdiction", "event_type",
                    "delivery_state", "attempts", "last_error", "next_attempt_at", "idempotency_key", "created_at",
                    "sent_at", "state_case_id"));
            try {
                int total = ids != null ? ids.size() : queries.countOutbox(filter);
                for (int offset = 0; offset < total; offset += EXPORT_BATCH) {
                    List<OutboxEvent> batch;
                    if (ids != null) {
                        batch = queries.outboxEvents(ids.subList(offset, Math.min(ids.size(), offset + EXPORT_BATCH)));
                    } else {
                        batch = queries.outbox(filter.withPage(offset, EXPORT_BATCH));
                    }
                    for (OutboxRow r : withClaims(batch)) {
                        OutboxEvent e = r.event();
                        csv.row(List.of(e.outboxEventId(), e.aggregateId(), r.claimNumber(), r.jurisdiction(), e.eventType(),
                                e.deliveryState().dbValue(), e.attempts(), nz(e.lastError()), nz(e.nextAttemptAt()),
                                e.idempotencyKey(), nz(e.createdAt()), nz(e.sentAt()), nz(e.stateCaseId())));
                    }
                    p.update(csv.rows(), total, "exporting");
                    if (batch.isEmpty()) {
                        break;
                    }
                }
                csv.close();
                return csv.rows();
            } catch (RuntimeException e) {
                csv.abort();
                throw e;
            }
        }, n -> {
            busy.set(false);
            progress.set(null);
            notice.set(Notice.success("Exported " + Formats.count(n) + " outbox rows to " + file));
        }, e -> {
            busy.set(false);
            progress.set(null);
            notice.set(Notice.error("export the outbox rows", e));
        }, progress::set);
    }

    private static Object nz(Object value) {
        return value == null ? "" : value;
    }
}
