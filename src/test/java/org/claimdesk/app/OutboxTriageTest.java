package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.claimdesk.app.OutboxTriage.Action;
import org.claimdesk.app.OutboxTriage.Preview;
import org.claimdesk.app.OutboxTriage.Result;
import org.claimdesk.delivery.DeliveryWorker;
import org.claimdesk.delivery.HttpStateAdapter;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.ErrorSignature;
import org.claimdesk.domain.FailureGroup;
import org.claimdesk.domain.NotFoundException;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.Database;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.testing.FaultyStateServer;
import org.claimdesk.testing.FaultyStateServer.Fault;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class OutboxTriageTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    Database db;
    Queries queries;
    OutboxTriage triage;
    FaultyStateServer server;
    final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeEach
    void open() throws Exception {
        db = TestDatabase.open(engine, dir);
        queries = new Queries(db, Clock.systemUTC());
        server = FaultyStateServer.start((key, n) -> Fault.NONE, Duration.ofSeconds(1));
        triage = triage(null);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        server.close();
        db.close();
    }

    private OutboxTriage triage(org.claimdesk.delivery.StateAdapter state) {
        return new OutboxTriage(db, Clock.systemUTC(), Deadlines.statutory(), state);
    }

    private static OutboxQuery failed() {
        return OutboxQuery.all().withState(DeliveryState.FAILED);
    }

    private Result abandon(List<Long> ids, String actor, String reason) {
        return triage.apply(triage.preview(Action.ABANDON, OutboxQuery.byIds(ids)), actor, reason, false, null);
    }

    /** Drains every due row with a fresh worker against the test server, then stops it. */
    private void drain(WorkerSettings settings) {
        HttpStateAdapter adapter = Workers.http(server.baseUrl(), 2_000);
        try (adapter; DeliveryWorker worker = new DeliveryWorker(db, adapter, settings, Clock.systemUTC(),
                Deadlines.statutory())) {
            worker.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> Outbox.count(db, DeliveryState.PENDING) == 0);
        }
    }

    private void fail(long outboxEventId, String error, long updatedAt) {
        db.useTransaction(h -> h.createUpdate("""
                UPDATE outbox_event SET delivery_state = 'failed', last_error = :e, attempts = 1, retry_count = 1,
                    updated_at = :t WHERE outbox_event_id = :id""")
                .bind("e", error).bind("t", updatedAt).bind("id", outboxEventId).execute());
    }

    @Test
    void aRunTheDatabaseStopsMidwayReportsWhatItDidAndWhatItDidNotReach() {
        List<SubmitResult> queued = Outbox.submitted(db, OutboxTriage.CHUNK + 50);
        queued.forEach(q -> fail(q.outboxEventId(), "503 service unavailable", 1_000));
        long firstOfSecondChunk = queued.get(OutboxTriage.CHUNK).outboxEventId();
        org.claimdesk.testing.Triggers.after(db, "disk_full", "outbox_event", "UPDATE",
                "NEW.outbox_event_id = " + firstOfSecondChunk,
                db.onServer() ? "RAISE EXCEPTION 'the disk is full'" : "SELECT RAISE(ABORT, 'the disk is full')");

        Result result = triage.apply(triage.preview(Action.REQUEUE, failed()), "m.alvarez", "portal back", false, null);

        assertThat(result.changed()).isEqualTo(OutboxTriage.CHUNK);
        assertThat(result.notReachedIds()).hasSize(50).contains(firstOfSecondChunk);
        assertThat(result.failure()).contains("the disk is full");
        assertThat(Outbox.count(db, DeliveryState.PENDING)).isEqualTo(OutboxTriage.CHUNK);
        assertThat(Outbox.count(db, DeliveryState.FAILED)).isEqualTo(50);
        assertThat(queries.audit(null, null, AuditActions.OUTBOX_REQUEUE, 0, 0)).hasSize(OutboxTriage.CHUNK);
        assertThat(result.changedIds()).doesNotContainAnyElementsOf(result.notReachedIds());
    }

    @Test
    void aFilterOfEveryStateActsOnItsFailedRowsWithoutReadingTheOthers() {
        List<SubmitResult> queued = Outbox.submitted(db, 4);
        fail(queued.get(0).outboxEventId(), "422 invalid_claim: holder id", 1_000);
        fail(queued.get(1).outboxEventId(), "422 invalid_claim: holder id", 1_000);
        Preview every = triage.preview(Action.REQUEUE, OutboxQuery.all());
        assertThat(every.targetIds()).containsExactlyInAnyOrder(queued.get(0).outboxEventId(),
                queued.get(1).outboxEventId());
        assertThat(every.notFailed()).as("the pending rows are not listed one by one").isEmpty();
        assertThat(triage.preview(Action.ABANDON, OutboxQuery.all().withState(DeliveryState.PENDING)).eligible())
                .isZero();
        Preview named = triage.preview(Action.REQUEUE, OutboxQuery.byIds(List.of(queued.get(0).outboxEventId(),
                queued.get(2).outboxEventId())));
        assertThat(named.notFailed()).as("a row named by id is reported")
                .containsOnlyKeys(queued.get(2).outboxEventId());
    }

    @Test
    void anAbandonAsksTheStateAboutRowsItMayHoldAndKeepsThoseItCannotAskAbout() {
        List<SubmitResult> queued = Outbox.submitted(db, 3);
        List<Long> ids = queued.stream().map(SubmitResult::outboxEventId).toList();
        String heldKey = queries.outboxEvent(ids.get(0)).orElseThrow().idempotencyKey();
        // the state takes the first row's submission and its answer is lost; the others it never takes
        server.plan((key, n) -> key.equals(heldKey) ? Fault.ACCEPTED_THEN_503 : Fault.UNAVAILABLE_503);
        drain(Workers.fast().withMaxAttempts(1));
        assertThat(ids).allSatisfy(id -> assertThat(queries.outboxEvent(id).orElseThrow().deliveryState())
                .isEqualTo(DeliveryState.FAILED));

        Result blind = abandon(ids, "m.alvarez", "giving up on these");
        assertThat(blind.changed()).isZero();
        assertThat(blind.keptReasons()).containsOnlyKeys(ids).allSatisfy((id, why) -> assertThat(why)
                .contains("no state is configured").contains("Re-queue it instead"));
        assertThat(ids).allSatisfy(id -> assertThat(queries.outboxEvent(id).orElseThrow().deliveryState())
                .isEqualTo(DeliveryState.FAILED));
        assertThat(queued).allSatisfy(q -> assertThat(queries.claim(q.claimId()).orElseThrow().status())
                .isEqualTo(ClaimStatus.SUBMITTING));
        assertThat(queries.audit(null, null, AuditActions.OUTBOX_ABANDON, 0, 0)).isEmpty();

        HttpStateAdapter adapter = Workers.http(server.baseUrl(), 2_000);
        closeables.add(adapter);
        OutboxTriage asking = triage(adapter);
        Result asked = asking.apply(asking.preview(Action.ABANDON, OutboxQuery.byIds(ids)), "m.alvarez",
                "giving up on these", false, null);
        assertThat(asked.reconciledIds()).containsExactly(ids.get(0));
        assertThat(asked.changedIds()).containsExactlyInAnyOrderElementsOf(ids.subList(1, 3));
        assertThat(asked.kept()).isEmpty();
        assertThat(queries.outboxEvent(ids.get(0)).orElseThrow().deliveryState()).isEqualTo(DeliveryState.SENT);
        assertThat(queries.claim(queued.get(0).claimId()).orElseThrow().status())
                .as("the state holds it: not submitted again").isEqualTo(ClaimStatus.SUBMITTED_TO_STATE);
        for (SubmitResult q : queued.subList(1, 3)) {
            assertThat(queries.outboxEvent(q.outboxEventId()).orElseThrow().deliveryState())
                    .isEqualTo(DeliveryState.ABANDONED);
            assertThat(queries.claim(q.claimId()).orElseThrow().status()).isEqualTo(ClaimStatus.READY_FOR_SUBMISSION);
        }
    }

    @Test
    void requeueRestartsBackoffFromTheBaseWhileAttemptNumberingAndHistoryGoOn() {
        SubmitResult q = Outbox.submitted(db, 1).get(0);
        server.plan((key, n) -> Fault.UNAVAILABLE_503);
        drain(Workers.fast().withMaxAttempts(2));
        assertThat(queries.outboxEvent(q.outboxEventId()).orElseThrow().deliveryState()).isEqualTo(DeliveryState.FAILED);
        assertThat(Outbox.retryCount(db, q.outboxEventId())).isEqualTo(2);

        Preview preview = triage.preview(Action.REQUEUE, OutboxQuery.byIds(List.of(q.outboxEventId())));
        assertThat(preview.eligible()).isEqualTo(1);
        Result result = triage.apply(preview, "m.alvarez", "state portal back after maintenance", false, null);

        assertThat(result.changed()).isEqualTo(1);
        OutboxEvent row = queries.outboxEvent(q.outboxEventId()).orElseThrow();
        assertThat(row.deliveryState()).isEqualTo(DeliveryState.PENDING);
        assertThat(row.attempts()).isEqualTo(2);
        assertThat(Outbox.retryCount(db, q.outboxEventId())).isZero();
        assertThat(row.nextAttemptAt()).isBeforeOrEqualTo(Instant.now());
        assertThat(queries.audit(Long.toString(q.outboxEventId()), null, AuditActions.OUTBOX_REQUEUE, 0, 0))
                .singleElement().satisfies(a -> {
                    assertThat(a.actor()).isEqualTo("m.alvarez");
                    assertThat(a.reason()).isEqualTo("state portal back after maintenance");
                    assertThat(a.subjectType()).isEqualTo(AuditActions.SUBJECT_OUTBOX);
                    assertThat(a.details()).contains("503 unavailable");
                });

        // one more 503 does not exhaust the row again: its budget starts over
        server.plan((key, n) -> n == 3 ? Fault.UNAVAILABLE_503 : Fault.NONE);
        drain(Workers.fast().withMaxAttempts(2));
        assertThat(queries.attempts(q.outboxEventId())).extracting(DeliveryAttempt::attemptNo).containsExactly(1, 2, 3, 4);
        assertThat(queries.attempts(q.outboxEventId())).extracting(DeliveryAttempt::outcome).containsExactly(
                AttemptOutcome.TRANSIENT, AttemptOutcome.TRANSIENT, AttemptOutcome.TRANSIENT, AttemptOutcome.DELIVERED);
        assertThat(queries.claim(q.claimId()).orElseThrow().stateCaseId()).isEqualTo(server.state().caseIds().get(q.claimId()));
    }

    @Test
    void aClaimCorrectedAfterThePreviewIsNotRequeuedWithItsOldData() {
        List<SubmitResult> rows = Outbox.submitted(db, 2);
        long corrected = rows.get(0).outboxEventId();
        long unchanged = rows.get(1).outboxEventId();
        fail(corrected, "422 holder id not on the report", 1_000);
        fail(unchanged, "503 unavailable", 1_000);
        Preview preview = triage.preview(Action.REQUEUE, OutboxQuery.byIds(List.of(corrected, unchanged)));
        assertThat(preview.claimCorrected()).isEmpty();

        // a colleague fixes the first claim while the re-queue waits for its confirmation
        long claimId = rows.get(0).claimId();
        ClaimEditing editing = new ClaimEditing(db, Clock.systemUTC());
        editing.edit(claimId, queries.claim(claimId).orElseThrow().version(), Map.of("holderId", "HLD-424242"),
                "j.chen", "state refused the holder id");
        Result result = triage.apply(preview, "m.alvarez", "portal back", false, null);

        assertThat(result.changedIds()).containsExactly(unchanged);
        assertThat(result.changedSinceIds()).containsExactly(corrected);
        assertThat(queries.outboxEvent(corrected).orElseThrow().deliveryState()).isEqualTo(DeliveryState.FAILED);

        // asked again, the preview says the claim was corrected; confirmed, the old data goes out under the old key
        Preview again = triage.preview(Action.REQUEUE, OutboxQuery.byIds(List.of(corrected)));
        assertThat(again.claimCorrected()).containsExactly(corrected);
        assertThat(triage.apply(again, "m.alvarez", "send the original as it was", false, null).changedIds())
                .containsExactly(corrected);
        assertThat(queries.outboxEvent(corrected).orElseThrow().deliveryState()).isEqualTo(DeliveryState.PENDING);
        assertThat(queries.history(claimId)).last().satisfies(h -> {
            assertThat(h.actor()).isEqualTo("m.alvarez");
            assertThat(h.toStatus()).isEqualTo(ClaimStatus.SUBMITTING);
            assertThat(h.reason()).isEqualTo("re-queued with the data first queued, not the corrections made since"
                    + " (holderId; Resubmit sends those under a new key): send the original as it was");
        });
        // and while it is on its way the claim is not edited
        assertThatThrownBy(() -> editing.edit(claimId, queries.claim(claimId).orElseThrow().version(),
                Map.of("holderId", "HLD-515151"), "j.chen", "another fix"))
                .hasMessageContaining(ClaimStatus.SUBMISSION_PENDING_REFUSAL);
    }

    @Test
    void filtersSelectBySignatureTextJurisdictionAndAgeAndChangedRowsAreSkipped() {
        List<SubmitResult> ca = Outbox.submitted(db, 4, "CA");
        List<SubmitResult> ny = Outbox.submitted(db, 2, "NY");
        long old = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
        long recent = System.currentTimeMillis();
        fail(ca.get(0).outboxEventId(), "422 invalid_claim: holder id HLD-1 not found in the holder's 2025 report", old);
        fail(ca.get(1).outboxEventId(), "422 invalid_claim: holder id HLD-2 not found in the holder's 2024 report", recent);
        fail(ca.get(2).outboxEventId(), "timeout: no reply from the state within 15000 ms (gave up after 8 attempts)", recent);
        fail(ny.get(0).outboxEventId(), "422 invalid_claim: holder id HLD-3 not found in the holder's 2025 report", recent);
        fail(ny.get(1).outboxEventId(), "503 unavailable: busy (gave up after 8 attempts)", old);

        String holderSignature = ErrorSignature.of("422 invalid_claim: holder id X1 not found in the holder's 1 report");
        assertThat(triage.preview(Action.REQUEUE, failed()).eligible()).isEqualTo(5);
        assertThat(triage.preview(Action.REQUEUE, failed().withSignature(holderSignature)).eligible()).isEqualTo(3);
        // a signature as the console shows a group, its letters' case as written, selects the same rows
        assertThat(triage.preview(Action.REQUEUE, failed().withSignature(holderSignature.replace("holder's", "Holder's")))
                .eligible()).isEqualTo(3);
        assertThat(triage.preview(Action.REQUEUE, failed().withErrorText("GAVE UP")).eligible()).isEqualTo(2);
        assertThat(triage.preview(Action.REQUEUE, failed().withJurisdiction("ny")).eligible()).isEqualTo(2);
        assertThat(triage.preview(Action.REQUEUE, failed().withChangedBefore(Instant.parse("2026-06-01T00:00:00Z")))
                .targetIds()).containsExactly(ca.get(0).outboxEventId(), ny.get(1).outboxEventId());

        Preview preview = triage.preview(Action.REQUEUE, failed().withSignature(holderSignature));
        abandon(List.of(ca.get(1).outboxEventId()), "j.chen", "holder id typo, claimant to resubmit");
        Result result = triage.apply(preview, "m.alvarez", "holder reports reloaded", false, null);

        assertThat(result.changed()).isEqualTo(2);
        assertThat(result.skipped()).isEqualTo(1);
        assertThat(result.changedSinceIds()).containsExactly(ca.get(1).outboxEventId());
        assertThat(queries.outboxEvent(ca.get(1).outboxEventId()).orElseThrow().deliveryState())
                .isEqualTo(DeliveryState.ABANDONED);
    }

    @Test
    void reconcileCompletesTheClaimWithTheStatesCaseIdInsteadOfSendingAgain() {
        List<SubmitResult> queued = Outbox.submitted(db, 2);
        SubmitResult lostReply = queued.get(0);
        SubmitResult neverArrived = queued.get(1);
        server.plan((key, n) -> key.equals(lostReply.idempotencyKey()) ? Fault.ACCEPTED_THEN_503 : Fault.UNAVAILABLE_503);
        drain(Workers.fast().withMaxAttempts(1));
        assertThat(Outbox.count(db, DeliveryState.FAILED)).isEqualTo(2);
        int postsBefore = server.totalPosts();
        // the row first went out 20 days ago; the claim still holds the date of a filing before it (amended since)
        Instant firstTry = Instant.now().minus(java.time.Duration.ofDays(20));
        db.useTransaction(h -> {
            h.execute("UPDATE delivery_attempt SET started_at = ? WHERE outbox_event_id = ?", firstTry.toEpochMilli(),
                    lostReply.outboxEventId());
            h.execute("UPDATE claim SET decision_due_on = '2026-04-05' WHERE claim_id = ?", lostReply.claimId());
        });

        Preview preview = triage.preview(Action.REQUEUE, failed());
        Result result;
        try (HttpStateAdapter adapter = Workers.http(server.baseUrl(), 2_000)) {
            result = triage(adapter).apply(preview, "supervisor.kim", "portal outage on Friday", true, null);
        }

        assertThat(result.reconciled()).isEqualTo(1);
        assertThat(result.changed()).isEqualTo(1);
        assertThat(result.unconfirmed()).isZero();
        assertThat(server.totalPosts()).as("reconcile only asks, it never POSTs").isEqualTo(postsBefore);
        String stateCase = server.state().caseIds().get(lostReply.claimId());
        OutboxEvent row = queries.outboxEvent(lostReply.outboxEventId()).orElseThrow();
        assertThat(row.deliveryState()).isEqualTo(DeliveryState.SENT);
        assertThat(row.stateCaseId()).isEqualTo(stateCase);
        assertThat(queries.claim(lostReply.claimId()).orElseThrow()).satisfies(c -> {
            assertThat(c.status()).isEqualTo(ClaimStatus.SUBMITTED_TO_STATE);
            assertThat(c.stateCaseId()).isEqualTo(stateCase);
            assertThat(c.decisionDueOn()).as("a new filing's date, from the row's first attempt").isEqualTo(
                    Deadlines.statutory().dueDate(c.jurisdiction(), java.time.LocalDate.ofInstant(firstTry,
                            java.time.ZoneId.systemDefault())));
        });
        assertThat(queries.history(lostReply.claimId())).last().satisfies(h -> assertThat(h.actor()).isEqualTo("supervisor.kim"));
        assertThat(queries.audit(Long.toString(lostReply.outboxEventId()), "supervisor.kim", AuditActions.OUTBOX_RECONCILE, 0, 0))
                .singleElement().satisfies(a -> assertThat(a.details()).contains(stateCase));
        assertThat(queries.outboxEvent(neverArrived.outboxEventId()).orElseThrow().deliveryState())
                .isEqualTo(DeliveryState.PENDING);
    }

    /**
     * A claim edited on another workstation while a bulk abandon runs: the abandon waits for the edit, reads the
     * claim as edited and goes on, instead of failing its whole chunk on the version that moved.
     */
    @Test
    void aClaimEditedElsewhereDuringAnAbandonIsWaitedForNotAFailure() throws Exception {
        List<SubmitResult> queued = Outbox.submitted(db, 3);
        for (SubmitResult q : queued) {
            fail(q.outboxEventId(), "422 invalid_claim: holder id is not in CA's holder registry",
                    System.currentTimeMillis());
        }
        long edited = queued.get(1).claimId();
        try (Database elsewhere = Database.open(db.location());
             org.jdbi.v3.core.Handle editing = elsewhere.jdbi().open()) {
            editing.begin();
            editing.execute("UPDATE claim SET version = version + 1, holder_id = 'HLD-100200' WHERE claim_id = ?",
                    edited);
            java.util.concurrent.CompletableFuture<Result> abandoning = java.util.concurrent.CompletableFuture
                    .supplyAsync(() -> abandon(queued.stream().map(SubmitResult::outboxEventId).toList(), "j.chen",
                            "claimant withdrew by letter"));
            if (engine == TestDatabase.Engine.POSTGRESQL) {
                // the abandon waits on the edited claim's row
                await().atMost(Duration.ofSeconds(10)).until(() -> editing.createQuery("SELECT count(*) FROM"
                        + " pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")
                        .mapTo(Integer.class).one() > 0);
            }
            editing.commit();
            Result result = abandoning.get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(result.changed()).isEqualTo(3);
        }
        assertThat(queued).allSatisfy(q -> assertThat(queries.claim(q.claimId()).orElseThrow().status())
                .isEqualTo(ClaimStatus.READY_FOR_SUBMISSION));
        assertThat(queries.claim(edited).orElseThrow().holderId()).isEqualTo("HLD-100200");
    }

    @Test
    void abandonReturnsTheClaimToReadySkipsRowsThatAreNotFailedAndIsAudited() {
        List<SubmitResult> queued = Outbox.submitted(db, 2);
        fail(queued.get(0).outboxEventId(), "422 invalid_claim: state property id 123 was already paid", System.currentTimeMillis());

        Result result = abandon(List.of(queued.get(0).outboxEventId(), queued.get(1).outboxEventId()),
                "j.chen", "claimant sent the wrong property id");

        assertThat(result.changed()).isEqualTo(1);
        assertThat(result.notFailed()).containsExactly(java.util.Map.entry(queued.get(1).outboxEventId(), DeliveryState.PENDING));
        assertThat(queries.outboxEvent(queued.get(0).outboxEventId()).orElseThrow().deliveryState())
                .isEqualTo(DeliveryState.ABANDONED);
        assertThat(queries.claim(queued.get(0).claimId()).orElseThrow().status()).isEqualTo(ClaimStatus.READY_FOR_SUBMISSION);
        assertThat(queries.claim(queued.get(1).claimId()).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTING);
        List<AuditEntry> audit = queries.audit(Long.toString(queued.get(0).outboxEventId()), null, AuditActions.OUTBOX_ABANDON, 0, 0);
        assertThat(audit).singleElement().satisfies(a -> {
            assertThat(a.actor()).isEqualTo("j.chen");
            assertThat(a.reason()).isEqualTo("claimant sent the wrong property id");
            assertThat(a.details()).contains("already paid");
        });
        // the claim can be submitted again under a new key
        SubmitResult again = new Workflow(db, Clock.systemUTC(), Deadlines.statutory())
                .submit(queued.get(0).claimId(), "j.chen", null);
        assertThat(again.idempotencyKey()).isNotEqualTo(queued.get(0).idempotencyKey());

        assertThatThrownBy(() -> abandon(List.of(999_999L), "j.chen", "x"))
                .isInstanceOf(NotFoundException.class).hasMessage("no outbox row with id 999999");
        assertThatThrownBy(() -> abandon(List.of(queued.get(1).outboxEventId()), "j.chen", " "))
                .isInstanceOf(ClaimDeskException.class).hasMessage("a reason is required for this action");
    }

    @Test
    void failedRowsAreGroupedBySignatureWithCountAndFirstAndLastSeen() {
        List<SubmitResult> queued = Outbox.submitted(db, 4);
        fail(queued.get(0).outboxEventId(), "422 invalid_claim: holder id HLD-1 not found", 1_000);
        fail(queued.get(1).outboxEventId(), "422 invalid_claim: holder id HLD-2 not found", 3_000);
        fail(queued.get(2).outboxEventId(), "422 invalid_claim: holder id HLD-3 not found", 2_000);
        fail(queued.get(3).outboxEventId(), "timeout: no reply within 15000 ms", 5_000);

        List<FailureGroup> groups = triage.groups(OutboxQuery.all());

        assertThat(groups).hasSize(2);
        assertThat(groups.get(0)).satisfies(g -> {
            assertThat(g.signature()).isEqualTo("422 invalid_claim: holder id # not found");
            assertThat(g.count()).isEqualTo(3);
            assertThat(g.firstSeen()).isEqualTo(Instant.ofEpochMilli(1_000));
            assertThat(g.lastSeen()).isEqualTo(Instant.ofEpochMilli(3_000));
            assertThat(g.sampleError()).isEqualTo("422 invalid_claim: holder id HLD-2 not found");
        });
        assertThat(groups.get(1).count()).isEqualTo(1);
    }
}
