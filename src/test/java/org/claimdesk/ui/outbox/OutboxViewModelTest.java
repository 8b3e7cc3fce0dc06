package org.claimdesk.ui.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.claimdesk.app.OutboxTriage;
import org.claimdesk.app.Queries;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.ErrorSignature;
import org.claimdesk.domain.FailureGroup;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.Database;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.testing.DirectTaskRunner;
import org.claimdesk.ui.testing.TestDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutboxViewModelTest {
    private static final String GROUPING = "group failed rows";

    @TempDir
    Path dir;
    Database db;
    Queries queries;
    DirectTaskRunner tasks;
    OutboxTriage triage;
    OutboxViewModel model;

    @BeforeEach
    void setUp() {
        db = TestDatabases.demo(dir, 800);
        queries = TestDatabases.queries(db);
        tasks = new DirectTaskRunner();
        triage = new OutboxTriage(db, Clock.systemDefaultZone(), Deadlines.statutory(),
                new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable())));
        model = new OutboxViewModel(queries, triage, new org.claimdesk.app.Resubmission(db, Clock.systemDefaultZone()), tasks,
                "tester");
    }

    @AfterEach
    void tearDown() {
        db.close();
    }

    private static OutboxQuery failed() {
        return OutboxQuery.all().withState(DeliveryState.FAILED);
    }

    private long groupings() {
        return tasks.ran.stream().filter(GROUPING::equals).count();
    }

    @Test
    void showsFailedRowsByDefaultWhenThereAreAny() {
        model.load();
        int failed = queries.countOutbox(failed());
        assertThat(failed).isPositive();
        assertThat(model.stateProperty().get()).isEqualTo(DeliveryState.FAILED);
        assertThat(model.pagingProperty().get().total()).isEqualTo(failed);
        assertThat(model.rows()).isNotEmpty().allSatisfy(r -> {
            assertThat(r.event().deliveryState()).isEqualTo(DeliveryState.FAILED);
            assertThat(r.claimNumber()).startsWith("UPC-");
        });
        assertThat(model.groups()).isNotEmpty().containsExactlyElementsOf(triage.groups(OutboxQuery.all()));
        assertThat(model.groups().stream().mapToInt(FailureGroup::count).sum()).isEqualTo(failed);
    }

    @Test
    void theFirstLoadFindsAFailedRowWithoutCountingAndTakesTheStateCountsFromTheirSource() {
        List<String> asked = new ArrayList<>();
        model.countsFrom(new OutboxViewModel.CountsSource() {
            @Override
            public void now() {
                asked.add("now");
            }

            @Override
            public void whenDue() {
                asked.add("when due");
            }
        });
        model.load();
        assertThat(model.stateProperty().get()).isEqualTo(DeliveryState.FAILED);
        assertThat(model.rows()).isNotEmpty();
        assertThat(tasks.ran).as("the page counts nothing by state itself").doesNotContain("count outbox rows");
        assertThat(asked).as("the source counts unless its counts are fresh").containsExactly("when due");
        assertThat(model.stateCountsProperty().get()).isEmpty();

        Map<DeliveryState, Integer> counts = queries.countOutboxByState();
        model.showStateCounts(counts);
        assertThat(model.stateCountsProperty().get()).isEqualTo(counts);
    }

    @Test
    void withoutASourceThePageCountsTheStatesItself() {
        model.load();
        assertThat(tasks.ran).containsOnlyOnce("count outbox rows");
        assertThat(model.stateCountsProperty().get()).isEqualTo(queries.countOutboxByState());
    }

    @Test
    void showsEveryRowWhenNothingFailed() {
        db.useTransaction(h -> h.execute("UPDATE outbox_event SET delivery_state = 'sent' WHERE delivery_state = 'failed'"));
        model.load();
        assertThat(model.stateProperty().get()).isNull();
        assertThat(model.pagingProperty().get().total()).isEqualTo(queries.countOutbox(OutboxQuery.all()));
    }

    @Test
    void filtersByErrorTextJurisdictionAndAge() {
        model.load();
        model.errorTextProperty().set("HOLDER id");
        model.applyFilters();
        assertThat(model.rows()).isNotEmpty()
                .allSatisfy(r -> assertThat(r.event().lastError().toLowerCase()).contains("holder id"));
        model.jurisdictionProperty().set("CA");
        model.applyFilters();
        assertThat(model.rows()).allSatisfy(r -> assertThat(r.jurisdiction()).isEqualTo("CA"));
        model.ageProperty().set(OutboxViewModel.Age.MONTH);
        model.applyFilters();
        assertThat(model.filter().changedBefore()).isNotNull();
        assertThat(model.rows()).allSatisfy(r -> assertThat(r.event().updatedAt())
                .isBefore(model.filter().changedBefore()));
    }

    @Test
    void errorTextTypedButNotAppliedIsNotPartOfTheRowsARefreshOrTheFilterScope() {
        model.load();
        List<Long> shown = model.rows().stream().map(OutboxRow::id).toList();
        OutboxQuery applied = model.filter();
        model.errorTextProperty().set("HOLDER id");
        model.refreshRows();
        model.refresh();
        assertThat(model.rows()).extracting(OutboxRow::id).isEqualTo(shown);
        assertThat(model.filter()).as("what export and \"every row of the filter\" act on").isEqualTo(applied);
        model.applyFilters();
        assertThat(model.filter().errorText()).isEqualTo("HOLDER id");
    }

    @Test
    void changingTheStateFilterAloneKeepsTheErrorGroupsOtherFiltersAndRefreshRegroup() {
        model.load();
        assertThat(groupings()).isEqualTo(1);
        List<FailureGroup> groups = List.copyOf(model.groups());
        model.stateProperty().set(DeliveryState.PENDING);
        model.applyFilters();
        assertThat(model.rows()).isNotEmpty()
                .allSatisfy(r -> assertThat(r.event().deliveryState()).isEqualTo(DeliveryState.PENDING));
        assertThat(groupings()).as("the groups are of failed rows whatever state the table shows").isEqualTo(1);
        assertThat(model.groups()).containsExactlyElementsOf(groups);
        model.jurisdictionProperty().set("CA");
        model.applyFilters();
        assertThat(groupings()).isEqualTo(2);
        assertThat(model.groups()).containsExactlyElementsOf(triage.groups(OutboxQuery.all().withJurisdiction("CA")));
        model.refresh();
        assertThat(groupings()).isEqualTo(3);
    }

    @Test
    void selectingAGroupShowsItsRows() {
        model.load();
        FailureGroup group = model.groups().get(0);
        model.selectGroup(group);
        assertThat(model.pagingProperty().get().total()).isEqualTo(group.count());
        assertThat(model.rows()).isNotEmpty().allSatisfy(r -> {
            assertThat(r.event().deliveryState()).isEqualTo(DeliveryState.FAILED);
            assertThat(ErrorSignature.of(r.event().lastError())).isEqualTo(group.signature());
        });
        model.selectGroup(null);
        assertThat(model.pagingProperty().get().total()).isEqualTo(queries.countOutbox(failed()));
    }

    /** A refresh brings the selected group's count up to date; once no row is left in it, the filter's rows again. */
    @Test
    void theSelectedGroupFollowsItsRowsAndEndsWhenNoneIsLeft() {
        model.load();
        FailureGroup group = model.groups().stream().filter(g -> g.count() >= 2).findFirst().orElseThrow();
        model.selectGroup(group);
        List<Long> ids = model.rows().stream().map(OutboxRow::id).toList();

        triage.apply(triage.preview(OutboxTriage.Action.ABANDON, OutboxQuery.byIds(ids.subList(0, 1))), "tester",
                "duplicate claim", false, null);
        model.refresh();
        assertThat(model.selectedGroupProperty().get().count()).isEqualTo(group.count() - 1);

        triage.apply(triage.preview(OutboxTriage.Action.ABANDON, OutboxQuery.byIds(ids)), "tester", "duplicate claim",
                false, null);
        model.refresh();
        assertThat(model.selectedGroupProperty().get()).isNull();
        assertThat(model.noticeProperty().get().text()).startsWith("No failed row is left in the error group");
        assertThat(model.pagingProperty().get().total()).isEqualTo(queries.countOutbox(failed()));
    }

    @Test
    void theDetailHasPrettyPayloadAndAttempts() {
        model.load();
        OutboxRow row = model.rows().get(0);
        model.select(List.of(row));
        OutboxViewModel.Detail d = model.detailProperty().get();
        assertThat(d.prettyPayload()).contains("\n").contains("\"claimNumber\"");
        assertThat(d.attempts()).isNotEmpty().hasSize(row.event().attempts());
    }

    @Test
    void theReasonOfARequeueThatChangedNothingIsOfferedAgainForTheSameRowsOnly() {
        model.load();
        List<Long> ids = model.rows().subList(0, 2).stream().map(OutboxRow::id).toList();
        model.select(model.rows().subList(0, 2));
        model.preview(OutboxTriage.Action.REQUEUE, OutboxViewModel.Scope.SELECTION);
        OutboxViewModel.Plan plan = model.planProperty().get();
        // both rows are given up elsewhere before staff confirm
        triage.apply(triage.preview(OutboxTriage.Action.ABANDON, OutboxQuery.byIds(ids)), "j.chen",
                "claimant withdrew", false, null);

        model.execute(plan, "state portal is back", false);

        assertThat(model.lastResultProperty().get().changed()).isZero();
        model.select(model.rows().subList(0, 2));
        assertThat(model.reasonToRetry(plan)).isEqualTo("state portal is back");
        model.preview(OutboxTriage.Action.REQUEUE, OutboxViewModel.Scope.SELECTION);
        OutboxViewModel.Plan other = model.planProperty().get();
        assertThat(other.preview().targetIds()).isNotEqualTo(plan.preview().targetIds());
        assertThat(model.reasonToRetry(other)).as("other rows").isEmpty();
    }

    @Test
    void requeueOfASelectionIsPreviewedThenAppliedWithReasonAndReportsTheResult() {
        model.load();
        List<OutboxRow> selected = model.rows().subList(0, 4);
        List<Long> ids = selected.stream().map(OutboxRow::id).toList();
        model.select(selected);

        model.preview(OutboxTriage.Action.REQUEUE, OutboxViewModel.Scope.SELECTION);
        OutboxViewModel.Plan plan = model.planProperty().get();
        assertThat(plan.preview().targetIds()).containsExactlyElementsOf(ids);
        // (rows the state refused for good are named as such after the count: KeyPolicy's warning)
        assertThat(plan.preview().describe()).startsWith("4 will be re-queued");
        // someone else abandons one of them before staff confirm
        triage.apply(triage.preview(OutboxTriage.Action.ABANDON, OutboxQuery.byIds(List.of(ids.get(3)))), "j.chen",
                "claimant withdrew the evidence", false, null);

        model.execute(plan, "state portal is back", true);
        assertThat(model.planProperty().get()).isNull();
        assertThat(model.lastResultProperty().get().changedIds()).containsExactlyElementsOf(ids.subList(0, 3));
        assertThat(model.noticeProperty().get().text())
                .isEqualTo("3 row(s) re-queued, 1 skipped because they or their claim changed since the preview"
                        + " (a corrected claim is resubmitted, or re-queued once the preview says so)");
        assertThat(queries.outboxEvents(ids)).extracting(OutboxEvent::deliveryState).containsExactly(
                DeliveryState.PENDING, DeliveryState.PENDING, DeliveryState.PENDING, DeliveryState.ABANDONED);
        assertThat(queries.audit(Long.toString(ids.get(0)), "tester", null, 0, 0)).singleElement()
                .satisfies(a -> assertThat(a.reason()).isEqualTo("state portal is back"));
        assertThat(tasks.progress).last().satisfies(p -> assertThat(p.fraction()).isEqualTo(1.0));
        assertThat(model.progressProperty().get()).isNull();
        assertThat(model.busyProperty().get()).isFalse();
    }

    /** A slow server: a refresh's page read skipped for a newer one leaves the error groups to that one's answer. */
    @Test
    void theGroupsOfARefreshSkippedForANewerOneAreReadOnceAfterTheNewerAnswers() {
        org.claimdesk.ui.testing.QueuedTaskRunner queued = new org.claimdesk.ui.testing.QueuedTaskRunner();
        OutboxViewModel m = loaded(queued);
        int before = queued.submitted().size();

        m.refresh();
        m.refresh();
        queued.runAll();

        List<String> asked = queued.submitted().subList(before, queued.submitted().size());
        assertThat(asked).filteredOn("load outbox page"::equals).hasSize(2);
        assertThat(asked).filteredOn("group failed rows"::equals).as("once, not once per refresh").hasSize(1);
        assertThat(asked.lastIndexOf("group failed rows")).isGreaterThan(asked.lastIndexOf("load outbox page"));
        assertThat(m.loadingProperty().get()).isFalse();
    }

    /** A page on its own model whose background work runs only when the test says, its first read done. */
    private OutboxViewModel loaded(org.claimdesk.ui.testing.QueuedTaskRunner queued) {
        OutboxViewModel m = new OutboxViewModel(queries, triage,
                new org.claimdesk.app.Resubmission(db, Clock.systemDefaultZone()), queued, "tester");
        m.load();
        queued.runAll();
        return m;
    }

    /** The search takes a claim number (that claim's rows), "row 123" or "#123" (that row), else a last error's text. */
    @Test
    void theSearchFindsAClaimsRowsByItsNumberAndARowByItsId() {
        model.load();
        model.stateProperty().set(null);
        OutboxRow any = model.rows().get(3);
        String number = any.claimNumber();

        model.errorTextProperty().set(number.toLowerCase(java.util.Locale.ROOT));
        model.applyFilters();
        assertThat(model.rows()).isNotEmpty().allSatisfy(r -> assertThat(r.claimNumber()).isEqualTo(number));
        assertThat(model.rows()).hasSize(queries.outboxForClaim(any.event().aggregateId()).size());

        for (String typed : List.of("row " + any.id(), "Outbox row " + any.id(), "#" + any.id())) {
            model.errorTextProperty().set(typed);
            model.applyFilters();
            assertThat(model.rows()).as(typed).extracting(OutboxRow::id).containsExactly(any.id());
        }

        model.errorTextProperty().set("UPC-1999-999999");
        model.applyFilters();
        assertThat(model.noticeProperty().get().text()).isEqualTo("No claim UPC-1999-999999: its rows cannot be shown");

        model.errorTextProperty().set("holder id");
        model.applyFilters();
        assertThat(model.rows()).isNotEmpty().allSatisfy(r -> assertThat(r.event().lastError()).containsIgnoringCase(
                "holder id"));
    }

    /** A claim number's lookup answering after another search was applied leaves that search standing. */
    @Test
    void aClaimNumbersLateAnswerDoesNotReplaceASearchAppliedAfterIt() {
        org.claimdesk.ui.testing.QueuedTaskRunner queued = new org.claimdesk.ui.testing.QueuedTaskRunner();
        OutboxViewModel m = loaded(queued);
        m.stateProperty().set(null);
        String number = m.rows().get(0).claimNumber();
        m.errorTextProperty().set(number);
        m.applyFilters();
        m.errorTextProperty().set("");
        m.applyFilters();
        queued.runAll();

        assertThat(m.rows()).extracting(OutboxRow::claimNumber).as("every row, not the claim's").doesNotHaveDuplicates()
                .hasSizeGreaterThan(1);
    }

    /** An error group chosen while a claim number is still looked up stays chosen when the lookup answers. */
    @Test
    void aGroupChosenWhileAClaimNumberIsLookedUpStaysChosen() {
        org.claimdesk.ui.testing.QueuedTaskRunner queued = new org.claimdesk.ui.testing.QueuedTaskRunner();
        OutboxViewModel m = loaded(queued);
        FailureGroup group = m.groups().get(0);
        m.errorTextProperty().set(m.rows().get(0).claimNumber());
        m.applyFilters();
        m.selectGroup(group);
        queued.runAll();

        assertThat(m.selectedGroupProperty().get()).isEqualTo(group);
    }

    /** A filter staff apply while the outbox opens stands: the opening does not put its default (failed) over it. */
    @Test
    void aFilterAppliedWhileTheOutboxOpensStands() {
        org.claimdesk.ui.testing.QueuedTaskRunner queued = new org.claimdesk.ui.testing.QueuedTaskRunner();
        OutboxViewModel m = new OutboxViewModel(queries, triage,
                new org.claimdesk.app.Resubmission(db, Clock.systemDefaultZone()), queued, "tester");
        m.load();
        m.stateProperty().set(DeliveryState.SENT);
        m.applyFilters();
        queued.runAll();

        assertThat(m.stateProperty().get()).isEqualTo(DeliveryState.SENT);
        assertThat(m.rows()).isNotEmpty().allSatisfy(r -> assertThat(r.event().deliveryState()).isEqualTo(DeliveryState.SENT));
        assertThat(m.jurisdictions()).isNotEmpty();
    }

    /** "row 123" within the failed rows, and the row not failed: nothing to act on, not "no such row". */
    @Test
    void aRowSearchedForThatTheFilterLeavesOutIsNothingToActOnNotAMissingRow() {
        model.load();
        long sent = queries.outbox(OutboxQuery.all().withState(DeliveryState.SENT)).get(0).outboxEventId();
        model.stateProperty().set(DeliveryState.FAILED);
        model.errorTextProperty().set("row " + sent);
        model.applyFilters();
        assertThat(model.rows()).isEmpty();

        model.preview(OutboxTriage.Action.REQUEUE, OutboxViewModel.Scope.FILTER);

        assertThat(model.planProperty().get()).isNull();
        assertThat(model.noticeProperty().get().text()).startsWith("Nothing to re-queue in every row matching the filter");
    }

    /** One row selected within an error group (Ctrl+Enter, Fix claim): Resubmit checks that row, with its diff. */
    @Test
    void resubmitWithOneRowOfAGroupSelectedChecksThatRow() {
        model.load();
        FailureGroup group = model.groups().get(0);
        model.selectGroup(group);
        OutboxRow row = model.rows().get(0);
        model.select(List.of(row));

        model.prepareResubmit(OutboxViewModel.Scope.GROUP);

        assertThat(model.bulkResubmitProperty().get()).isNull();
        assertThat(model.resubmitCheckProperty().get()).isNotNull()
                .satisfies(c -> assertThat(c.outboxEventId()).isEqualTo(row.id()));
    }

    /** Fix claim asked for before the row's attempts are shown opens the claim at the field the state named. */
    @Test
    void fixClaimBeforeTheRowsAttemptsArriveOpensTheClaimAtTheRefusedField() {
        org.claimdesk.ui.testing.QueuedTaskRunner queued = new org.claimdesk.ui.testing.QueuedTaskRunner();
        OutboxViewModel m = loaded(queued);
        OutboxRow refused = m.rows().stream().filter(r -> {
            List<org.claimdesk.domain.DeliveryAttempt> attempts = queries.attempts(r.id());
            return !attempts.isEmpty() && attempts.get(attempts.size() - 1).field() != null;
        }).findFirst().orElseThrow();
        List<org.claimdesk.domain.DeliveryAttempt> attempts = queries.attempts(refused.id());
        List<String> opened = new java.util.ArrayList<>();
        m.setClaimFixer((claimId, field, message) -> opened.add(claimId + " " + field));

        m.select(List.of(refused));
        m.fixSelectedClaim();
        queued.runAll();

        assertThat(opened).containsExactly(refused.event().aggregateId() + " "
                + attempts.get(attempts.size() - 1).field());
    }

    @Test
    void aRowsDetailArrivingAfterTheSelectionWasClearedIsDropped() {
        org.claimdesk.ui.testing.QueuedTaskRunner queued = new org.claimdesk.ui.testing.QueuedTaskRunner();
        OutboxViewModel m = loaded(queued);
        m.select(m.rows().subList(0, 1));
        m.select(List.of());
        queued.runAll();
        assertThat(m.detailProperty().get()).as("nothing selected, nothing shown").isNull();

        // A shown, B selected and back to A before B's detail arrives: A's stays
        OutboxRow a = m.rows().get(0);
        OutboxRow b = m.rows().get(1);
        m.select(List.of(a));
        queued.runAll();
        m.select(List.of(b));
        m.select(List.of(a));
        queued.runAll();
        assertThat(m.detailProperty().get().row().id()).isEqualTo(a.id());
    }

    @Test
    void aSecondActionWaitsForTheFirstRatherThanEndingItsBusyState() {
        org.claimdesk.ui.testing.QueuedTaskRunner queued = new org.claimdesk.ui.testing.QueuedTaskRunner();
        OutboxViewModel m = loaded(queued);
        m.select(m.rows().subList(0, 2));
        queued.runAll();
        m.preview(OutboxTriage.Action.REQUEUE, OutboxViewModel.Scope.SELECTION);
        assertThat(m.busyProperty().get()).isTrue();
        assertThat(m.writingProperty().get()).as("a preview only reads: quitting loses nothing").isFalse();
        queued.runAll();
        m.execute(m.planProperty().get(), "state portal back", false);
        assertThat(m.busyProperty().get()).isTrue();
        assertThat(m.writingProperty().get()).as("the re-queue changes rows").isTrue();
        int waiting = queued.size();

        m.preview(OutboxTriage.Action.ABANDON, OutboxViewModel.Scope.SELECTION);
        m.prepareResubmit(m.rows().get(0).id());
        m.exportCsv(dir.resolve("rows.csv"));
        assertThat(queued.size()).as("nothing else started").isEqualTo(waiting);
        assertThat(m.busyProperty().get()).isTrue();
        assertThat(m.noticeProperty().get().text()).contains("still at work on the last action");
        queued.runAll();
        assertThat(m.busyProperty().get()).isFalse();
        assertThat(m.writingProperty().get()).isFalse();
        assertThat(m.noticeProperty().get().text()).contains("2 row(s) re-queued");

        m.prepareResubmit(m.rows().get(0).id());
        assertThat(m.busyProperty().get()).isTrue();
        assertThat(m.writingProperty().get()).as("checking a row for resubmission only reads").isFalse();
        queued.runAll();
        m.exportCsv(dir.resolve("rows.csv"));
        assertThat(m.writingProperty().get()).as("an export writes a file").isTrue();
        queued.runAll();
        assertThat(m.writingProperty().get()).isFalse();
    }

    @Test
    void aBulkActionWithoutReasonChangesNothing() {
        model.load();
        int failed = queries.countOutbox(failed());
        model.select(model.rows().subList(0, 2));
        model.preview(OutboxTriage.Action.ABANDON, OutboxViewModel.Scope.SELECTION);
        model.execute(model.planProperty().get(), " ", false);
        assertThat(tasks.ran).noneMatch(t -> t.startsWith("Abandon"));
        assertThat(queries.countOutbox(failed())).isEqualTo(failed);
        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.WARNING);
    }

    @Test
    void groupAndFilterScopesResolveTheirRowsInTheDatabaseNotFromTheScreen() {
        model.load();
        model.preview(OutboxTriage.Action.REQUEUE, OutboxViewModel.Scope.GROUP);
        assertThat(model.planProperty().get()).as("no group selected").isNull();
        assertThat(model.noticeProperty().get().text()).contains("Select an error group");

        FailureGroup group = model.groups().get(model.groups().size() - 1);
        model.selectGroup(group);
        model.preview(OutboxTriage.Action.REQUEUE, OutboxViewModel.Scope.GROUP);
        assertThat(model.planProperty().get().preview().targetIds()).hasSize(group.count())
                .containsExactlyElementsOf(ids(failed().withSignature(group.signature())));
        model.cancelPlan();

        model.preview(OutboxTriage.Action.ABANDON, OutboxViewModel.Scope.FILTER);
        assertThat(model.planProperty().get().preview().targetIds())
                .as("the filter's rows, not only the page on screen nor the group")
                .hasSizeGreaterThan(model.rows().size()).containsExactlyElementsOf(ids(failed()));
    }

    private List<Long> ids(OutboxQuery query) {
        return queries.outbox(query).stream().map(OutboxEvent::outboxEventId).toList();
    }

    @Test
    void anEmptySelectionAsksToSelectFirst() {
        model.load();
        model.preview(OutboxTriage.Action.REQUEUE, OutboxViewModel.Scope.SELECTION);
        assertThat(model.planProperty().get()).isNull();
        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.WARNING);
    }

    @Test
    void exportsTheCurrentFilterToCsv() throws Exception {
        model.load();
        Path file = dir.resolve("outbox.csv");
        model.exportCsv(file);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        int failed = queries.countOutbox(failed());
        assertThat(lines).hasSize(failed + 1);
        assertThat(lines.get(0)).startsWith("\uFEFFoutbox_event_id,claim_id,claim_number");
        assertThat(lines.subList(1, lines.size())).allSatisfy(l -> assertThat(l).contains(",failed,"));
        assertThat(model.noticeProperty().get().text()).startsWith("Exported " + failed + " outbox rows");

        // a state's count comes from its tally, which doctor finds drifted at times: the rows end the export, not it
        db.useTransaction(h -> h.execute("UPDATE outbox_state_tally SET n = 0 WHERE delivery_state = 'failed'"));
        assertThat(queries.countOutbox(failed())).isZero();
        Path again = dir.resolve("outbox-again.csv");
        model.exportCsv(again);
        assertThat(Files.readAllLines(again, StandardCharsets.UTF_8)).hasSize(failed + 1);
    }

    /** Rows that shrank under the page shown (changed elsewhere): its total brings the last page there is, read again. */
    @Test
    void aPagePastTheEndOnceTheRowsShrankShowsTheLastPageThereIs() {
        model.load();
        model.stateProperty().set(DeliveryState.SENT);
        model.applyFilters();
        assertThat(model.pagingProperty().get().total()).isGreaterThan(OutboxViewModel.PAGE_SIZE);
        model.nextPage();
        assertThat(model.pagingProperty().get().offset()).isEqualTo(OutboxViewModel.PAGE_SIZE);
        // another workstation's change leaves 30 sent rows: the second page is past their end
        db.useTransaction(h -> h.execute("UPDATE outbox_event SET delivery_state = 'failed' WHERE delivery_state = 'sent'"
                + " AND outbox_event_id NOT IN (SELECT outbox_event_id FROM outbox_event WHERE delivery_state = 'sent'"
                + " ORDER BY outbox_event_id LIMIT 30)"));
        model.refreshRows();
        assertThat(model.pagingProperty().get().offset()).isZero();
        assertThat(model.pagingProperty().get().total()).isEqualTo(30);
        assertThat(model.rows()).hasSize(30).allSatisfy(r -> assertThat(r.event().deliveryState())
                .isEqualTo(DeliveryState.SENT));
        assertThat(model.loadingProperty().get()).isFalse();
    }

    /** A new filter's rows come first, its total once they are drawn; the page says it is counting meanwhile. */
    @Test
    void aNewFiltersRowsAreShownBeforeItsTotalIsCounted() {
        model.load();
        tasks.holdFrames = true;
        long counted = tasks.ran.stream().filter("count the page's rows"::equals).count();
        model.stateProperty().set(DeliveryState.SENT);
        model.applyFilters();
        assertThat(model.rows()).isNotEmpty().allSatisfy(r -> assertThat(r.event().deliveryState())
                .isEqualTo(DeliveryState.SENT));
        assertThat(model.pagingProperty().get().describe()).isEqualTo("counting…");
        assertThat(tasks.ran.stream().filter("count the page's rows"::equals).count()).isEqualTo(counted);
        while (!tasks.frames.isEmpty()) {
            tasks.frames.remove(0).run();
        }
        assertThat(model.pagingProperty().get().total())
                .isEqualTo(queries.countOutbox(OutboxQuery.all().withState(DeliveryState.SENT))).isPositive();
        assertThat(model.loadingProperty().get()).isFalse();
    }

    /**
     * A count slower than the live refreshes (every 2 s during a drain) is still shown: the rows read again meanwhile
     * neither drop it nor start another of the same rows, and the page loads until it is in.
     */
    @Test
    void aTotalStillBeingCountedIsShownThoughTheRowsWereReadAgainMeanwhile() {
        model.load();
        tasks.hold.add("count the page's rows");
        model.stateProperty().set(DeliveryState.SENT);
        model.applyFilters();
        assertThat(tasks.held).hasSize(1);
        long pages = model.pagesShownProperty().get();
        model.refreshRows();
        model.refreshRows();
        assertThat(model.pagesShownProperty().get()).isEqualTo(pages + 2);
        assertThat(tasks.held).as("no second count of the same rows").hasSize(1);
        assertThat(model.loadingProperty().get()).as("the total is still being counted").isTrue();
        assertThat(model.pagingProperty().get().counted()).isFalse();

        tasks.held.remove(0).run();
        assertThat(model.pagingProperty().get().total())
                .isEqualTo(queries.countOutbox(OutboxQuery.all().withState(DeliveryState.SENT))).isPositive();
        assertThat(model.loadingProperty().get()).isFalse();
    }

    @Test
    void aRefreshGroupsTheFailedRowsAPauseAfterItsPageIsOnScreen() {
        model.load();
        List<OutboxRow> before = List.copyOf(model.rows());
        db.useTransaction(h -> h.execute("UPDATE outbox_event SET last_error = 'HTTP 503 from the state' "
                + "WHERE outbox_event_id = ?", before.get(0).id()));
        tasks.holdFrames = true;
        long groupingsBefore = groupings();

        model.refresh();
        assertThat(model.rows().get(0).event().lastError()).as("the page first").isEqualTo("HTTP 503 from the state");
        assertThat(groupings()).as("no grouping beside the page's layout and drawing").isEqualTo(groupingsBefore);
        assertThat(model.loadingProperty().get()).as("the rows' total follows them").isTrue();
        // the page's total once its rows are drawn, the groups after a pause
        assertThat(tasks.frames).hasSize(2);
        assertThat(tasks.pauses).containsExactly(OutboxViewModel.GROUPS_AFTER);

        tasks.frames.remove(0).run();
        assertThat(model.loadingProperty().get()).isFalse();
        assertThat(model.pagingProperty().get().total()).isEqualTo(queries.countOutbox(OutboxQuery.all()
                .withState(model.stateProperty().get())));
        assertThat(groupings()).isEqualTo(groupingsBefore);
        tasks.frames.remove(0).run();
        assertThat(groupings()).isEqualTo(groupingsBefore + 1);
        assertThat(model.groups()).containsExactlyElementsOf(triage.groups(OutboxQuery.all()));
        assertThat(model.groups()).anySatisfy(g -> assertThat(g.sampleError()).isEqualTo("HTTP 503 from the state"));
    }

    @Test
    void aRefreshWhosePageFailsStillGroupsTheFailedRows() {
        model.load();
        List<OutboxRow> before = List.copyOf(model.rows());
        long groupingsBefore = groupings();
        // the page reads its rows' claims, the grouping only the outbox: the page's read fails in the database
        db.useTransaction(h -> h.execute("ALTER TABLE claim RENAME TO claim_elsewhere"));
        model.refresh();
        assertThat(model.noticeProperty().get().text()).startsWith("Could not load outbox rows: ")
                .doesNotContain("unexpected");
        assertThat(model.rows()).as("the rows on screen stay").containsExactlyElementsOf(before);
        assertThat(model.loadingProperty().get()).isFalse();
        assertThat(groupings()).isEqualTo(groupingsBefore + 1);
    }

    @Test
    void refreshKeepsTheSelectedRows() {
        model.load();
        List<OutboxRow> selected = model.rows().subList(2, 4);
        model.select(selected);
        model.refresh();
        assertThat(model.selectionProperty().get()).extracting(OutboxRow::id)
                .containsExactly(selected.get(0).id(), selected.get(1).id());
    }
}
