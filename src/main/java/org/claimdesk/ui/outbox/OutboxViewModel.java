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
import org.claimdesk.app.CsvFile;
import org.claimdesk.app.OutboxTriage;
import org.claimdesk.app.Queries;
import org.claimdesk.app.Resubmission;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.FailureGroup;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.Json;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.common.Paging;
import org.claimdesk.ui.common.RetryReasons;
import org.claimdesk.ui.common.RowList;
import org.claimdesk.ui.common.TaskRunner;

/**
 * The outbox page: filters (failed by default when any exist), error groups, a page of rows, the selected
 * row's payload and attempts, bulk re-queue and abandon (preview, reason, optional reconcile, progress,
 * result) and CSV export of the current filter.
 */
public final class OutboxViewModel {
    public static final int PAGE_SIZE = 200;

    /**
     * How long ago a row must have last changed to show (for a failed row: when it failed), the same age for
     * the table, the error groups, the export and the bulk actions ({@link OutboxQuery#changedBefore()}).
     */
    public enum Age {
        ANY("Changed any time", null),
        HOUR("Changed over 1 hour ago", Duration.ofHours(1)),
        DAY("Changed over 1 day ago", Duration.ofDays(1)),
        WEEK("Changed over 7 days ago", Duration.ofDays(7)),
        MONTH("Changed over 30 days ago", Duration.ofDays(30));

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

    /** A previewed resubmission of many rows waiting for staff to confirm it with a reason. */
    public record BulkResubmit(Scope scope, Resubmission.BulkPreview preview) {
    }

    /** A previewed bulk action waiting for staff to confirm it with a reason. */
    public record Plan(Scope scope, OutboxTriage.Preview preview) {
        public OutboxTriage.Action action() {
            return preview.action();
        }
    }

    /** The selected row in full: pretty payload and attempt history. */
    public record Detail(OutboxRow row, String prettyPayload, List<DeliveryAttempt> attempts) {
    }

    /** Opens a claim for correction at the field the state refused (the console's claim editor). */
    @FunctionalInterface
    public interface ClaimFixer {
        /**
         * @param field the submission field the state named as at fault, or null when it named none
         * @param message the state's answer, shown next to the field
         */
        void fix(long claimId, String field, String message);
    }

    private final Queries queries;
    private final OutboxTriage triage;
    private final Resubmission resubmission;
    private final TaskRunner tasks;
    private final String actor;

    private final ObjectProperty<DeliveryState> state = new SimpleObjectProperty<>();
    private final ObjectProperty<String> jurisdiction = new SimpleObjectProperty<>();
    private final StringProperty errorText = new SimpleStringProperty("");
    private final ObjectProperty<Age> age = new SimpleObjectProperty<>(Age.ANY);

    private final RowList<OutboxRow> rows = new RowList<>();
    private final RowList<FailureGroup> groups = new RowList<>();
    private final ObservableList<String> jurisdictions = FXCollections.observableArrayList();
    private final ReadOnlyObjectWrapper<Map<DeliveryState, Integer>> stateCounts = new ReadOnlyObjectWrapper<>(Map.of());
    private final ReadOnlyObjectWrapper<FailureGroup> selectedGroup = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<Paging> paging = new ReadOnlyObjectWrapper<>(Paging.first(PAGE_SIZE));
    private final ReadOnlyObjectWrapper<Instant> clock = new ReadOnlyObjectWrapper<>();
    /** Whether the latest page read has not answered yet; FX thread. */
    private boolean rowsPending;
    /** The rows a count under way is of, or null; FX thread. */
    private OutboxQuery countingFor;
    private final javafx.beans.property.ReadOnlyLongWrapper pagesShown = new javafx.beans.property.ReadOnlyLongWrapper();
    private final ReadOnlyObjectWrapper<List<OutboxRow>> selection = new ReadOnlyObjectWrapper<>(List.of());
    private final ReadOnlyObjectWrapper<Detail> detail = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<Plan> plan = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<Resubmission.Check> resubmitCheck = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<BulkResubmit> bulkResubmit = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<Resubmission.Result> lastResubmit = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    /** An action under way changes rows or writes a file (not a preview or a check, which only read). */
    private final ReadOnlyBooleanWrapper writing = new ReadOnlyBooleanWrapper();
    private final ReadOnlyObjectWrapper<TaskRunner.ProgressUpdate> progress = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<OutboxTriage.Result> lastResult = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyObjectWrapper<Notice> notice = new ReadOnlyObjectWrapper<>();
    private final RetryReasons reasons = new RetryReasons();
    /** By action: the reason given for rows when it did not go through (see {@link #reasonToRetry(Plan)}). */
    private final java.util.Map<OutboxTriage.Action, KeptReason> keptReasons = new java.util.EnumMap<>(
            OutboxTriage.Action.class);

