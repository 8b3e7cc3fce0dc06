package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.claimdesk.delivery.DeliveryWorker;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.ErrorSignature;
import org.claimdesk.domain.InvalidFieldsException;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.testing.HolderRegistryState;
import org.claimdesk.testing.Sql;
import org.claimdesk.testing.TestClaims;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One field set across the claims of an error group, then their rows resubmitted together: on a real database, with
 * the real worker and a state that refuses an unknown holder id for good.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class BulkEditTest {
    @Parameter
    TestDatabase.Engine engine;

    static final String REGISTERED = "HLD-100200";

    @TempDir
    Path dir;

    Database db;
    Queries queries;
    BulkEdit bulk;
    Resubmission resubmission;
    /** Three claims whose rows the state refused for the unknown holder id, in SUBMITTING. */
    List<Long> refusedClaims = new ArrayList<>();
    List<Long> refusedRows = new ArrayList<>();
    OutboxQuery group;

    @BeforeEach
    void threeClaimsRefusedForTheSameHolder() {
        db = TestDatabase.open(engine, dir);
        queries = new Queries(db, Clock.systemUTC());
        bulk = new BulkEdit(db, Clock.systemUTC());
        resubmission = new Resubmission(db, Clock.systemUTC());
        Workflow workflow = new Workflow(db, Clock.systemUTC(), Deadlines.statutory());
        for (int i = 0; i < 3; i++) {
            long claim = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
            HolderRegistryState.setHolderId(db, claim, HolderRegistryState.UNKNOWN_HOLDER);
            refusedClaims.add(claim);
            refusedRows.add(workflow.submit(claim, "s.patel", null).outboxEventId());
        }
        drain();
        assertThat(refusedRows).allSatisfy(row ->
                assertThat(queries.outboxEvent(row).orElseThrow().deliveryState()).isEqualTo(DeliveryState.FAILED));
        group = OutboxQuery.all().withState(DeliveryState.FAILED).withSignature(ErrorSignature.of(HolderRegistryState.REFUSAL));
    }

    @AfterEach
    void close() {
        db.close();
    }

    private void drain() {
        try (HolderRegistryState state = new HolderRegistryState();
                DeliveryWorker worker = new DeliveryWorker(db, state, Workers.fast(), Clock.systemUTC(), Deadlines.statutory())) {
            worker.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> queries.countOutboxByState().get(DeliveryState.PENDING) == 0);
        }
    }

    private String holderOf(long claimId) {
        return queries.claim(claimId).orElseThrow().holderId();
    }

    private long versionOf(long claimId) {
        return queries.claim(claimId).orElseThrow().version();
    }

    /** One claimant's claims in one state: one property id for all would make them repeat each other. */
    @Test
    void claimsTheValueWouldMakeRepeatAnotherAreSkippedAsSuch() {
        for (long claim : refusedClaims) {
            db.useTransaction(h -> h.createUpdate("UPDATE claim SET claimant_name = 'Maria Garcia' WHERE claim_id = :id")
                    .bind("id", claim).execute());
        }
        BulkEdit.Preview preview = bulk.preview("statePropertyId", "7654321", refusedClaims);
        assertThat(preview.eligible()).isEqualTo(3);

        BulkEdit.Result result = bulk.apply(preview, "j.chen", "property id per the state's letter", null, null);

        assertThat(result.changed()).hasSize(1);
        assertThat(result.changedSince()).isEmpty();
        assertThat(result.refused()).hasSize(2).allSatisfy(r -> assertThat(r.reason())
                .contains("would repeat it; nothing was changed"));
        assertThat(result.describe()).contains("2 skipped because the value would make them repeat another claim")
                .doesNotContain("changed since the preview");
    }

    @Test
    void thePreviewCountsTheClaimsShowsOldAndNewAndSkipsThoseItCannotOrNeedNotChange() {
        long submitted = TestClaims.insert(db, ClaimStatus.SUBMITTED_TO_STATE);
        long alreadyRight = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        long askedForInformation = TestClaims.insert(db, ClaimStatus.NEEDS_INFO);
        List<Long> ids = new ArrayList<>(refusedClaims);
        ids.add(submitted);
        ids.add(alreadyRight);
        ids.add(askedForInformation);
        long versionBefore = versionOf(refusedClaims.get(0));

        BulkEdit.Preview preview = bulk.preview("holderId", "  " + REGISTERED + " ", ids);

        assertThat(preview.eligible()).isEqualTo(3);
        assertThat(preview.value()).isEqualTo(REGISTERED);
        assertThat(preview.targets()).extracting(BulkEdit.Target::claimId).containsExactlyElementsOf(refusedClaims);
        assertThat(preview.targets()).allSatisfy(t -> {
            assertThat(t.before()).isEqualTo(HolderRegistryState.UNKNOWN_HOLDER);
            assertThat(t.after()).isEqualTo(REGISTERED);
        });
        assertThat(preview.skipped()).extracting(BulkEdit.Skipped::claimId)
                .containsExactly(submitted, alreadyRight, askedForInformation);
        assertThat(preview.skipped().get(0).reason()).startsWith("cannot be edited in SUBMITTED_TO_STATE: ");
        assertThat(preview.skipped().get(1).reason()).isEqualTo("holderId is already " + REGISTERED);
        assertThat(preview.skipped().get(2).reason())
                .startsWith("holderId cannot be changed while the state asks for information");
        assertThat(preview.describe()).isEqualTo("3 claim(s) will have holderId set to " + REGISTERED + "; 3 skipped");
        // a preview writes nothing
        assertThat(versionOf(refusedClaims.get(0))).isEqualTo(versionBefore);
        assertThat(queries.audit(null, null, AuditActions.CLAIM_EDIT, 0, 10)).isEmpty();
    }

    @Test
    void aClaimWhoseSubmissionIsOnItsWayIsSkipped() {
        long queued = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        HolderRegistryState.setHolderId(db, queued, HolderRegistryState.UNKNOWN_HOLDER);
        new Workflow(db, Clock.systemUTC(), Deadlines.statutory()).submit(queued, "s.patel", null);
        List<Long> ids = new ArrayList<>(refusedClaims);
        ids.add(queued);

        BulkEdit.Preview preview = bulk.preview("holderId", REGISTERED, ids);

        assertThat(preview.targets()).extracting(BulkEdit.Target::claimId).containsExactlyElementsOf(refusedClaims);
        assertThat(preview.skipped()).singleElement().satisfies(s -> {
            assertThat(s.claimId()).isEqualTo(queued);
            assertThat(s.reason()).isEqualTo("cannot be edited in SUBMITTING: " + ClaimStatus.SUBMISSION_PENDING_REFUSAL);
        });
    }

    @Test
    void theClaimsOfAnErrorGroupAreTheClaimsOfItsFailedRows() {
        BulkEdit.Preview preview = bulk.preview("holderId", REGISTERED, group);
        assertThat(preview.targets()).extracting(BulkEdit.Target::claimId).containsExactlyInAnyOrderElementsOf(refusedClaims);
    }

    @Test
    void aValueThatBreaksTheRuleIsRefusedNamingTheFieldAndTheRuleAndTheTaxIdIsNeverSetInBulk() {
        assertThatThrownBy(() -> bulk.preview("holderId", "HLD 100200", refusedClaims))
                .isInstanceOf(InvalidFieldsException.class)
                .hasMessage("holderId must be HLD- and six digits, as the state's holder registry numbers holders (e.g. HLD-100200)");
        assertThatThrownBy(() -> bulk.preview("amountCents", "12.50", refusedClaims))
                .hasMessageStartingWith("amountCents must be a whole number of cents");
        assertThatThrownBy(() -> bulk.preview("holderRef", "x", refusedClaims))
                .hasMessageStartingWith("holderRef is not a claim field");
        assertThatThrownBy(() -> bulk.preview("taxId", "123-45-6789", refusedClaims))
                .isInstanceOf(InvalidFieldsException.class)
                .hasMessageContaining("taxId cannot be set on many claims at once").hasMessageNotContaining("6789");
        assertThat(BulkEdit.fields()).extracting(f -> f.name()).contains("holderId", "amountCents").doesNotContain("taxId");
        assertThat(bulk.check("holderId", "HLD 1").violations()).singleElement()
                .satisfies(v -> assertThat(v.message()).startsWith("Holder id must be"));
        assertThat(refusedClaims).allSatisfy(id -> assertThat(holderOf(id)).isEqualTo(HolderRegistryState.UNKNOWN_HOLDER));
    }

    @Test
    void applyingEditsEachClaimWithOneAuditEntryCarryingTheReasonAndReportsProgress() {
        BulkEdit.Preview preview = bulk.preview("holderId", REGISTERED, group);
        List<Integer> progress = new ArrayList<>();

        BulkEdit.Result result = bulk.apply(preview, "r.okafor", "registered id from the state's holder list",
                progress::add, () -> false);

        assertThat(result.changedIds()).containsExactlyInAnyOrderElementsOf(refusedClaims);
        assertThat(result.cancelled()).isFalse();
        assertThat(result.describe()).isEqualTo("3 of 3 claim(s) changed (holderId → " + REGISTERED + ")");
        assertThat(progress).containsExactly(1, 2, 3);
        for (long claim : refusedClaims) {
            assertThat(holderOf(claim)).isEqualTo(REGISTERED);
            List<AuditEntry> audit = queries.audit(Long.toString(claim), null, AuditActions.CLAIM_EDIT, 0, 10);
            assertThat(audit).singleElement().satisfies(a -> {
                assertThat(a.actor()).isEqualTo("r.okafor");
                assertThat(a.reason()).isEqualTo("registered id from the state's holder list");
                Map<String, Object> details = Json.readObject(a.details());
                assertThat(details).containsEntry("field", "holderId")
                        .containsEntry("before", HolderRegistryState.UNKNOWN_HOLDER).containsEntry("after", REGISTERED);
            });
        }
    }

    @Test
    void aClaimChangedSinceThePreviewIsSkippedAndReportedNotOverwritten() {
        BulkEdit.Preview preview = bulk.preview("holderId", REGISTERED, refusedClaims);
        long changed = refusedClaims.get(1);
        new ClaimEditing(db, Clock.systemUTC()).edit(changed, versionOf(changed), Map.of("holderId", "HLD-906986"),
                "j.chen", "the holder's own letter");

        BulkEdit.Result result = bulk.apply(preview, "r.okafor", "registered id", null, null);

        assertThat(result.changedIds()).containsExactly(refusedClaims.get(0), refusedClaims.get(2));
        assertThat(result.changedSince()).singleElement().satisfies(s -> {
            assertThat(s.claimId()).isEqualTo(changed);
            assertThat(s.reason()).contains("was changed by j.chen").contains("nothing was saved");
        });
        assertThat(holderOf(changed)).isEqualTo("HLD-906986");
        assertThat(result.describe()).contains("2 of 3 claim(s) changed").contains("1 skipped because they changed since");
    }

    @Test
    void cancellingMidwayKeepsWhatWasDoneAndSaysSo() {
        BulkEdit.Preview preview = bulk.preview("holderId", REGISTERED, refusedClaims);
        AtomicInteger done = new AtomicInteger();

        BulkEdit.Result result = bulk.apply(preview, "r.okafor", "registered id", done::set, () -> done.get() >= 2);

        assertThat(result.cancelled()).isTrue();
        assertThat(result.changedIds()).containsExactly(refusedClaims.get(0), refusedClaims.get(1));
        assertThat(result.notReached()).isEqualTo(1);
        assertThat(result.describe()).startsWith("2 of 3 claim(s) changed").contains("cancelled: 1 not reached");
        assertThat(holderOf(refusedClaims.get(2))).isEqualTo(HolderRegistryState.UNKNOWN_HOLDER);
        assertThat(queries.audit(null, null, AuditActions.CLAIM_EDIT, 0, 10)).hasSize(2);
    }

    @Test
    void thenTheCorrectedRowsAreResubmittedTogetherUnderNewKeysAndDelivered() {
        long other = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        long pending = new Workflow(db, Clock.systemUTC(), Deadlines.statutory()).submit(other, "s.patel", null).outboxEventId();
        List<Long> rows = new ArrayList<>(refusedRows);
        rows.add(pending);
        // before the fix every row is skipped: their claims are unchanged
        Resubmission.BulkPreview before = resubmission.preview(OutboxQuery.byIds(rows));
        assertThat(before.eligible()).isZero();
        assertThat(before.skipped().get(refusedRows.get(0))).contains("has not changed since the state refused");
        assertThat(before.skipped().get(pending)).isEqualTo("outbox row " + pending + " is pending: only a failed row can be resubmitted");

        bulk.apply(bulk.preview("holderId", REGISTERED, group), "r.okafor", "registered id", null, null);
        Resubmission.BulkPreview preview = resubmission.preview(OutboxQuery.byIds(rows));
        assertThat(preview.eligible()).isEqualTo(3);
        assertThat(preview.skipped()).containsOnlyKeys(pending);
        List<Integer> progress = new ArrayList<>();

        Resubmission.BulkResult result = resubmission.resubmitAll(preview, "r.okafor", "holder id corrected", progress::add,
                null);

        assertThat(result.resubmitted()).extracting(Resubmission.Result::oldOutboxEventId).containsExactlyElementsOf(refusedRows);
        assertThat(result.describe()).isEqualTo("3 of 3 row(s) resubmitted under new keys; 1 skipped");
        assertThat(progress).containsExactly(1, 2, 3);
        for (Resubmission.Result r : result.resubmitted()) {
            assertThat(queries.outboxEvent(r.oldOutboxEventId()).orElseThrow().supersededBy()).isEqualTo(r.newOutboxEventId());
            assertThat(r.newKey()).isNotEqualTo(r.oldKey());
            assertThat(queries.audit(Long.toString(r.oldOutboxEventId()), null, AuditActions.OUTBOX_RESUBMIT, 0, 10))
                    .singleElement().satisfies(a -> assertThat(a.reason()).isEqualTo("holder id corrected"));
        }
        drain();
        assertThat(result.resubmitted()).allSatisfy(r -> assertThat(queries.outboxEvent(r.newOutboxEventId()).orElseThrow()
                .deliveryState()).isEqualTo(DeliveryState.SENT));
        assertThat(refusedClaims).allSatisfy(c ->
                assertThat(queries.claim(c).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTED_TO_STATE));
    }

    @Test
    void aBulkResubmitSkipsARowResubmittedMeanwhileAndStopsWhenCancelled() {
        bulk.apply(bulk.preview("holderId", REGISTERED, group), "r.okafor", "registered id", null, null);
        Resubmission.BulkPreview preview = resubmission.preview(group);
        Resubmission.Result elsewhere = resubmission.resubmit(refusedRows.get(0), "j.chen", "fixed at the other desk");
        AtomicInteger done = new AtomicInteger();

        Resubmission.BulkResult result = resubmission.resubmitAll(preview, "r.okafor", "holder id corrected", done::set,
                () -> done.get() >= 2);

        assertThat(result.resubmitted()).extracting(Resubmission.Result::oldOutboxEventId).containsExactly(refusedRows.get(1));
        assertThat(result.skipped()).containsEntry(refusedRows.get(0),
                "outbox row " + refusedRows.get(0) + " was already resubmitted as row " + elsewhere.newOutboxEventId());
        assertThat(result.cancelled()).isTrue();
        assertThat(result.notReached()).isEqualTo(1);
        assertThat(queries.outboxEvent(refusedRows.get(2)).orElseThrow().deliveryState()).isEqualTo(DeliveryState.FAILED);
        assertThat(Sql.count(db, "outbox_event")).isEqualTo(5);
    }
}
