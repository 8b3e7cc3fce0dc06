package org.claimdesk.ui.claims;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.UUID;
import java.util.function.LongConsumer;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.ObservableMap;
import org.claimdesk.app.AdvanceResult;
import org.claimdesk.app.ClaimEvidence;
import org.claimdesk.app.Queries;
import org.claimdesk.app.SubmitResult;
import org.claimdesk.app.Workflow;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.KeyPolicy;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.common.Paging;
import org.claimdesk.ui.common.RetryReasons;
import org.claimdesk.ui.common.RowList;
import org.claimdesk.ui.common.TaskRunner;

/**
 * The claims page: filters, one page of rows read from the database, counts per status, the selected
 * claim's detail and the workflow actions allowed for it. Every read and write runs through the
 * {@link TaskRunner}; results that arrive after a newer request are dropped.
 */
public final class ClaimsViewModel {
    public static final int PAGE_SIZE = 200;

    private final Queries queries;
    private final Workflow workflow;
    private final TaskRunner tasks;
    private final String actor;

    private final StringProperty search = new SimpleStringProperty("");
    private final ObjectProperty<String> jurisdiction = new SimpleObjectProperty<>();
    private final BooleanProperty overdueOnly = new SimpleBooleanProperty();
    private final Set<ClaimStatus> statuses = EnumSet.noneOf(ClaimStatus.class);
    private ClaimQuery.Sort sort = ClaimQuery.Sort.CLAIM_ID;
    private boolean descending;

    private final RowList<ClaimRow> rows = new RowList<>();
    private final ObservableList<String> jurisdictions = FXCollections.observableArrayList();
    private final ObservableMap<ClaimStatus, Integer> statusCounts = FXCollections.observableMap(new EnumMap<>(ClaimStatus.class));
    private final ReadOnlyObjectWrapper<Set<ClaimStatus>> activeStatuses = new ReadOnlyObjectWrapper<>(Set.of());
    private final ReadOnlyObjectWrapper<Paging> paging = new ReadOnlyObjectWrapper<>(Paging.first(PAGE_SIZE));
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyObjectWrapper<ClaimRow> selected = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<ClaimDetail> detail = new ReadOnlyObjectWrapper<>();
    private final ObservableList<ClaimAction> actions = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper revealedTaxId = new ReadOnlyStringWrapper();
    /** The version of the claim the revealed tax id was read from. */
    private long revealedVersion;
    private final ReadOnlyObjectWrapper<Notice> notice = new ReadOnlyObjectWrapper<>();
    private final ClaimEvidence evidence;
    private final ClaimEditViewModel editor;

    /** A field to mark once the claim's detail has been read: see {@link #editAtField}. */
    private record PendingFault(long claimId, String field, String message) {
    }

    private PendingFault pendingFault;
    private LongConsumer resubmitter = id -> { };
    private final RetryReasons reasons = new RetryReasons();
    /**
     * Goes up with each page read asked for. A read superseded before it starts reads nothing: with a database slower
     * than the live refresh, the reads would queue up behind each other, and staff's own after them.
     */
    private volatile long pageRequest;
    private long countRequest;
    /** Goes up with every filter that brings its own counts; read by the count scan to stop when outdated. */
    private volatile long filterRequest;
    /** A page read with its counts was asked for and its counts not read yet (a later page read brings them). */
    private boolean countsOwed;
    /** Goes up with each detail read asked for; as {@link #pageRequest}, a superseded one reads nothing. */
    private volatile long detailRequest;
    private long lastFilterNanos;
    /** The query of the rows on screen: the page's filters as they were applied. */
    private ClaimQuery shownQuery;
    /**
     * The search as last applied (Enter, a filter chosen, the filters cleared): text typed but not applied is not part
     * of any read, so a live refresh or a page turn keeps showing what the pager counted.
     */
    private String appliedSearch = "";
    /** The newest {@link #openClaim}: an older one answering later is dropped. */
    private long openRequest;
    private final ReadOnlyObjectWrapper<Long> lastPageMillis = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyLongWrapper pagesShown = new ReadOnlyLongWrapper();

