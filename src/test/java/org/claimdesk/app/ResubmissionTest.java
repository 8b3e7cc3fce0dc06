package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.claimdesk.delivery.DeliveryWorker;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ConflictException;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.EvidenceKind;
import org.claimdesk.domain.KeyPolicy;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.PayloadDiff;
import org.claimdesk.domain.StatusChange;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.EvidenceFiles;
import org.claimdesk.store.EvidenceStore;
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

/** Fix and resubmit against a real database and the real worker with the in-process simulated state. */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class ResubmissionTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    Database db;
    Queries queries;
    Resubmission resubmission;
    long claimId;
    long refusedRow;

    @BeforeEach
    void refusedForAnUnknownHolder() {
        db = TestDatabase.open(engine, dir);
        queries = new Queries(db, Clock.systemUTC());
        resubmission = new Resubmission(db, Clock.systemUTC());
        claimId = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        HolderRegistryState.setHolderId(db, claimId, HolderRegistryState.UNKNOWN_HOLDER);
        refusedRow = new Workflow(db, Clock.systemUTC(), Deadlines.statutory()).submit(claimId, "s.patel", null).outboxEventId();
        drain();
        assertThat(queries.outboxEvent(refusedRow).orElseThrow().deliveryState()).isEqualTo(DeliveryState.FAILED);
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

    @Test
    void aReQueuePreviewWarnsOfRefusedDataSentAgainAndOfACorrectedClaimThatResubmitWouldSend() {
        OutboxTriage triage = new OutboxTriage(db, Clock.systemUTC(), Deadlines.statutory(), null);
        OutboxTriage.Preview unchanged = triage.preview(OutboxTriage.Action.REQUEUE, OutboxQuery.byIds(List.of(refusedRow)));
        assertThat(unchanged.refusedUnchanged()).containsExactly(refusedRow);
        assertThat(unchanged.claimCorrected()).isEmpty();
        assertThat(unchanged.confirmation()).isEqualTo("1 of them: " + KeyPolicy.UNCHANGED_REFUSAL_WARNING);

        HolderRegistryState.setHolderId(db, claimId, "HLD-100200");
        OutboxTriage.Preview corrected = triage.preview(OutboxTriage.Action.REQUEUE, OutboxQuery.byIds(List.of(refusedRow)));
        assertThat(corrected.refusedUnchanged()).isEmpty();
        assertThat(corrected.claimCorrected()).containsExactly(refusedRow);
        assertThat(corrected.describe()).isEqualTo("1 will be re-queued; 1 of them: " + KeyPolicy.CORRECTED_REQUEUE_WARNING);
        assertThat(triage.preview(OutboxTriage.Action.ABANDON, OutboxQuery.byIds(List.of(refusedRow))).confirmation())
                .as("only a re-queue sends data").isNull();
    }

    @Test
    void aCorrectedClaimIsResubmittedUnderANewKeyAndTheWorkerDeliversIt() {
        OutboxEvent old = queries.outboxEvent(refusedRow).orElseThrow();
        HolderRegistryState.setHolderId(db, claimId, "HLD-100200");

        Resubmission.Result r = resubmission.resubmit(refusedRow, "r.okafor", "holder id corrected from the report");

        OutboxEvent superseded = queries.outboxEvent(refusedRow).orElseThrow();
        OutboxEvent queued = queries.outboxEvent(r.newOutboxEventId()).orElseThrow();
        assertThat(superseded.deliveryState()).isEqualTo(DeliveryState.SUPERSEDED);
        assertThat(superseded.supersededBy()).isEqualTo(r.newOutboxEventId());
        assertThat(superseded.payload()).isEqualTo(old.payload());
        assertThat(queued.deliveryState()).isEqualTo(DeliveryState.PENDING);
        assertThat(queued.idempotencyKey()).isEqualTo(r.newKey()).isNotEqualTo(old.idempotencyKey()).startsWith("sub-");
        assertThat(Json.readObject(queued.payload())).containsEntry("holderId", "HLD-100200")
                .containsEntry("idempotencyKey", r.newKey());
        assertThat(r.diff().changes()).containsExactly(
                new PayloadDiff.Change("holderId", HolderRegistryState.UNKNOWN_HOLDER, "HLD-100200"));
        assertThat(queries.claim(claimId).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTING);

        drain();

        assertThat(queries.outboxEvent(r.newOutboxEventId()).orElseThrow().deliveryState()).isEqualTo(DeliveryState.SENT);
        assertThat(queries.claim(claimId).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTED_TO_STATE);
        // the chain: the old row keeps its refused attempt, the new one has the accepted attempt
        List<DeliveryAttempt> oldAttempts = queries.attempts(refusedRow);
        assertThat(oldAttempts).extracting(DeliveryAttempt::outcome).containsExactly(AttemptOutcome.PERMANENT);
        assertThat(queries.attempts(r.newOutboxEventId())).extracting(DeliveryAttempt::outcome)
                .containsExactly(AttemptOutcome.DELIVERED);
        List<StatusChange> history = queries.history(claimId);
        assertThat(history).extracting(StatusChange::toStatus).containsSubsequence(
                ClaimStatus.SUBMITTING, ClaimStatus.SUBMITTING, ClaimStatus.SUBMITTED_TO_STATE);
        assertThat(history).anySatisfy(c -> assertThat(c.reason())
                .startsWith("resubmitted after the state refused \"" + HolderRegistryState.REFUSAL)
                .contains("holderId").contains("holder id corrected from the report"));
        List<AuditEntry> audit = queries.audit(Long.toString(refusedRow), null, AuditActions.OUTBOX_RESUBMIT, 0, 10);
        assertThat(audit).singleElement().satisfies(a -> {
            assertThat(a.actor()).isEqualTo("r.okafor");
            assertThat(a.reason()).isEqualTo("holder id corrected from the report");
            Map<String, Object> details = Json.readObject(a.details());
            assertThat(details).containsEntry("oldIdempotencyKey", old.idempotencyKey())
                    .containsEntry("newIdempotencyKey", r.newKey())
                    .containsEntry("newOutboxEventId", (int) r.newOutboxEventId())
                    .containsEntry("oldOutboxEventId", (int) refusedRow);
            assertThat(a.details()).contains("\"field\":\"holderId\"");
        });
    }

    @Test
    void anUnchangedPayloadIsRefusedAndTheKeyPolicyAsksForConfirmationToRequeueIt() {
        assertThatThrownBy(() -> resubmission.resubmit(refusedRow, "r.okafor", "try again"))
                .isInstanceOf(ClaimDeskException.class)
                .hasMessageContaining("has not changed since the state refused outbox row " + refusedRow);
        assertThat(queries.outboxEvent(refusedRow).orElseThrow().deliveryState()).isEqualTo(DeliveryState.FAILED);
        assertThat(Sql.count(db, "outbox_event")).isEqualTo(1);

        Resubmission.Check check = resubmission.check(refusedRow);
        assertThat(check.decision()).isEqualTo(KeyPolicy.Decision.REQUEUE_NEEDS_CONFIRMATION);
        OutboxTriage.Preview preview = new OutboxTriage(db, Clock.systemUTC(), Deadlines.statutory(), null)
                .preview(OutboxTriage.Action.REQUEUE, OutboxQuery.byIds(List.of(refusedRow)));
        assertThat(preview.refusedUnchanged()).containsExactly(refusedRow);
        assertThat(preview.describe()).contains(KeyPolicy.UNCHANGED_REFUSAL_WARNING);
    }

    @Test
    void aRowThatIsNotFailedIsRefused() {
        HolderRegistryState.setHolderId(db, claimId, "HLD-100200");
        long other = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        long pending = new Workflow(db, Clock.systemUTC(), Deadlines.statutory()).submit(other, "s.patel", null).outboxEventId();
        assertThatThrownBy(() -> resubmission.resubmit(pending, "r.okafor", "why"))
                .isInstanceOf(ClaimDeskException.class)
                .hasMessage("outbox row " + pending + " is pending: only a failed row can be resubmitted");
    }

    @Test
    void aSecondResubmitSeesTheRowSupersededAndChangesNothing() {
        HolderRegistryState.setHolderId(db, claimId, "HLD-100200");
        Resubmission.Check seenByOther = resubmission.check(refusedRow);
        Resubmission.Result first = resubmission.resubmit(refusedRow, "r.okafor", "corrected");

        assertThatThrownBy(() -> resubmission.resubmit(refusedRow, "j.chen", "corrected too"))
                .isInstanceOf(ClaimDeskException.class)
                .hasMessage("outbox row " + refusedRow + " was already resubmitted as row " + first.newOutboxEventId());
        // a workstation that looked before the first resubmission is refused the same way
        assertThatThrownBy(() -> resubmission.resubmit(seenByOther, "j.chen", "corrected too"))
                .hasMessage("outbox row " + refusedRow + " was already resubmitted as row " + first.newOutboxEventId());
        assertThat(Sql.count(db, "outbox_event")).isEqualTo(2);
        assertThat(queries.audit(null, null, AuditActions.OUTBOX_RESUBMIT, 0, 10)).hasSize(1);
    }

    @Test
    void aRowAnotherWorkstationResubmittedMeanwhileIsRefusedAndNothingIsHalfWritten() {
        HolderRegistryState.setHolderId(db, claimId, "HLD-100200");
        try (Database other = Database.open(db.location())) {
            Resubmission there = new Resubmission(other, Clock.systemUTC());
            Resubmission.Check seenHere = resubmission.check(refusedRow);
            Resubmission.Check seenThere = there.check(refusedRow);
            assertThat(seenHere.refusal()).isNull();
            assertThat(seenThere.refusal()).isNull();

            Resubmission.Result first = there.resubmit(seenThere, "j.chen", "holder id corrected");
            Map<String, Integer> before = rowCounts();

            String refusal = "outbox row " + refusedRow + " was already resubmitted as row " + first.newOutboxEventId();
            assertThatThrownBy(() -> resubmission.resubmit(seenHere, "r.okafor", "holder id corrected too"))
                    .isInstanceOf(ClaimDeskException.class).hasMessage(refusal);
            assertThatThrownBy(() -> resubmission.resubmit(refusedRow, "r.okafor", "holder id corrected too"))
                    .isInstanceOf(ClaimDeskException.class).hasMessage(refusal);

            assertThat(rowCounts()).isEqualTo(before);
            OutboxEvent old = queries.outboxEvent(refusedRow).orElseThrow();
            assertThat(old.deliveryState()).isEqualTo(DeliveryState.SUPERSEDED);
            assertThat(old.supersededBy()).isEqualTo(first.newOutboxEventId());
            assertThat(queries.audit(null, null, AuditActions.OUTBOX_RESUBMIT, 0, 10)).singleElement()
                    .satisfies(a -> assertThat(a.actor()).isEqualTo("j.chen"));
        }
    }

    private Map<String, Integer> rowCounts() {
        Map<String, Integer> counts = new java.util.LinkedHashMap<>();
        for (String table : List.of("outbox_event", "delivery_attempt", "claim_status_history", "audit_log", "claim")) {
            counts.put(table, Sql.count(db, table));
        }
        return counts;
    }

    @Test
    void aClaimChangedAfterTheDiffWasShownIsAConflict() {
        HolderRegistryState.setHolderId(db, claimId, "HLD-100200");
        Resubmission.Check seen = resubmission.check(refusedRow);
        new ClaimEditing(db, Clock.systemUTC()).edit(claimId, seen.claimVersion(), Map.of("holderId", "HLD-100201"),
                "m.alvarez", "registry says 201");
        assertThatThrownBy(() -> resubmission.resubmit(seen, "r.okafor", "corrected"))
                .isInstanceOf(ConflictException.class)
                .hasMessageMatching("claim \\S+ was changed by m\\.alvarez at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d"
                        + " \\(edited holderId\\) after you opened it: you saw version " + seen.claimVersion()
                        + ", it is now at version " + (seen.claimVersion() + 1) + "; nothing was saved.*");
        assertThat(queries.outboxEvent(refusedRow).orElseThrow().deliveryState()).isEqualTo(DeliveryState.FAILED);
        assertThat(Sql.count(db, "outbox_event")).isEqualTo(1);
    }

    /**
     * The row re-queued on another workstation after the diff was shown, and refused again: a conflict naming who
     * re-queued it; then the worker's own later attempt, which changes the row alone and no one audits, is named as
     * the worker's.
     */
    @Test
    void aRowChangedAfterTheDiffWasShownIsAConflictNamingWhoChangedIt() {
        HolderRegistryState.setHolderId(db, claimId, "HLD-100200");
        Resubmission.Check seen = resubmission.check(refusedRow);
        OutboxTriage triage = new OutboxTriage(db, Clock.systemUTC(), Deadlines.statutory(), null);
        triage.apply(triage.preview(OutboxTriage.Action.REQUEUE, OutboxQuery.byIds(List.of(refusedRow))), "m.alvarez",
                "try again", false, n -> { });
        // refused again by the state: the worker marks it failed once more
        java.util.function.LongConsumer failedAt = at -> db.useTransaction(h -> h.execute(
                "UPDATE outbox_event SET delivery_state = 'failed', updated_at = ? WHERE outbox_event_id = ?",
                at, refusedRow));
        failedAt.accept(System.currentTimeMillis() + 1);

        // a re-queue notes itself in the claim's history, which moves the claim's version
        assertThatThrownBy(() -> resubmission.resubmit(seen, "r.okafor", "corrected"))
                .isInstanceOf(ConflictException.class)
                .hasMessageStartingWith("claim " + seen.claimNumber() + " was changed by m.alvarez at ")
                .hasMessageContaining(" (re-queued with the data first queued");
        // what the command line's resubmit, which compares the row alone, says of it
        assertThat(db.read(h -> new Conflicts().rowChangedSince(h, refusedRow, seen.claimNumber(),
                java.time.Instant.ofEpochMilli(seen.rowUpdatedAt()), java.time.Instant.now())).getMessage())
                .startsWith("outbox row " + refusedRow + " of claim " + seen.claimNumber() + " was changed by m.alvarez at ")
                .contains(" (re-queued it) after you opened it; nothing was changed");

        Resubmission.Check requeued = resubmission.check(refusedRow);
        failedAt.accept(requeued.rowUpdatedAt() + 60_000);
        assertThatThrownBy(() -> resubmission.resubmit(requeued, "r.okafor", "corrected"))
                .isInstanceOf(ConflictException.class)
                .hasMessageContaining(" was changed by the delivery worker at ");
        assertThat(Sql.count(db, "outbox_event")).isEqualTo(1);
    }

    /** Evidence is part of the payload: added after the diff was shown, it is a conflict, not sent unseen. */
    @Test
    void evidenceAddedAfterTheDiffWasShownIsAConflict() {
        HolderRegistryState.setHolderId(db, claimId, "HLD-100200");
        Resubmission.Check seen = resubmission.check(refusedRow);
        new ClaimEvidence(db, Clock.systemUTC(), EvidenceFiles.own(dir.resolve("evidence")))
                .addUrl(claimId, "address", "https://records.example.gov/utility/2024-03", null, "m.alvarez");
        assertThatThrownBy(() -> resubmission.resubmit(seen, "r.okafor", "corrected"))
                .isInstanceOf(ConflictException.class).hasMessageContaining("changed after you opened it (evidence"
                        + " added by m.alvarez at ");
        assertThat(queries.outboxEvent(refusedRow).orElseThrow().deliveryState()).isEqualTo(DeliveryState.FAILED);

        Resubmission.Check again = resubmission.check(refusedRow);
        assertThat(again.diff().changes()).extracting(org.claimdesk.domain.PayloadDiff.Change::field)
                .contains("evidence");
        assertThat(resubmission.resubmit(again, "r.okafor", "corrected").newOutboxEventId()).isPositive();
    }

    /**
     * Evidence being added on another workstation (its claim held) when a resubmit starts: the resubmit waits for it
     * and sends it, instead of queueing a payload without it while the claim then shows it.
     */
    @Test
    void evidenceBeingAddedElsewhereWhenAResubmitStartsGoesOutWithIt() throws Exception {
        HolderRegistryState.setHolderId(db, claimId, "HLD-100200");
        try (Database elsewhere = Database.open(db.location());
             org.jdbi.v3.core.Handle adding = elsewhere.jdbi().open()) {
            adding.begin();
            new ClaimStore().findForUpdate(adding, claimId);
            new EvidenceStore().insertUrl(adding, claimId, EvidenceKind.ADDRESS, "utility bill",
                    "https://records.example.gov/utility/2024-03", "m.alvarez", java.time.Instant.now());
            java.util.concurrent.CompletableFuture<Resubmission.Result> resubmitting = java.util.concurrent
                    .CompletableFuture.supplyAsync(() -> resubmission.resubmit(refusedRow, "r.okafor", "corrected"));
            if (engine == TestDatabase.Engine.POSTGRESQL) {
                // the resubmit waits on the claim the evidence is added to
                await().atMost(Duration.ofSeconds(10)).until(() -> adding.createQuery("SELECT count(*) FROM"
                        + " pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")
                        .mapTo(Integer.class).one() > 0);
            }
            adding.commit();
            Resubmission.Result result = resubmitting.get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(result.diff().changes()).extracting(org.claimdesk.domain.PayloadDiff.Change::field)
                    .contains("evidence");
            assertThat(queries.outboxEvent(result.newOutboxEventId()).orElseThrow().payload())
                    .contains("\"address\"");
        }
    }

    @Test
    void supersededRowsAreListedByTheirState() {
        HolderRegistryState.setHolderId(db, claimId, "HLD-100200");
        Resubmission.Result r = resubmission.resubmit(refusedRow, "r.okafor", "corrected");
        assertThat(queries.outbox(OutboxQuery.all().withState(DeliveryState.SUPERSEDED)))
                .extracting(OutboxEvent::outboxEventId, OutboxEvent::supersededBy)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(refusedRow, r.newOutboxEventId()));
        assertThat(queries.countOutboxByState()).containsEntry(DeliveryState.SUPERSEDED, 1);
    }
}