    private ClaimFixer claimFixer = (claimId, field, message) -> { };
    /** Whether the Claims page holds unsaved changes of a claim: they would not go with a resubmission. */
    private java.util.function.LongPredicate unsavedEdit = claimId -> false;
    /**
     * Goes up with each page read asked for. A read superseded before it starts reads nothing: with a database slower
     * than the live refresh, the reads would queue up behind each other, and staff's own after them.
     */
    private volatile long pageRequest;
    /** A page read skipped (superseded before it started) was to read the error groups after its answer. */
    private boolean groupsOwed;
    private long groupRequest;
    /** The filter the error groups were last loaded for: a change of the state filter alone keeps them. */
    private OutboxQuery groupsLoadedFor;
    /** Goes up with each detail read asked for; as {@link #pageRequest}, a superseded one reads nothing. */
    private volatile long detailRequest;
    /** The age filter's "now": set when the age is chosen and at every refresh, so every read agrees on it. */
    private Instant ageFrom;
    private Age ageFromFor;
    /**
     * The error text as last applied: text typed but not applied (Enter, Apply) is not part of the rows shown, so it
     * is not part of a refresh, an export or "every row of the filter" either.
     */
    private String appliedErrorText = "";
    /** The claim whose rows the search asked for (a claim number typed), or null. */
    private Long appliedClaimId;
    /** The row the search asked for ("row 123"), or none. */
    private List<Long> appliedRowIds = List.of();
    /** Counts the searches applied: a claim number's late answer does not replace a search applied after it. */
    private long searchRequest;

    public OutboxViewModel(Queries queries, OutboxTriage triage, Resubmission resubmission, TaskRunner tasks,
            String actor) {
        this.queries = queries;
        this.triage = triage;
        this.resubmission = resubmission;
        this.tasks = tasks;
        this.actor = actor;
        this.ageFrom = queries.now();
    }

    /** Now in the database's time, which the rows' due times and ages are written in. */
    public Instant now() {
        return queries.now();
    }

    /**
     * The time the rows' "next attempt" is counted from while the page is shown: set at each of the console's ticks
     * ({@link #followClock}), so that "in 40 s" counts down and becomes "due" without a read; null before the first.
     */
    public ReadOnlyObjectProperty<Instant> clockProperty() {
        return clock.getReadOnlyProperty();
    }