    public ClaimsViewModel(Queries queries, Workflow workflow, TaskRunner tasks, String actor) {
        this.queries = queries;
        this.workflow = workflow;
        this.tasks = tasks;
        this.actor = actor;
        this.evidence = workflow.evidence();
        this.editor = new ClaimEditViewModel(workflow.editing(), evidence, tasks, actor, queries::today, notice::set,
                this::refresh);
    }

    // ---- inputs -------------------------------------------------------------------------------------

    public StringProperty searchProperty() {
        return search;
    }

    public ObjectProperty<String> jurisdictionProperty() {
        return jurisdiction;
    }

    public BooleanProperty overdueOnlyProperty() {
        return overdueOnly;
    }

    // ---- outputs ------------------------------------------------------------------------------------

    public ObservableList<ClaimRow> rows() {
        return rows;
    }

    public ObservableList<String> jurisdictions() {
        return jurisdictions;
    }

    public ObservableMap<ClaimStatus, Integer> statusCounts() {
        return statusCounts;
    }

    public ReadOnlyObjectProperty<Set<ClaimStatus>> activeStatusesProperty() {
        return activeStatuses.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Paging> pagingProperty() {
        return paging.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    /** True while an action (advance, submit, reveal) is under way; the action bar is disabled. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<ClaimRow> selectedProperty() {
        return selected.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<ClaimDetail> detailProperty() {
        return detail.getReadOnlyProperty();
    }

    /** Sends a failed row of the claim shown to the Outbox page's resubmit (the console's navigation). */
    public void setResubmitter(LongConsumer resubmitter) {
        this.resubmitter = resubmitter;
    }

    /**
     * Deliveries tab: edits the claim shown at the field the state named in {@code delivery}'s last answer,
     * with the state's message next to it.
     */
    public void fixDelivery(ClaimDetail.Delivery delivery) {
        if (delivery == null || delivery.event().deliveryState() != DeliveryState.FAILED) {
            notice.set(Notice.warning("Select a failed delivery first"));
            return;
        }
        List<DeliveryAttempt> attempts = delivery.attempts();
        String field = attempts.isEmpty() ? null : attempts.get(attempts.size() - 1).field();
        editAtField(delivery.event().aggregateId(), field, delivery.event().lastError());
    }

    /** Deliveries tab: the failed row's resubmit on the Outbox page (its diff, a reason, a new key). */
    public void resubmitDelivery(ClaimDetail.Delivery delivery) {
        if (delivery == null || delivery.event().deliveryState() != DeliveryState.FAILED) {
            notice.set(Notice.warning("Select a failed delivery first"));
            return;
        }
        if (editor.dirtyProperty().get()) {
            // the resubmission carries the claim as stored: a fix still in the form would not go with it
            notice.set(Notice.warning("Claim " + selected.get().claimNumber() + " has changes not saved: save them"
                    + " (Ctrl+S) first, so that the resubmission carries them; nothing was resubmitted"));
            return;
        }
        resubmitter.accept(delivery.event().outboxEventId());
    }

    /** The detail pane's edit mode and Evidence tab, for the selected claim. */
    public ClaimEditViewModel editor() {
        return editor;
    }

    /** Whether claim {@code claimId} is the one being edited, with changes not saved. */
    public boolean unsavedEdit(long claimId) {
        ClaimRow shown = selected.get();
        return editor.dirtyProperty().get() && shown != null && shown.claimId() == claimId;
    }

    public ObservableList<ClaimAction> actions() {
        return actions;
    }

    public ReadOnlyStringProperty revealedTaxIdProperty() {
        return revealedTaxId.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Notice> noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    /** How long the last filter took from {@link #applyFilters()} until its page was in {@link #rows()}. */
    public ReadOnlyObjectProperty<Long> lastPageMillisProperty() {
        return lastPageMillis.getReadOnlyProperty();
    }

    /** Counts the pages put into {@link #rows()}; goes up by one each time a page arrives. */
    public ReadOnlyLongProperty pagesShownProperty() {
        return pagesShown.getReadOnlyProperty();
    }

    public ClaimQuery.Sort sort() {
        return sort;
    }

    public boolean descending() {
        return descending;
    }

    // ---- commands -----------------------------------------------------------------------------------

    /** First load: the jurisdictions for the filter, then the first page and the counts. */
    public void load() {
        reloadJurisdictions();
        applyFilters();
    }

    /**
     * Reads the jurisdictions for the filter again, as staff open it: a claim of another state entered here or on
     * another workstation since the page opened is offered. The list changes only when it differs.
     */
    public void reloadJurisdictions() {
        org.claimdesk.ui.common.FilterChoices.reload(tasks, "load jurisdictions", queries::jurisdictions,
                jurisdictions, e -> notice.set(Notice.error("load the jurisdictions", e)));
    }

    public void toggleStatus(ClaimStatus status, boolean on) {
        if (on ? statuses.add(status) : statuses.remove(status)) {
            activeStatuses.set(Set.copyOf(statuses));
            applyFilters();
        }
    }

    public void clearStatuses() {
        if (!statuses.isEmpty()) {
            statuses.clear();
            activeStatuses.set(Set.of());
            applyFilters();
        }
    }

    public void clearFilters() {
        statuses.clear();
        activeStatuses.set(Set.of());
        search.set("");
        jurisdiction.set(null);
        overdueOnly.set(false);
        applyFilters();
    }

    /** Back to the first page with the current filters. */
    public void applyFilters() {
        appliedSearch = search.get();
        lastFilterNanos = System.nanoTime();
        // another filter's total says nothing of this one's: "counting…", and no page past the first, until counted
        paging.set(Paging.first(PAGE_SIZE));
        loadPage(true);
    }

    /** Reloads the current page and the counts; the selection stays when its claim is still on the page. */
    public void refresh() {
        loadPage(true, true);
        reloadDetail();
    }

    /** Reads the selected claim's detail again (its history, deliveries, audit entries and evidence). */
    public void reloadDetail() {
        ClaimRow current = selected.get();
        if (current != null) {
            loadDetail(current.claimId());
        }
    }

    /**
     * The rows on screen only (no counts): what the live refresh does while deliveries move. For a claim shown whose
     * submission was on its way, it also asks whether it still is, and reads the detail again once it is not: when
     * the state refuses it, the claim becomes editable while its row in the table stays the same.
     */
    public void refreshRows() {
        loadPage(false);
        ClaimDetail shown = detail.get();
        // one check at a time: during another workstation's drain the live refresh comes several times a second
        if (shown != null && shown.editable() != null && shown.editable().submissionPending() && !checkingSubmission) {
            long claimId = shown.editable().claimId();
            checkingSubmission = true;
            tasks.submit("check the claim's submission",
                    p -> queries.withPendingSubmission(List.of(claimId)).contains(claimId), stillPending -> {
                        checkingSubmission = false;
                        if (!stillPending) {
                            loadDetail(claimId);
                        }
                    }, e -> {
                        checkingSubmission = false;
                        notice.set(Notice.error("check the claim's submission", e));
                    });
        }
    }

    /** Whether the check of a shown claim's submission on its way runs; on the UI thread. */
    private boolean checkingSubmission;

    public void sortBy(ClaimQuery.Sort newSort, boolean desc) {
        ClaimQuery.Sort value = newSort == null ? ClaimQuery.Sort.CLAIM_ID : newSort;
        if (value != sort || desc != descending) {
            sort = value;
            descending = desc;
            paging.set(paging.get().firstPage());
            loadPage(false);
        }
    }

    public void nextPage() {
        movePage(paging.get().next());
    }

    public void previousPage() {
        movePage(paging.get().previous());
    }

    public void firstPage() {
        movePage(paging.get().firstPage());
    }

    public void lastPage() {
        movePage(paging.get().lastPage());
    }

    private void movePage(Paging target) {
        if (target.offset() != paging.get().offset()) {
            paging.set(target);
            loadPage(false);
        }
    }

    ClaimQuery query() {
        LocalDate overdueOn = overdueOnly.get() ? queries.today() : null;
        String text = appliedSearch == null ? null : appliedSearch.strip();
        return new ClaimQuery(statuses, jurisdiction.get(), text, overdueOn, sort, descending,
                paging.get().offset(), PAGE_SIZE);
    }

    /**
     * The filter of the rows on screen, every page of it (what "Export…" writes): the query the page was read with,
     * so a search typed but not applied is not part of it.
     */
    public ClaimQuery shownFilter() {
        return (shownQuery == null ? query() : shownQuery).withPage(0, 0);
    }

    private void loadPage(boolean withCounts) {
        loadPage(withCounts, false);
    }

    /**
     * Reads the page the filters select, with the claims' counts per status when {@code withCounts}; the caller reads
     * the selected claim's detail itself when {@code detailReadAlongside}.
     */
    private void loadPage(boolean withCounts, boolean detailReadAlongside) {
        ClaimQuery query = query();
        long request = ++pageRequest;
        if (withCounts) {
            filterRequest++;
            countsOwed = true;
        }
        long started = lastFilterNanos;
        loading.set(true);
        tasks.submitInteractive("load claims page", p -> {
            if (request != pageRequest) {
                return null; // superseded before it started: not applied either
            }
            LocalDate today = queries.today();
            List<ClaimRow> page = new ArrayList<>();
            for (Claim c : queries.claims(query)) {
                page.add(ClaimRow.of(c, today));
            }
            return page;
        }, page -> {
            if (request != pageRequest) {
                return;
            }
            shownQuery = query;
            rows.showInPlace(page);
            reselect(detailReadAlongside);
            pagesShown.set(pagesShown.get() + 1);
            if (started != 0) {
                lastPageMillis.set((System.nanoTime() - started) / 1_000_000);
                lastFilterNanos = 0;
            }
            // The counts follow the page once it is drawn, so the rows staff wait for (their read, then their
            // layout and drawing) never share the processors with the count scan. A page read for the rows only
            // that overtook one read with its counts brings them.
            if (countsOwed) {
                countsOwed = false;
                long filter = filterRequest;
                tasks.afterNextFrame(() -> {
                    // a filter applied meanwhile brings its own counts
                    if (filter == filterRequest) {
                        loadCounts(query);
                    }
                });
            } else {
                loading.set(false);
            }
        }, e -> {
            if (request == pageRequest) {
                loading.set(false);
                notice.set(Notice.error("load claims", e));
            }
        });
    }

    private void loadCounts(ClaimQuery query) {
        long request = ++countRequest;
        long filter = filterRequest;
        // One scan: the per-status counts ignore the status filter, so the total is their sum over the chosen statuses.
        // It stops as soon as staff apply another filter (whose own counts follow its page): a scan nobody
        // waits for would only take the CPU from the page they do wait for.
        tasks.submit("count claims", p -> {
            Map<ClaimStatus, Integer> perStatus = queries.countClaimsByStatus(query, () -> filterRequest != filter);
            int total = 0;
            for (Map.Entry<ClaimStatus, Integer> e : perStatus.entrySet()) {
                if (query.statuses().isEmpty() || query.statuses().contains(e.getKey())) {
                    total += e.getValue();
                }
            }
            return new Counts(total, perStatus);
        },
                counts -> {
                    if (request != countRequest || filter != filterRequest) {
                        // another filter is applied: its own counts follow its page
                        return;
                    }
                    Paging before = paging.get();
                    paging.set(before.withTotal(counts.total()));
                    statusCounts.putAll(counts.perStatus());
                    if (paging.get().offset() != before.offset()) {
                        // the rows shrank under a page past the new end: read the last page there is (its own
                        // answer ends the loading)
                        loadPage(false);
                        return;
                    }
                    loading.set(false);
                }, e -> {
                    if (request == countRequest && !(e instanceof CancellationException)) {
                        loading.set(false);
                        notice.set(Notice.error("count claims", e));
                    }
                });
    }

    private record Counts(int total, Map<ClaimStatus, Integer> perStatus) {
    }

    /**
     * After a page load: keep the selected claim selected (as its fresh row) when it is on the page, and read its
     * detail again when its row changed (another workstation advanced or edited it, or its delivery moved), unless
     * it is read alongside the page (a full refresh reads it).
     */
    private void reselect(boolean detailReadAlongside) {
        ClaimRow current = selected.get();
        if (current == null) {
            return;
        }
        for (ClaimRow row : rows) {
            if (row.claimId() == current.claimId()) {
                if (!row.equals(current)) {
                    forgetRevealedTaxIdIfChanged(current, row);
                    selected.set(row);
                    actions.setAll(ClaimAction.from(row.status()));
                    if (!detailReadAlongside) {
                        loadDetail(row.claimId());
                    }
                }
                return;
            }
        }
    }

    /**
     * A tax id revealed for a claim that changed since (its tax id replaced here or elsewhere, or any edit: a new
     * number can keep the last four digits) is no longer shown whole: it may not be the claim's any more.
     */
    private void forgetRevealedTaxIdIfChanged(ClaimRow before, ClaimRow now) {
        // against the version the tax id was read from: a row shown behind it when it was revealed is no change
        if (revealedTaxId.get() != null && now.version() > revealedVersion) {
            revealedTaxId.set(null);
        }
    }

    /** Shows {@code row} in the detail pane (null clears it). */
    public void select(ClaimRow row) {
        ClaimRow current = selected.get();
        if (row != null && current != null && row.claimId() == current.claimId()) {
            if (!row.equals(current)) {
                forgetRevealedTaxIdIfChanged(current, row);
                selected.set(row);
                actions.setAll(ClaimAction.from(row.status()));
            }
            return;
        }
        selected.set(row);
        revealedTaxId.set(null);
        detail.set(null);
        editor.show(null, List.of());
        if (row == null) {
            actions.clear();
            return;
        }
        actions.setAll(ClaimAction.from(row.status()));
        loadDetail(row.claimId());
    }

    /**
     * Shows claim {@code claimId} in the detail pane, whether or not it is on the page of rows (read in the
     * background). Refused with a notice while another claim's edit has unsaved changes.
     */
    public void openClaim(long claimId) {
        ClaimRow current = selected.get();
        if (current != null && current.claimId() == claimId) {
            loadDetail(claimId);
            return;
        }
        if (editor.dirtyProperty().get()) {
            keepUnsavedEdit(current);
            return;
        }
        Long before = current == null ? null : current.claimId();
        long request = ++openRequest;
        tasks.submitInteractive("open claim", p -> queries.claim(claimId).map(c -> ClaimRow.of(c, queries.today())),
                (Optional<ClaimRow> row) -> {
                    ClaimRow now = selected.get();
                    boolean chosenSince = now != null && now.claimId() != claimId
                            && !Long.valueOf(now.claimId()).equals(before);
                    if (request != openRequest || chosenSince) {
                        // another claim was opened, or staff chose one, meanwhile: theirs stays (a page read
                        // refreshing or clearing the selection is not a choice); a field to mark is this claim's only
                        if (pendingFault != null && pendingFault.claimId() == claimId) {
                            pendingFault = null;
                        }
                        return;
                    }
                    if (row.isEmpty()) {
                        pendingFault = null;
                        notice.set(Notice.warning("There is no claim with id " + claimId));
                    } else if (editor.dirtyProperty().get() && now != null && now.claimId() != claimId) {
                        // an edit of the claim shown began while this one was read: what was typed stays
                        keepUnsavedEdit(now);
                    } else {
                        select(row.get());
                    }
                }, e -> {
                    pendingFault = null;
                    notice.set(Notice.error("open claim " + claimId, e));
                });
    }

    /** Another claim is not opened over {@code current}'s edit with unsaved changes: the notice says so. */
    private void keepUnsavedEdit(ClaimRow current) {
        pendingFault = null;
        notice.set(Notice.warning("Claim " + current.claimNumber() + " has unsaved changes: save them (Ctrl+S)"
                + " or cancel them (Esc) before opening another claim"));
    }

    /**
     * Shows claim {@code claimId} selected as the page's one row: the filters cleared and the search set to its
     * number, then its detail read (a claim just created, or one the new-claim form found already open). Refused
     * with a notice while another claim's edit has unsaved changes.
     *
     * @param message what to tell staff (e.g. "Claim UPC-2026-001501 created"); null for none
     */
    public void showOnly(long claimId, String claimNumber, String message) {
        ClaimRow current = selected.get();
        if (editor.dirtyProperty().get() && current != null && current.claimId() != claimId) {
            notice.set(Notice.warning((message == null ? "" : message + ". ") + "Claim " + current.claimNumber()
                    + " has unsaved changes: save them (Ctrl+S) or cancel them (Esc) before opening " + claimNumber));
            return;
        }
        statuses.clear();
        activeStatuses.set(Set.of());
        jurisdiction.set(null);
        overdueOnly.set(false);
        search.set(claimNumber);
        applyFilters();
        openClaim(claimId);
        if (message != null) {
            notice.set(Notice.success(message));
        }
    }

    /**
     * Fix and resubmit: opens claim {@code claimId} (read again, so the edit starts from its newest version)
     * and its editor with {@code fieldName} marked as the field the state refused, with the state's
     * {@code message} next to it. See {@link ClaimEditViewModel#focusField(String, String)} for the names.
     * A claim in a read-only status opens read-only with a notice saying why.
     */
    public void editAtField(long claimId, String fieldName, String message) {
        ClaimRow current = selected.get();
        if (editor.activeProperty().get() && current != null && current.claimId() == claimId) {
            editor.focusField(fieldName, message);
            return;
        }
        pendingFault = new PendingFault(claimId, fieldName, message);
        openClaim(claimId);
    }

    /**
     * Reads the detail of {@code claimId} if it is the claim selected: a task that ends after staff selected another
     * claim (a reveal, a check of a submission) must not replace that claim's read with one whose answer is dropped.
     */
    private void loadDetail(long claimId) {
        ClaimRow current = selected.get();
        if (current == null || current.claimId() != claimId) {
            return;
        }
        long request = ++detailRequest;
        tasks.submitInteractive("load claim detail", p -> request != detailRequest ? null : readDetail(claimId), d -> {
            if (request == detailRequest && selected.get() != null && selected.get().claimId() == claimId) {
                detail.set(d);
                editor.show(d.editable(), d.evidence());
                PendingFault pending = pendingFault;
                if (pending != null && pending.claimId() == claimId) {
                    pendingFault = null;
                    editor.focusField(pending.field(), pending.message());
                }
                if (d.claim() != null && !d.claim().equals(selected.get())) {
                    // read again after a change, here or elsewhere, whether or not the page showed the claim
                    forgetRevealedTaxIdIfChanged(selected.get(), d.claim());
                    selected.set(d.claim());
                    actions.setAll(ClaimAction.from(d.claim().status()));
                }
            }
        }, e -> {
            if (request == detailRequest) {
                notice.set(Notice.error("load the claim's detail", e));
            }
        });
    }

    /** The claim's newest audit entries its detail shows. */
    static final int DETAIL_AUDIT_ENTRIES = 200;

    private ClaimDetail readDetail(long claimId) {
        LocalDate today = queries.today();
        Optional<Claim> claim = queries.claim(claimId);
        ClaimRow row = claim.map(c -> ClaimRow.of(c, today)).orElse(null);
        List<ClaimDetail.Delivery> deliveries = new ArrayList<>();
        List<OutboxEvent> rows = queries.outboxForClaim(claimId);
        for (OutboxEvent e : rows) {
            deliveries.add(new ClaimDetail.Delivery(e, queries.attempts(e.outboxEventId())));
        }
        boolean pending = OutboxEvent.anyPending(rows);
        return new ClaimDetail(row, queries.history(claimId), queries.claimAudit(claimId, DETAIL_AUDIT_ENTRIES),
                deliveries, claim.map(c -> EditableClaim.of(c, pending)).orElse(null), evidence.list(claimId));
    }

    /**
     * The selected claim as staff see it now: its row, and the evidence references its Evidence tab lists (those
     * read with its detail and those added here since), or null while its detail is not on screen. Taken before an
     * action's dialog opens, it is what the action is checked against.
     */
    public record Seen(ClaimRow row, java.util.Set<Long> evidence) {
    }

    /**
     * The question {@code action} asks about the claim {@code seen}, with what the evidence checklist finds missing
     * when it marks the claim ready or submits it and its evidence is on screen.
     */
    public String confirmation(ClaimAction action, Seen seen) {
        java.util.List<org.claimdesk.domain.EvidenceKind> onFile = seen.evidence() == null ? null
                : Evidence.kindsOnFile(editor.evidence());
        return action.confirmation(seen.row().claimNumber(), seen.row().claimType(), onFile);
    }

    /** The selected claim as on screen now (null when none is selected); see {@link Seen}. */
    public Seen seen() {
        ClaimRow row = selected.get();
        if (row == null) {
            return null;
        }
        EditableClaim shown = editor.shownClaim();
        java.util.Set<Long> evidenceShown = shown != null && shown.claimId() == row.claimId()
                ? Evidence.currentIds(editor.evidence())
                : null;
        return new Seen(row, evidenceShown);
    }

    /**
     * Runs {@code action} on the claim as staff saw it when they chose the action ({@code seen}, {@link #seen} then),
     * checked against that version, not the one a refresh may have put on screen while they confirmed (a change from
     * another workstation arriving behind the dialog); a submission also against the evidence references shown, which
     * an addition elsewhere changes without a new version. Ends in a notice: the new status, or why it was refused
     * (for example because someone else changed the claim, named with when).
     */
    public void perform(ClaimAction action, String reason, Seen seen) {
        ClaimRow row = seen == null ? null : seen.row();
        if (row == null || action == null) {
            return;
        }
        if (row.status() != action.from()) {
            notice.set(Notice.warning("Claim " + row.claimNumber() + " is now " + row.status().label()
                    + "; choose again from its current actions"));
            return;
        }
        if (action.reasonRequired() && (reason == null || reason.isBlank())) {
            notice.set(Notice.warning("\"" + action.label() + "\" needs a reason; nothing was changed"));
            return;
        }
        if (action.submit() && seen.evidence() == null) {
            notice.set(Notice.warning("Claim " + row.claimNumber() + "'s detail is not on screen yet, so its evidence"
                    + " was not seen; nothing was queued: submit once it shows"));
            return;
        }
        busy.set(true);
        String what = reasonKey(action, row.claimId());
        if (action.submit()) {
            tasks.submit("submit claim", p -> workflow.submit(row.claimId(), actor, KeyPolicy.newKey(),
                    row.version(), seen.evidence(), reason),
                    (SubmitResult r) -> {
                        busy.set(false);
                        reasons.succeeded(what);
                        notice.set(Notice.success("Claim " + r.claimNumber() + " queued for the state (outbox row "
                                + r.outboxEventId() + ", key " + r.idempotencyKey() + ")"));
                        refresh();
                    }, e -> failed("submit claim " + row.claimNumber(), e, what, reason));
        } else {
            String key = "ui-" + UUID.randomUUID();
            tasks.submit("advance claim", p -> workflow.advance(row.claimId(), action.target(), actor, key, reason,
                    row.version()), (AdvanceResult r) -> {
                        busy.set(false);
                        reasons.succeeded(what);
                        notice.set(Notice.success("Claim " + r.claimNumber() + " moved from " + r.from().label() + " to "
                                + r.to().label()));
                        refresh();
                    }, e -> failed("move claim " + row.claimNumber(), e, what, reason));
        }
    }

    /**
     * The reason staff gave for {@code action} on claim {@code claimId} when it last failed (a change elsewhere, a lost
     * connection), for its question to offer again; empty when there is none. A null action is the tax id's reveal.
     */
    public String reasonToRetry(ClaimAction action, long claimId) {
        return reasons.recall(reasonKey(action, claimId));
    }

    private static String reasonKey(ClaimAction action, long claimId) {
        return claimId + ":" + (action == null ? "reveal" : action.target().name());
    }

    /** Shows the selected claim's whole tax id; the reveal is written to the audit trail with the reason. */
    public void revealTaxId(String reason) {
        ClaimRow row = selected.get();
        if (row == null) {
            return;
        }
        if (reason == null || reason.isBlank()) {
            notice.set(Notice.warning("Revealing a tax id needs a reason; it was not revealed"));
            return;
        }
        busy.set(true);
        String what = reasonKey(null, row.claimId());
        tasks.submit("reveal tax id", p -> workflow.reveal(row.claimId(), actor, reason), revealed -> {
            busy.set(false);
            reasons.succeeded(what);
            ClaimRow now = selected.get();
            if (now != null && now.claimId() == row.claimId()) {
                revealedVersion = revealed.version();
                revealedTaxId.set(revealed.taxId());
            }
            notice.set(Notice.info("Tax id of claim " + row.claimNumber() + " revealed; the reveal is in the audit trail"));
            loadDetail(row.claimId());
        }, e -> failed("reveal the tax id of " + row.claimNumber(), e, what, reason));
    }

    public void hideTaxId() {
        revealedTaxId.set(null);
    }

    private void failed(String doing, Throwable e, String what, String reason) {
        busy.set(false);
        reasons.failed(what, reason);
        notice.set(Notice.error(doing, e));
        refresh();
    }
}
