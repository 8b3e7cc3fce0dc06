package org.claimdesk.ui.claims;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.claimdesk.app.Queries;
import org.claimdesk.app.ClaimEvidence;
import org.claimdesk.app.DataDirectory;
import org.claimdesk.app.Workflow;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.Database;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.testing.DirectTaskRunner;
import org.claimdesk.ui.testing.QueuedTaskRunner;
import org.claimdesk.ui.testing.TestDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClaimsViewModelTest {
    static final int CLAIMS = 600;

    @TempDir
    Path dir;
    Database db;
    Queries queries;
    Workflow workflow;
    DirectTaskRunner tasks;
    ClaimsViewModel model;

    @BeforeEach
    void setUp() {
        db = TestDatabases.demo(dir, CLAIMS);
        queries = TestDatabases.queries(db);
        workflow = TestDatabases.workflow(db);
        tasks = new DirectTaskRunner();
        model = new ClaimsViewModel(queries, workflow, tasks, "tester");
        model.load();
    }

    @AfterEach
    void tearDown() {
        db.close();
    }

    @Test
    void loadsOnePageFromTheDatabaseWithTotalsAndCountsPerStatus() {
        assertThat(model.rows()).hasSize(ClaimsViewModel.PAGE_SIZE);
        assertThat(model.pagingProperty().get().total()).isEqualTo(CLAIMS);
        assertThat(model.pagingProperty().get().describe()).isEqualTo("1–200 of 600");
        assertThat(model.statusCounts().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(CLAIMS);
        assertThat(model.jurisdictions()).contains("CA", "NY");
        assertThat(model.rows()).allSatisfy(r -> assertThat(r.taxIdMasked()).startsWith("***-**-").hasSize(11));
        assertThat(model.loadingProperty().get()).isFalse();
    }

    /** A claim of another state entered since the page opened is offered when staff open the jurisdiction filter. */
    @Test
    void theJurisdictionFilterOffersAStateFirstEnteredSinceThePageOpened() {
        assertThat(model.jurisdictions()).doesNotContain("AK");
        org.claimdesk.testing.TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING, "AK");
        int[] changes = {0};
        model.jurisdictions().addListener((javafx.collections.ListChangeListener<String>) c -> changes[0]++);

        model.reloadJurisdictions();
        assertThat(model.jurisdictions()).contains("AK", "CA");
        model.reloadJurisdictions();
        assertThat(changes[0]).as("the same list again changes nothing").isEqualTo(1);
    }

    @Test
    void aFiltersCountsAreReadOnceItsPageIsOnScreenAndNotForAFilterReplacedMeanwhile() {
        tasks.holdFrames = true;
        int ran = tasks.ran.size();
        model.toggleStatus(ClaimStatus.PAID, true);
        assertThat(tasks.ran.subList(ran, tasks.ran.size())).containsExactly("load claims page");
        assertThat(model.loadingProperty().get()).as("until the counts are in").isTrue();

        model.toggleStatus(ClaimStatus.PAID, false);
        model.toggleStatus(ClaimStatus.REJECTED, true);
        assertThat(tasks.frames).hasSize(3);
        tasks.frames.remove(0).run();
        tasks.frames.remove(0).run();
        assertThat(tasks.ran.subList(ran, tasks.ran.size())).as("the replaced filters' frames: nothing to count")
                .containsExactly("load claims page", "load claims page", "load claims page");
        tasks.frames.remove(0).run();

        assertThat(tasks.ran.subList(ran, tasks.ran.size()))
                .containsExactly("load claims page", "load claims page", "load claims page", "count claims");
        int rejected = queries.countClaims(ClaimQuery.all().withStatuses(Set.of(ClaimStatus.REJECTED)));
        assertThat(rejected).isPositive();
        assertThat(model.pagingProperty().get().total()).isEqualTo(rejected);
        assertThat(model.loadingProperty().get()).isFalse();
    }

    @Test
    void aClaimShownAloneIsTheOnlyRowSelectedWithItsDetailWhateverTheFiltersWere() {
        Claim claim = queries.claims(ClaimQuery.all().withStatuses(Set.of(ClaimStatus.PAID)).withPage(0, 1)).get(0);
        model.toggleStatus(ClaimStatus.IDENTITY_PENDING, true);
        model.jurisdictionProperty().set(claim.jurisdiction().equals("CA") ? "NY" : "CA");
        model.overdueOnlyProperty().set(true);

        model.showOnly(claim.claimId(), claim.claimNumber(), "Claim " + claim.claimNumber() + " created in Paid");

        assertThat(model.activeStatusesProperty().get()).isEmpty();
        assertThat(model.jurisdictionProperty().get()).isNull();
        assertThat(model.overdueOnlyProperty().get()).isFalse();
        assertThat(model.searchProperty().get()).isEqualTo(claim.claimNumber());
        assertThat(model.rows()).extracting(ClaimRow::claimId).containsExactly(claim.claimId());
        assertThat(model.selectedProperty().get().claimId()).isEqualTo(claim.claimId());
        assertThat(model.detailProperty().get().claim().claimId()).isEqualTo(claim.claimId());
        assertThat(model.noticeProperty().get()).isEqualTo(Notice.success("Claim " + claim.claimNumber()
                + " created in Paid"));
    }

    @Test
    void statusFilterShowsOnlyThoseStatusesAndKeepsCountsForTheOthers() {
        model.toggleStatus(ClaimStatus.SUBMITTING, true);
        int expected = queries.countClaims(ClaimQuery.all().withStatuses(Set.of(ClaimStatus.SUBMITTING)));
        assertThat(expected).isPositive();
        assertThat(model.pagingProperty().get().total()).isEqualTo(expected);
        assertThat(model.rows()).isNotEmpty().allSatisfy(r -> assertThat(r.status()).isEqualTo(ClaimStatus.SUBMITTING));
        assertThat(model.statusCounts().get(ClaimStatus.PAID)).isPositive();
        assertThat(model.activeStatusesProperty().get()).containsExactly(ClaimStatus.SUBMITTING);

        model.toggleStatus(ClaimStatus.SUBMITTING, false);
        assertThat(model.pagingProperty().get().total()).isEqualTo(CLAIMS);
    }

    @Test
    void searchFindsAClaimByNumberClaimantOrPropertyId() {
        Claim target = queries.claim(123L).orElseThrow();
        model.searchProperty().set(target.claimNumber());
        model.applyFilters();
        assertThat(model.rows()).extracting(ClaimRow::claimId).containsExactly(123L);

        model.searchProperty().set(target.statePropertyId());
        model.applyFilters();
        assertThat(model.rows()).extracting(ClaimRow::claimId).contains(123L);

        model.searchProperty().set("no claimant is called this");
        model.applyFilters();
        assertThat(model.rows()).isEmpty();
        assertThat(model.pagingProperty().get().describe()).isEqualTo("no rows");
        assertThat(model.lastPageMillisProperty().get()).isNotNull();
    }

    @Test
    void aSearchTypedButNotAppliedIsPartOfNoRead() {
        model.nextPage();
        List<Long> shown = model.rows().stream().map(ClaimRow::claimId).toList();
        model.searchProperty().set("no claimant is called this");
        model.refreshRows();
        model.refresh();
        model.previousPage();
        model.nextPage();
        assertThat(model.rows()).extracting(ClaimRow::claimId).as("the page the pager counted").isEqualTo(shown);
        assertThat(model.pagingProperty().get().total()).isEqualTo(CLAIMS);
        model.applyFilters();
        assertThat(model.rows()).isEmpty();
    }

    @Test
    void overdueOnlyShowsClaimsPastTheirDecisionDate() {
        model.overdueOnlyProperty().set(true);
        model.applyFilters();
        assertThat(model.rows()).isNotEmpty().allSatisfy(r -> assertThat(r.overdue()).isTrue());
    }

    @Test
    void sortingHappensInTheDatabaseOverEveryMatchNotJustThePage() {
        model.sortBy(ClaimQuery.Sort.AMOUNT, true);
        long largest = queries.claims(ClaimQuery.all()).stream().mapToLong(Claim::amountCents).max().orElseThrow();
        assertThat(model.rows().get(0).amountCents()).isEqualTo(largest);
        assertThat(model.rows()).isSortedAccordingTo(Comparator.comparingLong(ClaimRow::amountCents).reversed());
    }

    @Test
    void pagesMoveForwardAndBackWithinTheTotal() {
        model.nextPage();
        assertThat(model.pagingProperty().get().offset()).isEqualTo(200);
        assertThat(model.rows().get(0).claimId()).isEqualTo(201);
        model.lastPage();
        assertThat(model.pagingProperty().get().describe()).isEqualTo("401–600 of 600");
        assertThat(model.pagingProperty().get().hasNext()).isFalse();
        model.nextPage();
        assertThat(model.pagingProperty().get().offset()).isEqualTo(400);
        model.firstPage();
        assertThat(model.rows().get(0).claimId()).isEqualTo(1);
    }

    @Test
    void selectingAClaimLoadsItsHistoryAuditAndDeliveriesAndOffersOnlyAllowedActions() {
        ClaimRow row = firstWith(ClaimStatus.SUBMITTED_TO_STATE);
        model.select(row);
        ClaimDetail d = model.detailProperty().get();
        assertThat(d.claim().claimId()).isEqualTo(row.claimId());
        assertThat(d.history()).extracting(h -> h.toStatus()).endsWith(ClaimStatus.SUBMITTED_TO_STATE);
        assertThat(d.deliveries()).hasSize(1);
        assertThat(d.deliveries().get(0).attempts()).isNotEmpty();
        assertThat(model.actions()).extracting(ClaimAction::target)
                .containsExactly(ClaimStatus.NEEDS_INFO, ClaimStatus.APPROVED, ClaimStatus.REJECTED, ClaimStatus.WITHDRAWN);

        model.select(firstWith(ClaimStatus.SUBMITTING));
        assertThat(model.actions()).isEmpty();
        model.select(firstWith(ClaimStatus.PAID));
        assertThat(model.actions()).isEmpty();
    }

    @Test
    void advancingStoresTheNewStatusWithTheReasonAndAnAuditEntry() {
        ClaimRow row = firstWith(ClaimStatus.SUBMITTED_TO_STATE);
        model.select(row);
        ClaimAction reject = action(ClaimStatus.REJECTED);
        assertThat(reject.reasonRequired()).isTrue();

        model.perform(reject, "state: ownership not proven (R-12)", model.seen());

        Claim stored = queries.claim(row.claimId()).orElseThrow();
        assertThat(stored.status()).isEqualTo(ClaimStatus.REJECTED);
        assertThat(stored.version()).isEqualTo(row.version() + 1);
        assertThat(queries.history(row.claimId())).last().satisfies(h -> {
            assertThat(h.reason()).isEqualTo("state: ownership not proven (R-12)");
            assertThat(h.actor()).isEqualTo("tester");
        });
        assertThat(queries.audit(Long.toString(row.claimId()), "tester", AuditActions.CLAIM_ADVANCE, 0, 10)).hasSize(1);
        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.SUCCESS);
        assertThat(model.selectedProperty().get().status()).isEqualTo(ClaimStatus.REJECTED);
        assertThat(model.actions()).extracting(ClaimAction::target).containsExactly(ClaimStatus.EVIDENCE_PENDING);
        assertThat(model.busyProperty().get()).isFalse();
    }

    @Test
    void aRequiredReasonThatIsMissingChangesNothing() {
        ClaimRow row = firstWith(ClaimStatus.IDENTITY_PENDING);
        model.select(row);
        model.perform(action(ClaimStatus.WITHDRAWN), "  ", model.seen());
        assertThat(queries.claim(row.claimId()).orElseThrow().status()).isEqualTo(ClaimStatus.IDENTITY_PENDING);
        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.WARNING);
        assertThat(model.noticeProperty().get().text()).contains("needs a reason");
    }

    @Test
    void aClaimChangedBySomeoneElseIsRefusedWithAClearMessageAndReloaded() {
        ClaimRow row = firstWith(ClaimStatus.IDENTITY_PENDING);
        model.select(row);
        workflow.advance(row.claimId(), ClaimStatus.EVIDENCE_PENDING, "someone.else", null, null, null);

        model.perform(action(ClaimStatus.EVIDENCE_PENDING), null, model.seen());

        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.ERROR);
        assertThat(model.noticeProperty().get().text()).contains("changed by someone.else at ");
        assertThat(queries.history(row.claimId())).filteredOn(h -> "tester".equals(h.actor())).isEmpty();
        assertThat(model.selectedProperty().get().status()).isEqualTo(ClaimStatus.EVIDENCE_PENDING);
        assertThat(model.actions()).extracting(ClaimAction::target).contains(ClaimStatus.READY_FOR_SUBMISSION);
    }

    @Test
    void theReasonOfAnActionThatFailedIsOfferedAgainUntilItGoesThrough() {
        ClaimRow row = firstWith(ClaimStatus.EVIDENCE_PENDING);
        model.select(row);
        ClaimsViewModel.Seen seen = model.seen();
        ClaimAction withdraw = action(ClaimStatus.WITHDRAWN);
        assertThat(model.reasonToRetry(withdraw, row.claimId())).isEmpty();
        workflow.editing().edit(row.claimId(), row.version(), Map.of("amountCents", "123456"), "r.okafor",
                "amount per the holder's report");

        model.perform(withdraw, "claimant's letter of 2 March", seen);

        assertThat(model.noticeProperty().get().text()).contains("changed by r.okafor");
        assertThat(model.reasonToRetry(withdraw, row.claimId())).isEqualTo("claimant's letter of 2 March");
        assertThat(model.reasonToRetry(action(ClaimStatus.IDENTITY_PENDING), row.claimId())).isEmpty();

        model.perform(withdraw, "claimant's letter of 2 March", model.seen());
        assertThat(queries.claim(row.claimId()).orElseThrow().status()).isEqualTo(ClaimStatus.WITHDRAWN);
        assertThat(model.reasonToRetry(withdraw, row.claimId())).isEmpty();
    }

    @Test
    void theNoteGivenWithASubmitIsInTheAuditTrailAndTheClaimsHistory() {
        ClaimRow row = firstWith(ClaimStatus.READY_FOR_SUBMISSION);
        model.select(row);

        model.perform(action(ClaimStatus.SUBMITTING), "holder confirmed by phone", model.seen());

        assertThat(queries.claim(row.claimId()).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTING);
        assertThat(queries.claimAudit(row.claimId(), 1)).singleElement().satisfies(a -> {
            assertThat(a.action()).isEqualTo("claim.submit");
            assertThat(a.reason()).isEqualTo("holder confirmed by phone");
        });
        assertThat(queries.history(row.claimId())).last().satisfies(h -> {
            assertThat(h.toStatus()).isEqualTo(ClaimStatus.SUBMITTING);
            assertThat(h.reason()).isEqualTo("holder confirmed by phone");
        });
    }

    @Test
    void aSubmitConfirmedAfterAChangeElsewhereRefreshedTheClaimBehindTheDialogIsRefusedNamingThatChange() {
        ClaimRow row = firstWith(ClaimStatus.READY_FOR_SUBMISSION);
        model.select(row);
        ClaimsViewModel.Seen seen = model.seen();
        ClaimAction submit = action(ClaimStatus.SUBMITTING);
        // while staff confirm, another workstation edits the claim and its change refreshes the page behind the dialog
        workflow.editing().edit(row.claimId(), row.version(), Map.of("amountCents", "123456"), "r.okafor",
                "amount per the holder's report");
        model.refresh();
        assertThat(model.selectedProperty().get().version()).isEqualTo(row.version() + 1);

        model.perform(submit, "", seen);

        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.ERROR);
        assertThat(model.noticeProperty().get().text()).contains("changed by r.okafor at ").contains("amountCents");
        assertThat(queries.claim(row.claimId()).orElseThrow().status()).isEqualTo(ClaimStatus.READY_FOR_SUBMISSION);
        assertThat(queries.outboxForClaim(row.claimId())).isEmpty();
    }

    @Test
    void aSubmitConfirmedAfterEvidenceWasAddedElsewhereIsRefusedNamingWhoAddedWhat() throws Exception {
        ClaimRow row = firstWith(ClaimStatus.READY_FOR_SUBMISSION);
        model.select(row);
        ClaimsViewModel.Seen seen = model.seen();
        assertThat(seen.evidence()).as("the detail on screen").isNotNull();
        // while staff confirm, another workstation adds a reference: the claim's fields and version stay as they were
        ClaimEvidence elsewhere = new ClaimEvidence(db, java.time.Clock.systemUTC(),
                DataDirectory.evidenceFiles(db, null));
        elsewhere.addUrl(row.claimId(), "ownership", "https://records.example.gov/deed-991", "Deed 991", "r.okafor");
        model.refresh();
        assertThat(model.selectedProperty().get().version()).isEqualTo(row.version());

        model.perform(action(ClaimStatus.SUBMITTING), "", seen);

        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.ERROR);
        assertThat(model.noticeProperty().get().text()).contains("'s evidence changed after you opened it: ")
                .contains("\"Deed 991\" added by r.okafor at ");
        assertThat(queries.claim(row.claimId()).orElseThrow().status()).isEqualTo(ClaimStatus.READY_FOR_SUBMISSION);
        assertThat(queries.outboxForClaim(row.claimId())).isEmpty();

        model.perform(action(ClaimStatus.SUBMITTING), "", model.seen());
        assertThat(queries.claim(row.claimId()).orElseThrow().status()).as("submitted once seen")
                .isEqualTo(ClaimStatus.SUBMITTING);
    }

    @Test
    void evidenceAddedHereBeforeASubmitIsEvidenceSeen() {
        ClaimRow row = firstWith(ClaimStatus.READY_FOR_SUBMISSION);
        model.select(row);
        model.editor().addUrl(org.claimdesk.domain.EvidenceKind.ADDRESS, "https://records.example.gov/lease-7",
                "Lease 7");
        assertThat(model.editor().evidence()).extracting(org.claimdesk.domain.Evidence::title).contains("Lease 7");

        model.perform(action(ClaimStatus.SUBMITTING), "", model.seen());

        assertThat(model.noticeProperty().get().text()).contains("queued for the state");
        assertThat(queries.claim(row.claimId()).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTING);
    }

    @Test
    void aSubmitChosenBeforeTheClaimsDetailWasOnScreenQueuesNothing() {
        ClaimRow row = firstWith(ClaimStatus.READY_FOR_SUBMISSION);
        model.select(row);

        model.perform(action(ClaimStatus.SUBMITTING), "", new ClaimsViewModel.Seen(row, null));

        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.WARNING);
        assertThat(model.noticeProperty().get().text()).contains("not on screen yet").contains("nothing was queued");
        assertThat(queries.claim(row.claimId()).orElseThrow().status()).isEqualTo(ClaimStatus.READY_FOR_SUBMISSION);
    }

    @Test
    void submitQueuesThroughTheOutbox() {
        ClaimRow row = firstWith(ClaimStatus.READY_FOR_SUBMISSION);
        model.select(row);
        ClaimAction submit = action(ClaimStatus.SUBMITTING);
        assertThat(submit.submit()).isTrue();
        assertThat(submit.label()).isEqualTo("Submit to state");

        model.perform(submit, "", model.seen());

        assertThat(queries.claim(row.claimId()).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTING);
        List<OutboxEvent> rows = queries.outboxForClaim(row.claimId());
        assertThat(rows).singleElement().satisfies(e -> assertThat(e.deliveryState()).isEqualTo(DeliveryState.PENDING));
        assertThat(model.noticeProperty().get().text()).contains("queued for the state");
        assertThat(model.detailProperty().get().deliveries()).hasSize(1);
    }

    @Test
    void revealingTheTaxIdNeedsAReasonAndIsAudited() {
        ClaimRow row = model.rows().get(5);
        model.select(row);
        model.revealTaxId("");
        assertThat(model.revealedTaxIdProperty().get()).isNull();
        assertThat(queries.audit(Long.toString(row.claimId()), null, AuditActions.TAX_ID_REVEAL, 0, 10)).isEmpty();

        model.revealTaxId("claimant on the phone, verifying identity");

        String whole = queries.claim(row.claimId()).orElseThrow().taxId();
        assertThat(model.revealedTaxIdProperty().get()).isEqualTo(whole);
        List<AuditEntry> audit = queries.audit(Long.toString(row.claimId()), "tester", AuditActions.TAX_ID_REVEAL, 0, 10);
        assertThat(audit).singleElement().satisfies(a ->
                assertThat(a.reason()).isEqualTo("claimant on the phone, verifying identity"));
        assertThat(model.detailProperty().get().audit()).extracting(AuditEntry::action).contains(AuditActions.TAX_ID_REVEAL);

        model.select(model.rows().get(6));
        assertThat(model.revealedTaxIdProperty().get()).as("a reveal ends when another claim is selected").isNull();

        // revealed, then replaced (here or on another workstation): the number shown whole is no longer the claim's
        ClaimRow editable = model.rows().stream().filter(r -> r.status() == ClaimStatus.EVIDENCE_PENDING)
                .findFirst().orElseThrow();
        model.select(editable);
        model.revealTaxId("claimant on the phone again");
        assertThat(model.revealedTaxIdProperty().get()).isEqualTo(
                queries.claim(editable.claimId()).orElseThrow().taxId());
        Claim now = queries.claim(editable.claimId()).orElseThrow();
        workflow.editing().replaceTaxId(editable.claimId(), now.version(), "987-00-6543", "someone.else",
                "typo in the SSN");
        model.refreshRows();
        assertThat(model.revealedTaxIdProperty().get()).as("the old number is not left on screen").isNull();

        // a claim opened from elsewhere (the Outbox page's Fix), not on the page: its detail read again after
        // another workstation replaced the tax id
        ClaimRow offPage = model.rows().stream().filter(r -> r.claimId() != editable.claimId()
                && (r.status() == ClaimStatus.EVIDENCE_PENDING || r.status() == ClaimStatus.IDENTITY_PENDING))
                .findFirst().orElseThrow();
        model.searchProperty().set(editable.claimNumber());
        model.applyFilters();
        assertThat(model.rows()).noneMatch(r -> r.claimId() == offPage.claimId());
        model.openClaim(offPage.claimId());
        model.revealTaxId("claimant on the phone, a third time");
        assertThat(model.revealedTaxIdProperty().get()).isNotNull();
        Claim off = queries.claim(offPage.claimId()).orElseThrow();
        workflow.editing().edit(offPage.claimId(), off.version(), java.util.Map.of("claimantPhone", "(916) 555-0199"),
                "someone.else", "new number per the claimant");
        model.reloadDetail();
        assertThat(model.selectedProperty().get().version()).isEqualTo(off.version() + 1);
        assertThat(model.revealedTaxIdProperty().get()).as("read again at a new version, the reveal ends").isNull();

        // the row shown behind the claim when staff reveal (changed elsewhere, not yet read again): the reveal reads
        // the claim as it is, and the detail read after it, at that version, leaves it on screen
        Claim behind = queries.claim(offPage.claimId()).orElseThrow();
        workflow.editing().edit(offPage.claimId(), behind.version(), java.util.Map.of("claimantPhone", "(916) 555-0142"),
                "someone.else", "the old number after all");
        model.revealTaxId("claimant on the phone, a fourth time");
        assertThat(model.selectedProperty().get().version()).isEqualTo(behind.version() + 1);
        assertThat(model.revealedTaxIdProperty().get()).as("revealed at the version read, not hidden by it")
                .isEqualTo(queries.claim(offPage.claimId()).orElseThrow().taxId());
    }

    @Test
    void refreshKeepsTheSelectedClaimWhenItIsStillOnThePage() {
        ClaimRow row = model.rows().get(42);
        model.select(row);
        workflow.revealTaxId(row.claimId(), "x", "test");
        model.refresh();
        assertThat(model.selectedProperty().get().claimId()).isEqualTo(row.claimId());
        assertThat(model.rows().get(42).claimId()).isEqualTo(row.claimId());
    }

    @Test
    void aRowsOnlyRefreshReadsTheSelectedClaimsDetailAgainWhenItsRowChanged() {
        ClaimRow row = model.rows().stream().filter(r -> r.status() == ClaimStatus.IDENTITY_PENDING).findFirst()
                .orElseThrow();
        model.select(row);
        assertThat(model.detailProperty().get().claim().status()).isEqualTo(ClaimStatus.IDENTITY_PENDING);

        workflow.advance(row.claimId(), ClaimStatus.EVIDENCE_PENDING, "m.alvarez", null, null, row.version());
        model.refreshRows();

        assertThat(model.selectedProperty().get().status()).isEqualTo(ClaimStatus.EVIDENCE_PENDING);
        assertThat(model.detailProperty().get().claim().status()).as("the detail follows its row")
                .isEqualTo(ClaimStatus.EVIDENCE_PENDING);
        assertThat(model.detailProperty().get().claim().version()).isEqualTo(row.version() + 1);

        ClaimRow other = model.rows().stream().filter(r -> r.status() == ClaimStatus.IDENTITY_PENDING).findFirst()
                .orElseThrow();
        model.select(other);
        workflow.advance(other.claimId(), ClaimStatus.EVIDENCE_PENDING, "m.alvarez", null, null, other.version());
        int detailReads = Collections.frequency(tasks.ran, "load claim detail");
        model.refresh();
        assertThat(Collections.frequency(tasks.ran, "load claim detail")).as("a full refresh reads the detail once")
                .isEqualTo(detailReads + 1);
        assertThat(model.detailProperty().get().claim().status()).isEqualTo(ClaimStatus.EVIDENCE_PENDING);
    }

    /** A database slower than the live refresh: the reads queued behind each other do not all go to it. */
    @Test
    void readsSupersededBeforeTheyStartReadNothing() {
        QueuedTaskRunner queued = new QueuedTaskRunner();
        ClaimsViewModel m = new ClaimsViewModel(queries, workflow, queued, "tester");
        m.load();
        queued.runAll();
        int before = queued.results().size();

        for (int i = 0; i < 4; i++) {
            m.refreshRows();
        }
        m.select(m.rows().get(1));
        m.select(m.rows().get(2));
        assertThat(queued.names()).containsExactly("load claims page", "load claims page", "load claims page",
                "load claims page", "load claim detail", "load claim detail");
        queued.runAll();

        List<Object> ran = queued.results().subList(before, queued.results().size());
        assertThat(ran).hasSize(6);
        assertThat(ran.subList(0, 3)).as("pages superseded before they started").containsOnlyNulls();
        assertThat(ran.get(3)).as("the newest page").isNotNull();
        assertThat(ran.get(4)).as("a detail superseded").isNull();
        assertThat(ran.get(5)).isNotNull();
        assertThat(m.detailProperty().get().claim().claimId()).isEqualTo(m.rows().get(2).claimId());
        assertThat(m.loadingProperty().get()).isFalse();
    }

    /** A reveal that ends after staff selected another claim does not take that claim's detail read away. */
    @Test
    void aRevealEndingAfterAnotherClaimIsSelectedLeavesThatClaimsDetail() {
        QueuedTaskRunner queued = new QueuedTaskRunner();
        ClaimsViewModel m = new ClaimsViewModel(queries, workflow, queued, "tester");
        m.load();
        queued.runAll();
        m.select(m.rows().get(1));
        queued.runAll();

        m.revealTaxId("claimant on the phone");
        m.select(m.rows().get(2));
        assertThat(queued.names()).containsExactly("reveal tax id", "load claim detail");
        queued.run(0);
        queued.runAll();

        assertThat(m.detailProperty().get()).as("the claim selected shows its detail").isNotNull();
        assertThat(m.detailProperty().get().claim().claimId()).isEqualTo(m.rows().get(2).claimId());
    }

    /** A filter's counts that finish just as another filter is applied are not shown as the new filter's. */
    @Test
    void countsOfAFilterReplacedMeanwhileAreNotShownForTheNewOne() {
        QueuedTaskRunner queued = new QueuedTaskRunner();
        ClaimsViewModel m = new ClaimsViewModel(queries, workflow, queued, "tester");
        m.load();
        queued.runAll();
        int paid = queries.countClaims(ClaimQuery.all().withStatuses(Set.of(ClaimStatus.PAID)));
        int rejected = queries.countClaims(ClaimQuery.all().withStatuses(Set.of(ClaimStatus.REJECTED)));
        assertThat(paid).isNotEqualTo(rejected);

        m.toggleStatus(ClaimStatus.PAID, true);
        queued.run(0);
        assertThat(queued.names()).containsExactly("count claims");
        m.toggleStatus(ClaimStatus.PAID, false);
        m.toggleStatus(ClaimStatus.REJECTED, true);
        queued.run(0);
        assertThat(m.pagingProperty().get().total()).as("Paid's count is not Rejected's").isNotEqualTo(paid);
        assertThat(m.loadingProperty().get()).as("Rejected's own counts are still to come").isTrue();

        queued.runAll();
        assertThat(m.pagingProperty().get().total()).isEqualTo(rejected);
        assertThat(m.loadingProperty().get()).isFalse();
    }

    /** During another workstation's drain the live refresh comes often: one check of the shown submission at a time. */
    @Test
    void theShownClaimsSubmissionIsCheckedOnceAtATime() {
        QueuedTaskRunner queued = new QueuedTaskRunner();
        ClaimsViewModel m = new ClaimsViewModel(queries, workflow, queued, "tester");
        m.load();
        queued.runAll();
        m.toggleStatus(ClaimStatus.SUBMITTING, true);
        queued.runAll();
        List<Long> ids = m.rows().stream().map(ClaimRow::claimId).toList();
        java.util.Set<Long> pending = queries.withPendingSubmission(ids);
        ClaimRow onItsWay = m.rows().stream().filter(r -> pending.contains(r.claimId())).findFirst().orElseThrow();
        m.select(onItsWay);
        queued.runAll();
        assertThat(m.detailProperty().get().editable().submissionPending()).isTrue();

        for (int i = 0; i < 3; i++) {
            m.refreshRows();
        }
        assertThat(queued.names()).filteredOn("check the claim's submission"::equals).hasSize(1);
        queued.runAll();
        m.refreshRows();
        assertThat(queued.names()).as("the next refresh checks again").filteredOn("check the claim's submission"::equals)
                .hasSize(1);
        queued.runAll();
    }

    /** Submit's question names what the evidence checklist finds missing among the evidence on screen. */
    @Test
    void submitsQuestionNamesWhatTheChecklistFindsMissing() {
        model.select(firstWith(ClaimStatus.READY_FOR_SUBMISSION));
        ClaimsViewModel.Seen seen = model.seen();
        ClaimAction submit = model.actions().stream().filter(ClaimAction::submit).findFirst().orElseThrow();

        assertThat(seen.evidence()).as("the evidence is on screen").isNotNull();
        assertThat(model.confirmation(submit, seen)).startsWith("Submit claim " + seen.row().claimNumber())
                .contains("Not on file by the evidence checklist:").contains("Proof of ownership");
    }

    @Test
    void aFullRefreshOvertakenByARowsOnlyOneStillBringsItsCounts() {
        QueuedTaskRunner queued = new QueuedTaskRunner();
        ClaimsViewModel m = new ClaimsViewModel(queries, workflow, queued, "tester");
        m.load();
        queued.runAll();
        int identityPending = m.statusCounts().get(ClaimStatus.IDENTITY_PENDING);
        ClaimRow row = m.rows().stream().filter(r -> r.status() == ClaimStatus.IDENTITY_PENDING).findFirst()
                .orElseThrow();
        workflow.advance(row.claimId(), ClaimStatus.EVIDENCE_PENDING, "m.alvarez", null, null, row.version());

        m.refresh();
        m.refreshRows();
        assertThat(queued.names()).containsExactly("load claims page", "load claims page");
        queued.run(1);
        assertThat(queued.names()).as("the newer page brings the counts the older one was read with")
                .containsExactly("load claims page", "count claims");
        queued.runAll();

        assertThat(m.statusCounts().get(ClaimStatus.IDENTITY_PENDING)).isEqualTo(identityPending - 1);
        assertThat(m.loadingProperty().get()).isFalse();
    }

    @Test
    void aClaimOpenedFromElsewhereDoesNotTakeTheSelectionStaffMadeMeanwhile() {
        QueuedTaskRunner queued = new QueuedTaskRunner();
        ClaimsViewModel m = new ClaimsViewModel(queries, workflow, queued, "tester");
        m.applyFilters();
        queued.runAll();
        ClaimRow clicked = m.rows().get(3);
        m.openClaim(m.rows().get(7).claimId());
        m.select(clicked);
        queued.runAll();
        assertThat(m.selectedProperty().get().claimId()).isEqualTo(clicked.claimId());

        // two opens in flight: the newer one is shown, whichever answers first
        long older = m.rows().get(5).claimId();
        long newer = m.rows().get(9).claimId();
        m.openClaim(older);
        m.openClaim(newer);
        queued.run(1);
        queued.runAll();
        assertThat(m.selectedProperty().get().claimId()).isEqualTo(newer);
    }

    @Test
    void aNewFilterIsCountingUntilItsCountsArriveNotTheOldFiltersTotal() {
        QueuedTaskRunner queued = new QueuedTaskRunner();
        ClaimsViewModel m = new ClaimsViewModel(queries, workflow, queued, "tester");
        m.applyFilters();
        queued.runAll();
        assertThat(m.pagingProperty().get().total()).isEqualTo(CLAIMS);
        m.searchProperty().set(queries.claim(7L).orElseThrow().claimNumber());
        m.applyFilters();
        queued.run(0);
        assertThat(m.rows()).extracting(ClaimRow::claimId).containsExactly(7L);
        assertThat(m.pagingProperty().get().describe()).isEqualTo("counting…");
        assertThat(m.pagingProperty().get().hasNext()).as("no page past the first before counting").isFalse();
        m.lastPage();
        assertThat(queued.names()).containsExactly("count claims");
        queued.runAll();
        assertThat(m.pagingProperty().get().describe()).isEqualTo("1–1 of 1");
        assertThat(m.rows()).extracting(ClaimRow::claimId).containsExactly(7L);
    }

    @Test
    void aLateResultOfAnOlderFilterNeverOverwritesTheNewerOne() {
        QueuedTaskRunner queued = new QueuedTaskRunner();
        ClaimsViewModel m = new ClaimsViewModel(queries, workflow, queued, "tester");
        m.searchProperty().set(queries.claim(7L).orElseThrow().claimNumber());
        m.applyFilters();
        m.searchProperty().set(queries.claim(9L).orElseThrow().claimNumber());
        m.applyFilters();
        assertThat(queued.names()).containsExactly("load claims page", "load claims page");
        queued.run(1);
        assertThat(queued.names()).as("counts follow their page").containsExactly("load claims page", "count claims");
        queued.run(0);
        assertThat(queued.names()).as("the stale page asks for no counts").containsExactly("count claims");
        queued.runAll();
        assertThat(m.rows()).extracting(ClaimRow::claimId).containsExactly(9L);
        assertThat(m.pagingProperty().get().total()).isEqualTo(1);
    }

    @Test
    void theCountScanOfAFilterStaffAlreadyReplacedStopsAndShowsNothing() {
        QueuedTaskRunner queued = new QueuedTaskRunner();
        ClaimsViewModel m = new ClaimsViewModel(queries, workflow, queued, "tester");
        m.searchProperty().set("e");
        m.applyFilters();
        queued.run(0);
        assertThat(queued.names()).as("the page is in; its counts wait").containsExactly("count claims");
        assertThat(m.rows()).isNotEmpty();

        Claim nine = queries.claim(9L).orElseThrow();
        m.searchProperty().set(nine.claimNumber());
        m.applyFilters();
        queued.run(0);
        assertThat(m.statusCounts().values()).as("the replaced filter's counts never arrive").allMatch(n -> n == 0);
        assertThat(m.noticeProperty().get()).as("a stopped count is no error").isNull();

        queued.runAll();
        assertThat(m.rows()).extracting(ClaimRow::claimId).containsExactly(9L);
        assertThat(m.pagingProperty().get().total()).isEqualTo(1);
        assertThat(m.statusCounts().get(nine.status())).isEqualTo(1);
    }

    private ClaimRow firstWith(ClaimStatus status) {
        model.clearStatuses();
        model.toggleStatus(status, true);
        ClaimRow row = model.rows().get(0);
        model.toggleStatus(status, false);
        return row;
    }

    private ClaimAction action(ClaimStatus target) {
        return model.actions().stream().filter(a -> a.target() == target).findFirst().orElseThrow();
    }
}