    /** Sets {@link #clockProperty} to now; FX thread, reads nothing. */
    public void followClock() {
        clock.set(now());
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

    public ObservableList<FailureGroup> groups() {
        return groups;
    }

    public ObservableList<String> jurisdictions() {
        return jurisdictions;
    }

    public ReadOnlyObjectProperty<Map<DeliveryState, Integer>> stateCountsProperty() {
        return stateCounts.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<FailureGroup> selectedGroupProperty() {
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

    /** A resubmission of many rows previewed ({@link #prepareResubmit(Scope)}), waiting for its reason. */
    public ReadOnlyObjectProperty<BulkResubmit> bulkResubmitProperty() {
        return bulkResubmit.getReadOnlyProperty();
    }

    /** A failed row checked for resubmission, its diff against the refused payload; the view asks when it appears. */
    public ReadOnlyObjectProperty<Resubmission.Check> resubmitCheckProperty() {
        return resubmitCheck.getReadOnlyProperty();
    }

    /** The last resubmission done from this page. */
    public ReadOnlyObjectProperty<Resubmission.Result> lastResubmitProperty() {
        return lastResubmit.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** Whether the action under way changes rows or writes a file: quitting now would stop it where it is. */
    public ReadOnlyBooleanProperty writingProperty() {
        return writing.getReadOnlyProperty();
    }

    /** The page at work on one action; {@code writes}: it changes rows or writes a file. */
    private void begin(boolean writes) {
        busy.set(true);
        writing.set(writes);
    }

    private void end() {
        busy.set(false);
        writing.set(false);
    }

    public ReadOnlyObjectProperty<TaskRunner.ProgressUpdate> progressProperty() {
        return progress.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<OutboxTriage.Result> lastResultProperty() {
        return lastResult.getReadOnlyProperty();
    }

    /** How many pages of rows were shown: one more each time a read's rows are on the page, before their total. */
    public javafx.beans.property.ReadOnlyLongProperty pagesShownProperty() {
        return pagesShown.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Notice> noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    // ---- loading ------------------------------------------------------------------------------------

    /**
     * Reads the jurisdictions for the filter again, as staff open it: claims of another state entered since the page
     * opened are offered. The list changes only when it differs.
     */
    public void reloadJurisdictions() {
        org.claimdesk.ui.common.FilterChoices.reload(tasks, "load jurisdictions", queries::jurisdictions,
                jurisdictions, e -> notice.set(Notice.error("load the jurisdictions", e)));
    }

    /**
     * First load: failed rows by default when there are any (one found is enough: the rows are not counted for it),
     * every row otherwise. The state counts come from the {@link #countsFrom counts source}, which the console has
     * already read for its status bar unless they are due again.
     */
    public void load() {
        long searchedBefore = searchRequest;
        tasks.submit("open the outbox", p -> new Start(queries.anyOutbox(OutboxQuery.all().withState(DeliveryState.FAILED)),
                queries.jurisdictions()), s -> {
            jurisdictions.setAll(s.jurisdictions());
            if (searchRequest != searchedBefore) {
                // staff applied a filter (or chose a group) while the outbox opened: theirs stands
                return;
            }
            if (s.anyFailed()) {
                state.set(DeliveryState.FAILED);
            }
            applyFilters();
        }, e -> notice.set(Notice.error("open the outbox", e)));
        counts.whenDue();
    }

    private record Start(boolean anyFailed, List<String> jurisdictions) {
    }

    /** "row 123", "outbox row 123" or "#123" typed in the search: that row. */
    private static final java.util.regex.Pattern ROW_SEARCH =
            java.util.regex.Pattern.compile("(?i)(?:(?:outbox\\s+)?row\\s+|#)(\\d{1,18})");

    /**
     * Applies the filters. The search takes the text of a last error, a claim number (that claim's rows) or "row 123"
     * (that row): a claim number is looked up off the FX thread first, and one no claim has is said so.
     */
    public void applyFilters() {
        String typed = errorText.get() == null ? "" : errorText.get().strip();
        java.util.regex.Matcher row = ROW_SEARCH.matcher(typed);
        String number = typed.toUpperCase(java.util.Locale.ROOT);
        long request = ++searchRequest;
        if (org.claimdesk.domain.ClaimNumbers.FORMAT.matcher(number).matches()) {
            tasks.submitInteractive("find the claim", p -> queries.claim(number), found -> {
                if (request != searchRequest) {
                    // another search was applied meanwhile (the box emptied, another number): it stands
                    return;
                }
                if (found.isEmpty()) {
                    notice.set(Notice.warning("No claim " + number + ": its rows cannot be shown"));
                    return;
                }
                applySearch(null, found.get().claimId(), List.of());
            }, e -> notice.set(Notice.error("find the claim", e)));
            return;
        }
        if (row.matches()) {
            applySearch(null, null, List.of(Long.parseLong(row.group(1))));
            return;
        }
        applySearch(typed, null, List.of());
    }

    private void applySearch(String text, Long claimId, List<Long> rowIds) {
        appliedErrorText = text;
        appliedClaimId = claimId;
        appliedRowIds = rowIds;
        if (age.get() != ageFromFor) {
            ageFrom = queries.now();
            ageFromFor = age.get();
        }
        selectedGroup.set(null);
        paging.set(Paging.first(PAGE_SIZE));
        loadPage();
        if (!groupFilter().equals(groupsLoadedFor)) {
            loadGroups();
        }
    }

    /** What the error groups depend on: they always group failed rows, whatever state the table shows. */
    private OutboxQuery groupFilter() {
        return filter().withState(DeliveryState.FAILED);
    }

    /**
     * Reloads counts, the current page and the error groups, keeping the selection where its rows remain. The
     * groups are read {@link #GROUPS_AFTER} after the page's answer arrives: on a team database, grouping the
     * failed rows keeps the server busy far longer than the page's read (0.1–0.3 s at 1,000,000 rows), and right
     * after a switch to this page the processors are taken by the rows' layout and drawing and by whatever else
     * the switch set off.
     */
    public void refresh() {
        ageFrom = queries.now();
        ageFromFor = age.get();
        counts.now();
        loadPage(true);
    }

    /** How long after a refreshed page's answer arrives its error groups are read (a frame later at the soonest). */
    static final Duration GROUPS_AFTER = Duration.ofMillis(600);

    /** The rows on screen and the state counts, without regrouping the failures: a periodic or live refresh. */
    public void refreshRows() {
        counts.whenDue();
        loadPage();
    }

    /** Where the state counts come from: by default this page's own read at each refresh. */
    public interface CountsSource {
        /** Counts now (after a change made here, or asked for by staff). */
        void now();

        /** Counts unless counting would take too large a share of the time (a periodic refresh). */
        void whenDue();
    }

    private CountsSource counts = new CountsSource() {
        @Override
        public void now() {
            tasks.submit("count outbox rows", p -> queries.countOutboxByState(), stateCounts::set,
                    e -> notice.set(Notice.error("count the outbox rows", e)));
        }

        @Override
        public void whenDue() {
            now();
        }
    };

    /**
     * Takes the state counts from {@code source}, which hands them to {@link #showStateCounts}: the console counts
     * once for the status bar and this page.
     */
    public void countsFrom(CountsSource source) {
        counts = source;
    }

    /** The outbox rows per state, as read for the status bar. FX thread. */
    public void showStateCounts(Map<DeliveryState, Integer> latest) {
        stateCounts.set(latest);
    }

    /** The rows the filters select: what the table shows when no group is selected, and the "filter" scope. */
    OutboxQuery filter() {
        Instant before = age.get() == null || age.get().age == null ? null : ageFrom.minus(age.get().age);
        return OutboxQuery.all().withState(state.get()).withJurisdiction(jurisdiction.get())
                .withErrorText(appliedErrorText).withChangedBefore(before).withClaimId(appliedClaimId)
                .withIds(appliedRowIds);
    }

    /** The rows the table shows: the filter's, or the failed rows of the selected error group. */
    OutboxQuery shown() {
        FailureGroup group = selectedGroup.get();
        return group == null ? filter() : groupQuery(group);
    }

    private OutboxQuery groupQuery(FailureGroup group) {
        return groupFilter().withSignature(group.signature());
    }

    private void loadPage() {
        loadPage(false);
    }

    /**
     * Reads the page the filters select; with {@code thenGroups}, the error groups {@link #GROUPS_AFTER} after its
     * answer. A read skipped because a newer one was asked for before it started passes its groups on to the
     * newer one's answer: read after its own, they would compete with that page's read on a slow server.
     */
    private void loadPage(boolean thenGroups) {
        OutboxQuery shown = shown();
        Paging page = paging.get();
        long request = ++pageRequest;
        rowsPending = true;
        loading.set(true);
        tasks.submitInteractive("load outbox page", p -> {
            if (request != pageRequest) {
                return null; // superseded before it started: not applied either
            }
            return withClaims(queries.outbox(shown.withPage(page.offset(), PAGE_SIZE)));
        }, result -> {
            if (result == null) {
                groupsOwed |= thenGroups;
                return;
            }
            if (request == pageRequest) {
                rowsPending = false;
                rows.showInPlace(result);
                refreshSelection();
                pagesShown.set(pagesShown.get() + 1);
                // the total follows the rows once they are drawn, as on the Claims page: its count (every match of a
                // jurisdiction, say) never delays the rows staff wait for. A count of the same rows under way serves
                tasks.afterNextFrame(() -> {
                    if (shown.equals(shown()) && !shown.equals(countingFor)) {
                        loadTotal(shown);
                    } else {
                        settleLoading();
                    }
                });
            }
            groupsAfterAnswer(thenGroups);
        }, e -> {
            if (request == pageRequest) {
                rowsPending = false;
                settleLoading();
                notice.set(Notice.error("load outbox rows", e));
            }
            groupsAfterAnswer(thenGroups);
        });
    }

    /**
     * Counts the rows {@code counted} selects; its answer is shown while the filters still select them, whatever pages
     * were read meanwhile (a live refresh reads the rows again every few seconds during a drain, and a slow count
     * would otherwise never be shown).
     */
    private void loadTotal(OutboxQuery counted) {
        countingFor = counted;
        tasks.submit("count the page's rows", p -> queries.countOutbox(counted), total -> {
            if (counted.equals(countingFor)) {
                countingFor = null;
            }
            if (counted.equals(shown())) {
                Paging before = paging.get();
                paging.set(before.withTotal(total));
                if (paging.get().offset() != before.offset()) {
                    // the rows shrank under a page past the new end: read the last page there is
                    loadPage();
                    return;
                }
            }
            settleLoading();
        }, e -> {
            if (counted.equals(countingFor)) {
                countingFor = null;
            }
            settleLoading();
            if (counted.equals(shown())) {
                notice.set(Notice.error("count outbox rows", e));
            }
        });
    }

    /** The page is loading while its latest rows or the count of what the filters select are under way. */
    private void settleLoading() {
        loading.set(rowsPending || countingFor != null);
    }

    /** Reads the error groups a while after a page's answer when it, or a read skipped before it, asked for them. */
    private void groupsAfterAnswer(boolean thenGroups) {
        if (thenGroups || groupsOwed) {
            groupsOwed = false;
            tasks.afterPause(GROUPS_AFTER, this::loadGroups);
        }
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
        OutboxQuery filter = groupFilter();
        groupsLoadedFor = filter;
        long request = ++groupRequest;
        tasks.submit("group failed rows", p -> triage.groups(filter), list -> {
            if (request == groupRequest) {
                groups.showInPlace(list);
                followSelectedGroup(list);
            }
        }, e -> {
            if (request == groupRequest) {
                groupsLoadedFor = null;
            }
            notice.set(Notice.error("group the failed rows", e));
        });
    }

    /**
     * The selected group as read again: its count and when it was last seen as they are now; gone (every row of it
     * resubmitted, re-queued or abandoned), the filter's rows again, said so.
     */
    private void followSelectedGroup(List<FailureGroup> fresh) {
        FailureGroup current = selectedGroup.get();
        if (current == null) {
            return;
        }
        Optional<FailureGroup> now = fresh.stream().filter(g -> g.signature().equals(current.signature())).findFirst();
        if (now.isPresent()) {
            if (!now.get().equals(current)) {
                // the same rows' query: only what the group says of them changed
                selectedGroup.set(now.get());
            }
            return;
        }
        selectedGroup.set(null);
        notice.set(Notice.info("No failed row is left in the error group \"" + Formats.oneLine(current.sampleError(), 80)
                + "\": every row of the filter is shown"));
        paging.set(Paging.first(PAGE_SIZE));
        loadPage();
    }

    /** Shows only the rows of {@code group} (null shows the filter's rows again). */
    public void selectGroup(FailureGroup group) {
        FailureGroup current = selectedGroup.get();
        if (group == null && current == null) {
            return;
        }
        boolean same = group != null && current != null && current.signature().equals(group.signature());
        if (!same) {
            // a search still being looked up (a claim number) is older than this choice: it no longer applies
            searchRequest++;
        }
        selectedGroup.set(group);
        if (!same) {
            paging.set(Paging.first(PAGE_SIZE));
        }
        loadPage();
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
            // a detail still being read for a row no longer selected is dropped when it arrives
            detailRequest++;
            detail.set(null);
            return;
        }
        OutboxRow first = copy.get(0);
        if (shown == null || shown.row().id() != first.id() || !shown.row().equals(first)) {
            loadDetail(first);
        } else {
            // back to the row shown: a read for a row selected in between is dropped when it arrives
            detailRequest++;
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
        tasks.submitInteractive("load outbox row detail", p -> request != detailRequest ? null
                : new Detail(row, Json.pretty(row.event().payload()), queries.attempts(row.id())), d -> {
                    if (request == detailRequest) {
                        detail.set(d);
                    }
                }, e -> {
                    if (request == detailRequest) {
                        notice.set(Notice.error("load the row's attempts", e));
                    }
                });
    }

    // ---- bulk actions -------------------------------------------------------------------------------

    /**
     * Whether an action of this page is still running (a re-queue, an export, a resubmission): one at a time, so that
     * a second one (Ctrl+R, a claim's Resubmit…) never ends the first one's busy state or shares its progress.
     */
    private boolean refusedWhileBusy(String what) {
        if (!busy.get()) {
            return false;
        }
        notice.set(Notice.warning("The outbox page is still at work on the last action (its progress shows here): "
                + what + " once it is done"));
        return true;
    }

    /**
     * The rows a preview of {@code scope} reads, the page then at work on it; empty, with a notice, while another
     * action runs ({@code what} says what waits) or when the scope has no rows.
     */
    private Optional<OutboxQuery> startPreview(String what, Scope scope) {
        if (refusedWhileBusy(what)) {
            return Optional.empty();
        }
        Optional<OutboxQuery> chosen = rowsOf(scope);
        chosen.ifPresent(rows -> begin(false));
        return chosen;
    }

    /** Works out which rows {@code scope} means and what {@code action} would do to them; sets {@link #planProperty()}. */
    public void preview(OutboxTriage.Action action, Scope scope) {
        Optional<OutboxQuery> chosen = startPreview(action.verb().toLowerCase() + " more rows", scope);
        if (chosen.isEmpty()) {
            return;
        }
        OutboxQuery rows = chosen.get();
        tasks.submit("preview " + action.verb(), p -> new Plan(scope, triage.preview(action, rows)), p -> {
            end();
            if (p.preview().eligible() == 0) {
                notice.set(Notice.warning("Nothing to " + action.verb().toLowerCase() + " in " + scope.words() + ": "
                        + p.preview().describe()));
                return;
            }
            plan.set(p);
        }, e -> {
            end();
            notice.set(Notice.error("preview " + action.verb().toLowerCase(), e));
        });
    }

    /**
     * The rows {@code scope} means now: the selected rows, the selected error group's failed rows, or the filter's
     * rows; empty, with a notice saying what to select, when there is nothing to act on.
     */
    public Optional<OutboxQuery> rowsOf(Scope scope) {
        List<Long> selectedIds = selection.get().stream().map(OutboxRow::id).toList();
        FailureGroup group = selectedGroup.get();
        if (scope == Scope.SELECTION && selectedIds.isEmpty()) {
            notice.set(Notice.warning("Select rows first (click, Shift+click, Ctrl+A), or act on a group or the filter"));
            return Optional.empty();
        }
        if (scope == Scope.GROUP && group == null) {
            notice.set(Notice.warning("Select an error group first"));
            return Optional.empty();
        }
        return Optional.of(switch (scope) {
            case SELECTION -> OutboxQuery.byIds(selectedIds);
            case GROUP -> groupQuery(group);
            case FILTER -> filter();
        });
    }

    public void cancelPlan() {
        plan.set(null);
    }

    /**
     * The reason given for {@code plan}'s action on the same rows (re-queue, abandon) when it last did not go through
     * (a lost connection, the rows changed elsewhere), for its question to offer again; empty when there is none.
     */
    public String reasonToRetry(Plan plan) {
        KeptReason kept = keptReasons.get(plan.action());
        List<Long> targets = plan.preview().targetIds();
        // the same rows, or those of them still failed (a run the database stopped part-way changed the others)
        return kept != null && !targets.isEmpty() && kept.rows().containsAll(targets) ? kept.reason() : "";
    }

    /** A reason given for an action on {@code rows} that did not go through. */
    private record KeptReason(java.util.Set<Long> rows, String reason) {
    }

    private void keepReason(Plan plan, String reason) {
        if (reason == null || reason.isBlank()) {
            keptReasons.remove(plan.action());
        } else {
            keptReasons.put(plan.action(), new KeptReason(java.util.Set.copyOf(plan.preview().targetIds()), reason));
        }
    }

    /** As {@link #reasonToRetry(Plan)}, for the resubmit of row {@code outboxEventId}. */
    public String resubmitReasonToRetry(long outboxEventId) {
        return reasons.recall("resubmit:" + outboxEventId);
    }

    /** Runs the confirmed plan with its reason; progress and the result report follow. */
    public void execute(Plan confirmed, String reason, boolean reconcile) {
        plan.set(null);
        if (reason == null || reason.isBlank()) {
            notice.set(Notice.warning(confirmed.action().verb() + " needs a reason; nothing was changed"));
            return;
        }
        begin(true);
        OutboxTriage.Preview preview = confirmed.preview();
        int total = preview.eligible();
        String doing = preview.action() == OutboxTriage.Action.REQUEUE && reconcile ? "reconciled and re-queued"
                : preview.action().past();
        progress.set(new TaskRunner.ProgressUpdate(0, total, "starting"));
        tasks.submit(confirmed.action().verb() + " outbox rows",
                p -> triage.apply(preview, actor, reason, reconcile, done -> p.update(done, total, doing)), result -> {
                    end();
                    progress.set(null);
                    // stopped by the database, or every row changed elsewhere: the same rows are asked about again
                    if (result.failure() != null || result.changed() == 0 && result.reconciled() == 0) {
                        keepReason(confirmed, reason);
                    } else {
                        keptReasons.remove(confirmed.action());
                    }
                    lastResult.set(result);
                    notice.set(result.failure() == null ? Notice.success(describe(result))
                            : Notice.warning(describe(result)));
                    refresh();
                }, e -> {
                    end();
                    progress.set(null);
                    keepReason(confirmed, reason);
                    notice.set(Notice.error(confirmed.action().verb().toLowerCase() + " the rows", e));
                    refresh();
                }, progress::set);
    }

    static String describe(OutboxTriage.Result r) {
        StringBuilder s = new StringBuilder(Formats.count(r.changed()) + " row(s) " + r.action().past());
        if (r.reconciled() > 0) {
            s.append(", ").append(Formats.count(r.reconciled())).append(" already at the state and marked sent");
        }
        if (!r.notFailed().isEmpty()) {
            s.append(", ").append(Formats.count(r.notFailed().size())).append(" skipped because they are not failed");
        }
        if (!r.changedSinceIds().isEmpty()) {
            s.append(", ").append(Formats.count(r.changedSinceIds().size()))
                    .append(r.action() == OutboxTriage.Action.REQUEUE
                            ? " skipped because they or their claim changed since the preview (a corrected claim is"
                                    + " resubmitted, or re-queued once the preview says so)"
                            : " skipped because they changed since the preview");
        }
        if (!r.kept().isEmpty()) {
            s.append(", ").append(Formats.count(r.kept().size())).append(" left failed because the state may hold"
                    + " their submission and could not be asked (")
                    .append(r.kept().values().iterator().next())
                    .append(")");
        }
        if (r.failure() != null) {
            s.append(", then the database stopped the run (").append(Formats.count(r.notReachedIds().size()))
                    .append(" not reached; act on them again): ").append(r.failure());
        }
        if (r.unconfirmed() > 0) {
            s.append(" (").append(Formats.count(r.unconfirmed())).append(" re-queued without an answer from the state;"
                    + " resending is safe: same idempotency key)");
        }
        return s.toString();
    }

    // ---- fix and resubmit ---------------------------------------------------------------------------

    public void setClaimFixer(ClaimFixer fixer) {
        this.claimFixer = fixer;
    }

    /** @param unsaved whether a claim (by id) has changes typed on the Claims page and not saved */
    public void setUnsavedEdit(java.util.function.LongPredicate unsaved) {
        this.unsavedEdit = unsaved;
    }

    /**
     * Fix: opens the selected failed row's claim in the editor, at the field its last refusal named (the
     * attempts shown in the row's detail). After the fix, Resubmit on this page sends it under a new key.
     */
    public void fixSelectedClaim() {
        List<OutboxRow> selected = selection.get();
        if (selected.isEmpty() || selected.get(0).event().deliveryState() != DeliveryState.FAILED) {
            notice.set(Notice.warning("Select a failed row first"));
            return;
        }
        OutboxRow row = selected.get(0);
        Detail shown = detail.get();
        if (shown != null && shown.row().id() == row.id()) {
            claimFixer.fix(row.event().aggregateId(), lastField(shown.attempts()), row.event().lastError());
            return;
        }
        // asked for before the row's attempts are shown (Ctrl+Enter, then at once Ctrl+Shift+E): read them first, so
        // that the claim opens at the field the state named
        tasks.submitInteractive("read the row's attempts", p -> lastField(queries.attempts(row.id())),
                field -> claimFixer.fix(row.event().aggregateId(), field, row.event().lastError()),
                e -> notice.set(Notice.error("read the row's attempts", e)));
    }

    /** The field the shown row's last refusal named (as the state names it), or null: what a fix starts on. */
    public String shownRefusedField() {
        Detail shown = detail.get();
        return shown == null ? null : lastField(shown.attempts());
    }

    /** The field the last attempt's refusal named, or null. */
    private static String lastField(List<DeliveryAttempt> attempts) {
        return attempts.isEmpty() ? null : attempts.get(attempts.size() - 1).field();
    }

    /** Checks the first selected row for resubmission off the FX thread; sets {@link #resubmitCheckProperty()}. */
    public void prepareResubmit() {
        List<OutboxRow> selected = selection.get();
        if (selected.isEmpty()) {
            notice.set(Notice.warning("Select a failed row first"));
            return;
        }
        prepareResubmit(selected.get(0).id());
    }

    /**
     * Resubmit as "Act on" says: one selected row checked on its own ({@link #prepareResubmit()}, with its diff); several
     * rows, the error group or the filter previewed together ({@link #bulkResubmitProperty()}): each failed row whose
     * claim was corrected since it was queued is offered, the others are skipped with the reason.
     */
    public void prepareResubmit(Scope scope) {
        // one row selected, in the filter's rows or an error group's (Ctrl+Enter, Fix claim): that row, with its diff
        if (scope != Scope.FILTER && selection.get().size() == 1) {
            prepareResubmit();
            return;
        }
        Optional<OutboxQuery> chosen = startPreview("resubmit more rows", scope);
        if (chosen.isEmpty()) {
            return;
        }
        OutboxQuery rows = chosen.get();
        tasks.submit("preview resubmitting rows", p -> resubmission.preview(rows, null), found -> {
            end();
            Optional<Resubmission.Check> unsaved = found.targets().stream()
                    .filter(c -> unsavedEdit.test(c.claimId())).findFirst();
            if (unsaved.isPresent()) {
                notice.set(unsavedNotice(unsaved.get()));
                return;
            }
            if (found.eligible() == 0) {
                notice.set(Notice.warning("Nothing to resubmit in " + scope.words() + ": no failed row there has a"
                        + " claim corrected since it was queued (" + found.skipped().size() + " skipped); correct"
                        + " the claims first (Fix claim…, Fix a field…)"));
                return;
            }
            bulkResubmit.set(new BulkResubmit(scope, found));
        }, e -> {
            end();
            notice.set(Notice.error("preview the resubmission", e));
        });
    }

    /**
     * A resubmission carries the claim as stored: a fix still in the Claims page's form would not go with it, and the
     * row would read as unchanged.
     */
    private static Notice unsavedNotice(Resubmission.Check check) {
        return Notice.warning("Claim " + check.claimNumber() + " has changes not saved on the Claims page: save them"
                + " (Ctrl+S) first, so that the resubmission carries them; nothing was resubmitted");
    }

    /** What a retried resubmission of the same rows is known by ({@link RetryReasons}). */
    private static String retryKey(Resubmission.BulkPreview preview) {
        return "resubmit:" + preview.targets().stream().map(c -> Long.toString(c.outboxEventId()))
                .collect(java.util.stream.Collectors.joining(","));
    }

    public void cancelBulkResubmit() {
        bulkResubmit.set(null);
    }

    /** Resubmits the previewed rows under new keys, one reason for all; progress, then the result, follow. */
    public void resubmitAll(BulkResubmit confirmed, String reason) {
        bulkResubmit.set(null);
        if (reason == null || reason.isBlank()) {
            notice.set(Notice.warning("Resubmit needs a reason; nothing was changed"));
            return;
        }
        begin(true);
        Resubmission.BulkPreview preview = confirmed.preview();
        int total = preview.eligible();
        String what = retryKey(preview);
        progress.set(new TaskRunner.ProgressUpdate(0, total, "starting"));
        tasks.submit("resubmit outbox rows", p -> resubmission.resubmitAll(preview, actor, reason.strip(),
                done -> p.update(done, total, "resubmitted"), () -> false), result -> {
                    end();
                    progress.set(null);
                    if (result.failure() != null || result.resubmitted().isEmpty()) {
                        reasons.failed(what, reason);
                    } else {
                        reasons.succeeded(what);
                    }
                    notice.set(result.failure() == null && !result.resubmitted().isEmpty()
                            ? Notice.success(result.describe()) : Notice.warning(result.describe()));
                    refresh();
                }, e -> {
                    end();
                    progress.set(null);
                    reasons.failed(what, reason);
                    notice.set(Notice.error("resubmit the rows", e));
                    refresh();
                }, progress::set);
    }

    /** The reason given for resubmitting the same rows when it last did not go through; empty when none. */
    public String bulkResubmitReasonToRetry(BulkResubmit plan) {
        return reasons.recall(retryKey(plan.preview()));
    }

    /** As {@link #prepareResubmit()} for row {@code id}, e.g. sent from a claim's Deliveries tab. */
    public void prepareResubmit(long id) {
        if (refusedWhileBusy("resubmit")) {
            return;
        }
        begin(false);
        tasks.submit("check outbox row for resubmission", p -> resubmission.check(id), check -> {
            end();
            if (check.state() != DeliveryState.FAILED || (check.refusal() != null && !check.diff().isEmpty())) {
                notice.set(Notice.warning(check.refusal()));
                return;
            }
            if (unsavedEdit.test(check.claimId())) {
                notice.set(unsavedNotice(check));
                return;
            }
            resubmitCheck.set(check);
        }, e -> {
            end();
            notice.set(Notice.error("check the row for resubmission", e));
        });
    }

    public void cancelResubmit() {
        resubmitCheck.set(null);
    }

    /** Resubmits the checked row with its reason; refused when the row or its claim changed since the check. */
    public void resubmit(Resubmission.Check seen, String reason) {
        resubmitCheck.set(null);
        if (reason == null || reason.isBlank()) {
            notice.set(Notice.warning("Resubmit needs a reason; nothing was changed"));
            return;
        }
        begin(true);
        String what = "resubmit:" + seen.outboxEventId();
        tasks.submit("resubmit outbox row", p -> resubmission.resubmit(seen, actor, reason), r -> {
            end();
            reasons.succeeded(what);
            lastResubmit.set(r);
            notice.set(Notice.success("Row " + r.oldOutboxEventId() + " superseded by row " + r.newOutboxEventId()
                    + " (claim " + r.claimNumber() + ", new key " + r.newKey() + "; changed: "
                    + r.diff().describeFields() + "). Ctrl+Enter: next failed row"));
            refresh();
        }, e -> {
            end();
            reasons.failed(what, reason);
            notice.set(Notice.error("resubmit the row", e));
            refresh();
        });
    }

    /** The unchanged row offered for re-queue instead: the re-queue preview, with the key policy's warning. */
    public void requeueInstead(Resubmission.Check check) {
        resubmitCheck.set(null);
        if (refusedWhileBusy("re-queue")) {
            return;
        }
        begin(false);
        tasks.submit("preview re-queue", p -> new Plan(Scope.SELECTION,
                triage.preview(OutboxTriage.Action.REQUEUE, OutboxQuery.byIds(List.of(check.outboxEventId())))), p -> {
                    end();
                    plan.set(p);
                }, e -> {
                    end();
                    notice.set(Notice.error("preview re-queue", e));
                });
    }

    /**
     * Stepping through an error group: the failed row on this page after {@code afterId} (the row just handled),
     * or the first failed row when none comes after it.
     */
    public Optional<OutboxRow> nextFailedRow(long afterId) {
        List<OutboxRow> failed = rows.stream().filter(r -> r.event().deliveryState() == DeliveryState.FAILED).toList();
        return failed.stream().filter(r -> r.id() > afterId).findFirst().or(() -> failed.stream().findFirst());
    }

    // ---- export -------------------------------------------------------------------------------------

    /** Writes every row of the current filter (or the selected group) to {@code file}. */
    public void exportCsv(Path file) {
        if (refusedWhileBusy("export")) {
            return;
        }
        OutboxQuery shown = shown();
        begin(true);
        tasks.submit("export outbox CSV", p -> {
            CsvFile csv = CsvFile.create(file, List.of("outbox_event_id", "claim_id", "claim_number", "jurisdiction", "event_type",
                    "delivery_state", "attempts", "last_error", "next_attempt_at", "idempotency_key", "created_at",
                    "sent_at", "state_case_id", "last_changed_at", "superseded_by"), CsvFile.Guard.FORMULAS);
            try {
                // one state of the rows for the count and every page: rows others re-queue, resubmit or deliver
                // meanwhile neither move between pages nor come twice
                long written = queries.snapshot(() -> writeRows(csv, shown, p));
                // in place only once the snapshot ended well
                csv.finish();
                return written;
            } catch (RuntimeException | Error e) {
                // a full heap too: the partial file, its lock and its channel go now, not at the process's exit
                csv.abort();
                throw e;
            }
        }, n -> {
            end();
            progress.set(null);
            notice.set(Notice.success("Exported " + Formats.count(n) + " outbox rows to " + file));
        }, e -> {
            end();
            progress.set(null);
            notice.set(Notice.error("export the outbox rows", e));
        }, progress::set);
    }

    /** The rows of {@code shown}, page by page, into {@code csv}; how many. */
    private long writeRows(CsvFile csv, OutboxQuery shown, TaskRunner.Progress p) {
        // the count is for the progress only (a state's count comes from its tally): the rows end at a short page
        int total = queries.countOutbox(shown);
        // in id order, as the page lists them, each batch read past the last id written
        queries.eachOutboxPage(shown.unpaged(), batch -> {
            for (OutboxRow r : withClaims(batch)) {
                OutboxEvent e = r.event();
                csv.row(List.of(e.outboxEventId(), e.aggregateId(), r.claimNumber(), r.jurisdiction(), e.eventType(),
                        e.deliveryState().dbValue(), e.attempts(), nz(e.lastError()), nz(e.nextAttemptAt()),
                        e.idempotencyKey(), nz(e.createdAt()), nz(e.sentAt()), nz(e.stateCaseId()), nz(e.updatedAt()),
                        e.supersededBy() == null ? "" : e.supersededBy()));
            }
            p.update(csv.rows(), Math.max(total, csv.rows()), "exporting");
        });
        return csv.rows();
    }

    private static Object nz(Object value) {
        return value == null ? "" : value;
    }
}
