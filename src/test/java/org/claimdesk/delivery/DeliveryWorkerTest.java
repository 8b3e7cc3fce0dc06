package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.claimdesk.app.Queries;
import org.claimdesk.app.SubmitResult;
import org.claimdesk.delivery.WorkerSnapshot.RunState;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.Database;
import org.claimdesk.store.DeliveryStore;
import org.claimdesk.testing.FaultyStateServer;
import org.claimdesk.testing.FaultyStateServer.Fault;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.Sql;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Triggers;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.params.provider.EnumSource;

@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class DeliveryWorkerTest {
    @Parameter
    TestDatabase.Engine engine;

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    Database db;
    Queries queries;
    final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeEach
    void open() {
        db = TestDatabase.open(engine, dir);
        queries = new Queries(db, Clock.systemUTC());
    }

    @AfterEach
    void close() throws Exception {
        Collections.reverse(closeables);
        for (AutoCloseable c : closeables) {
            c.close();
        }
        db.close();
    }

    private DeliveryWorker worker(StateAdapter adapter, WorkerSettings settings) {
        DeliveryWorker worker = new DeliveryWorker(db, adapter, settings, Clock.systemUTC(), Deadlines.statutory());
        closeables.add(adapter);
        closeables.add(worker);
        return worker;
    }

    private FaultyStateServer server(FaultyStateServer.Plan plan) throws IOException {
        FaultyStateServer server = FaultyStateServer.start(plan, Duration.ofSeconds(2));
        closeables.add(server);
        return server;
    }

    private void awaitNoPending() {
        await().atMost(WAIT).until(() -> Outbox.count(db, DeliveryState.PENDING) == 0);
    }

    /** Starts {@code worker} and waits until nothing is pending; returns every snapshot it published meanwhile. */
    private List<WorkerSnapshot> drainedWatching(DeliveryWorker worker) {
        List<WorkerSnapshot> snapshots = new CopyOnWriteArrayList<>();
        worker.addListener(snapshots::add);
        worker.start();
        awaitNoPending();
        return snapshots;
    }

    /** Every attempt of the rows {@code queued}. */
    private List<DeliveryAttempt> attempts(List<SubmitResult> queued) {
        return queued.stream().flatMap(q -> queries.attempts(q.outboxEventId()).stream()).toList();
    }

    @Test
    void deliveredRowIsSentAndItsClaimSubmittedWithCaseIdDueDateHistoryAndAudit() {
        List<SubmitResult> queued = Outbox.submitted(db, 30);
        SimulatedStateAdapter sim = new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable()));
        DeliveryWorker worker = worker(sim, Workers.fast());

        worker.start();
        awaitNoPending();

        assertThat(Outbox.count(db, DeliveryState.SENT)).isEqualTo(30);
        LocalDate today = LocalDate.now(ZoneId.systemDefault());
        for (SubmitResult q : queued) {
            Claim claim = queries.claim(q.claimId()).orElseThrow();
            OutboxEvent row = queries.outboxEvent(q.outboxEventId()).orElseThrow();
            assertThat(claim.status()).isEqualTo(ClaimStatus.SUBMITTED_TO_STATE);
            assertThat(claim.stateCaseId()).isEqualTo(sim.state().caseIds().get(q.claimId())).isEqualTo(row.stateCaseId());
            assertThat(claim.decisionDueOn()).isEqualTo(today.plusDays(180));
            assertThat(row.leaseOwner()).isNull();
            assertThat(row.attempts()).isEqualTo(1);
            assertThat(queries.history(q.claimId())).last().satisfies(h -> {
                assertThat(h.toStatus()).isEqualTo(ClaimStatus.SUBMITTED_TO_STATE);
                assertThat(h.actor()).isEqualTo("delivery-worker");
            });
            assertThat(queries.history(q.claimId())).last().satisfies(h ->
                    assertThat(h.reason()).isEqualTo("state case id " + claim.stateCaseId()));
            assertThat(queries.audit(Long.toString(q.claimId()), DeliveryStore.ACTOR, null, 0, 0))
                    .as("the audit trail is for staff actions").isEmpty();
            assertThat(queries.attempts(q.outboxEventId())).singleElement().satisfies(a -> {
                assertThat(a.attemptNo()).isEqualTo(1);
                assertThat(a.outcome()).isEqualTo(AttemptOutcome.DELIVERED);
                assertThat(a.httpStatus()).isEqualTo(201);
                assertThat(a.workerId()).isEqualTo(worker.workerId());
            });
        }
        await().atMost(WAIT).untilAsserted(() -> {
            WorkerSnapshot s = worker.snapshot();
            assertThat(s.sentThisRun()).isEqualTo(30);
            assertThat(s.attemptsThisRun()).isEqualTo(30);
            assertThat(s.sentTotal()).isEqualTo(30);
            assertThat(s.pending()).isZero();
            assertThat(s.endpoint()).isEqualTo("simulated state");
        });
    }

    @Test
    void retryAfterIsRespectedAndTheRowIsDeliveredOnTheNextAttempt() throws IOException {
        SubmitResult q = Outbox.submitted(db, 1).get(0);
        FaultyStateServer server = server((key, n) -> n == 1 ? Fault.RATE_LIMITED_429 : Fault.NONE);
        server.retryAfterSeconds(1);
        DeliveryWorker worker = worker(Workers.http(server.baseUrl(), 2_000), Workers.fast());

        worker.start();
        awaitNoPending();

        List<DeliveryAttempt> attempts = queries.attempts(q.outboxEventId());
        assertThat(attempts).extracting(DeliveryAttempt::outcome)
                .containsExactly(AttemptOutcome.TRANSIENT, AttemptOutcome.DELIVERED);
        assertThat(attempts.get(0).httpStatus()).isEqualTo(429);
        assertThat(attempts.get(0).detail()).contains("Retry-After 1 s");
        long gap = attempts.get(1).startedAt().toEpochMilli()
                - (attempts.get(0).startedAt().toEpochMilli() + attempts.get(0).durationMs());
        assertThat(gap).as("wait after a 429 with Retry-After 1 (backoff cap is only 50 ms)").isGreaterThanOrEqualTo(950);
        assertThat(queries.claim(q.claimId()).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTED_TO_STATE);
        assertThat(server.postsFor(q.idempotencyKey())).isEqualTo(2);
    }

    @Test
    void aRateLimitHoldsEverySendUntilTheStatesRetryAfterAndFailsNoRow() throws IOException {
        List<SubmitResult> queued = Outbox.submitted(db, 24);
        AtomicBoolean throttled = new AtomicBoolean();
        FaultyStateServer server = server((key, n) ->
                throttled.compareAndSet(false, true) ? Fault.RATE_LIMITED_429 : Fault.NONE);
        server.retryAfterSeconds(2);
        server.replyDelayMillis(30);
        // one attempt allowed: a 429 counted as the row's failure would fail it for good at once
        DeliveryWorker worker = worker(Workers.http(server.baseUrl(), 2_000), Workers.fast().withMaxAttempts(1));
        List<WorkerSnapshot> snapshots = drainedWatching(worker);

        assertThat(Outbox.count(db, DeliveryState.SENT)).isEqualTo(24);
        List<DeliveryAttempt> all = attempts(queued);
        List<DeliveryAttempt> limitedOnes = all.stream().filter(a -> Integer.valueOf(429).equals(a.httpStatus())).toList();
        assertThat(limitedOnes).hasSize(1);
        DeliveryAttempt limited = limitedOnes.get(0);
        assertThat(limited.outcome()).isEqualTo(AttemptOutcome.TRANSIENT);
        Instant answered = limited.startedAt().plusMillis(limited.durationMs());
        // calls already under way when the answer came finish; none starts in the two seconds the state asked for
        assertThat(all).filteredOn(a -> a.startedAt().isAfter(answered.plusMillis(500))).isNotEmpty()
                .allSatisfy(a -> assertThat(a.startedAt()).isAfterOrEqualTo(answered.plusMillis(1_950)));
        assertThat(snapshots).anySatisfy(s -> {
            assertThat(s.runState()).isEqualTo(RunState.RUNNING);
            assertThat(s.hold()).isNotNull();
            assertThat(s.hold().reason()).startsWith("429 rate_limited").contains("Retry-After 2 s");
            assertThat(s.hold().until()).isBetween(answered.plusMillis(1_900), answered.plusMillis(3_000));
        });
        assertThat(worker.snapshot().hold()).as("over once the wait is").isNull();
        assertThat(worker.snapshot().failedThisRun()).isZero();
    }

    @Test
    void aBurstOf429sHoldsOnceAndTheFirstSendAfterTheHoldGoesAlone() throws IOException {
        List<SubmitResult> queued = Outbox.submitted(db, 8);
        FaultyStateServer server = server((key, n) -> n == 1 ? Fault.RATE_LIMITED_429 : Fault.NONE);
        server.retryAfterSeconds(0);
        server.answerTogether(8); // all eight under way before the first answer
        // base 500 ms (a hold lasts a second at least): eight 429s each taken as one more in a row would hold for
        // 500 ms * 2^7, capped at a minute
        WorkerSettings settings = new WorkerSettings(Duration.ofMillis(50), 8, 8, Duration.ofMillis(500),
                Duration.ofMinutes(1), Duration.ofSeconds(10));
        DeliveryWorker worker = worker(Workers.http(server.baseUrl(), 2_000), settings);
        List<WorkerSnapshot> snapshots = drainedWatching(worker);

        assertThat(Outbox.count(db, DeliveryState.SENT)).isEqualTo(8);
        List<DeliveryAttempt> all = attempts(queued);
        assertThat(all).filteredOn(a -> a.outcome() == AttemptOutcome.TRANSIENT).hasSize(8)
                .allSatisfy(a -> assertThat(a.httpStatus()).isEqualTo(429));
        Instant lastAnswer = all.stream().filter(a -> a.outcome() == AttemptOutcome.TRANSIENT)
                .map(a -> a.startedAt().plusMillis(a.durationMs())).max(Instant::compareTo).orElseThrow();
        assertThat(snapshots).filteredOn(s -> s.hold() != null).isNotEmpty()
                .allSatisfy(s -> assertThat(s.hold().until()).as("one hold of the first step, a second")
                        .isBefore(lastAnswer.plusMillis(1_500)));
        List<DeliveryAttempt> delivered = all.stream().filter(a -> a.outcome() == AttemptOutcome.DELIVERED)
                .sorted(java.util.Comparator.comparing(DeliveryAttempt::startedAt)).toList();
        DeliveryAttempt alone = delivered.get(0);
        assertThat(delivered.get(1).startedAt()).as("the next send waits for the state's answer to the first")
                .isAfterOrEqualTo(alone.startedAt().plusMillis(alone.durationMs()));
    }

    @Test
    void transientFailuresUntilTheLimitFailTheRowAndLeaveTheClaimSubmitting() throws IOException {
        SubmitResult q = Outbox.submitted(db, 1).get(0);
        FaultyStateServer server = server((key, n) -> Fault.UNAVAILABLE_503);
        DeliveryWorker worker = worker(Workers.http(server.baseUrl(), 2_000), Workers.fast().withMaxAttempts(3));

        worker.start();
        awaitNoPending();

        OutboxEvent row = queries.outboxEvent(q.outboxEventId()).orElseThrow();
        assertThat(row.deliveryState()).isEqualTo(DeliveryState.FAILED);
        assertThat(row.attempts()).isEqualTo(3);
        assertThat(row.lastError()).startsWith("503 unavailable: state portal busy").endsWith("(gave up after 3 attempts)");
        assertThat(queries.attempts(q.outboxEventId())).extracting(DeliveryAttempt::attemptNo).containsExactly(1, 2, 3);
        assertThat(queries.claim(q.claimId()).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTING);
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(worker.snapshot().retriedThisRun()).isEqualTo(2);
            assertThat(worker.snapshot().failedThisRun()).isEqualTo(1);
        });
    }

    @Test
    void permanentRejectionFailsTheRowAtOnceWithTheStatesMessage() throws IOException {
        SubmitResult q = Outbox.submitted(db, 1).get(0);
        FaultyStateServer server = server((key, n) -> Fault.REJECT_422);
        DeliveryWorker worker = worker(Workers.http(server.baseUrl(), 2_000), Workers.fast());

        worker.start();
        awaitNoPending();

        OutboxEvent row = queries.outboxEvent(q.outboxEventId()).orElseThrow();
        assertThat(row.deliveryState()).isEqualTo(DeliveryState.FAILED);
        assertThat(row.attempts()).isEqualTo(1);
        assertThat(row.lastError()).isEqualTo("422 invalid_claim: holder id not found in the holder's report");
        assertThat(queries.attempts(q.outboxEventId())).singleElement().satisfies(a -> {
            assertThat(a.outcome()).isEqualTo(AttemptOutcome.PERMANENT);
            assertThat(a.httpStatus()).isEqualTo(422);
        });
        assertThat(queries.claim(q.claimId()).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTING);
    }

    @Test
    void unauthorizedPausesTheWorkerWithoutBurningAttemptsAndAProbeResumesIt() throws IOException {
        List<SubmitResult> queued = Outbox.submitted(db, 20);
        FaultyStateServer server = server((key, n) -> Fault.UNAUTHORIZED_401);
        server.lookupFault(Fault.UNAUTHORIZED_401);
        DeliveryWorker worker = worker(Workers.http(server.baseUrl(), 2_000), Workers.fast());

        worker.start();
        await().atMost(WAIT).until(() -> worker.snapshot().runState() == RunState.PAUSED);
        WorkerSnapshot paused = worker.snapshot();
        assertThat(paused.pausedBySystem()).isTrue();
        assertThat(paused.pauseReason()).startsWith("401 unauthorized: token expired").contains("CLAIMDESK_STATE_TOKEN");
        await().atMost(WAIT).until(() -> !worker.busy());
        int postsWhilePaused = server.totalPosts();
        assertThat(postsWhilePaused).as("at most the rows in flight when the 401 came").isLessThanOrEqualTo(8);
        assertThat(Outbox.count(db, DeliveryState.PENDING)).isEqualTo(20);
        for (SubmitResult q : queued) {
            assertThat(Outbox.retryCount(db, q.outboxEventId())).isZero();
        }

        server.plan((key, n) -> Fault.NONE);
        server.lookupFault(Fault.NONE);
        awaitNoPending();

        assertThat(Outbox.count(db, DeliveryState.SENT)).isEqualTo(20);
        assertThat(worker.snapshot().runState()).isEqualTo(RunState.RUNNING);
        assertThat(worker.snapshot().pauseReason()).isNull();
    }

    /**
     * An amended claim, rejected after a first filing and submitted again, keeps no date of that filing: its delivery
     * is a new filing, dated from its acknowledgment.
     */
    @Test
    void aResubmittedAmendedClaimGetsTheDecisionDateOfItsNewFiling() {
        List<SubmitResult> queued = Outbox.submitted(db, 1);
        db.useTransaction(h -> h.execute("UPDATE claim SET decision_due_on = '2026-04-05' WHERE claim_id = ?",
                queued.get(0).claimId()));
        DeliveryWorker worker = worker(new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable())),
                Workers.fast());

        worker.start();
        awaitNoPending();

        Claim claim = queries.claim(queued.get(0).claimId()).orElseThrow();
        assertThat(claim.status()).isEqualTo(ClaimStatus.SUBMITTED_TO_STATE);
        assertThat(claim.decisionDueOn()).isEqualTo(Deadlines.statutory().dueDate(claim.jurisdiction(),
                LocalDate.now(ZoneId.systemDefault())));
    }

    /** A pause by staff holds: calls in flight refused (401) neither replace it nor let a probe resume the worker. */
    @Test
    void aStaffPauseHoldsWhenACallInFlightIsRefused() throws IOException {
        Outbox.submitted(db, 8);
        FaultyStateServer server = server((key, n) -> Fault.UNAUTHORIZED_401);
        server.replyDelayMillis(400);
        DeliveryWorker worker = worker(Workers.http(server.baseUrl(), 2_000), Workers.fast());

        worker.start();
        await().atMost(WAIT).until(() -> server.totalPosts() > 0);
        worker.pause("the state asked us to hold submissions until Monday");
        await().atMost(WAIT).until(() -> !worker.busy());
        server.plan((key, n) -> Fault.NONE);
        server.replyDelayMillis(0);
        int posts = server.totalPosts();

        await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(5)).until(() -> {
            WorkerSnapshot s = worker.snapshot();
            return s.runState() == RunState.PAUSED && !s.pausedBySystem()
                    && "the state asked us to hold submissions until Monday".equals(s.pauseReason());
        });
        assertThat(server.totalPosts()).isEqualTo(posts);
        assertThat(Outbox.count(db, DeliveryState.SENT)).isZero();

        worker.resume();
        awaitNoPending();
        assertThat(Outbox.count(db, DeliveryState.SENT)).isEqualTo(8);
    }

    /**
     * A token that may read but not submit (403 to every submission, lookups answered): the worker pauses and stays
     * paused, without a probe resuming it into the same refusals, until staff resume it; no attempt counts.
     */
    @Test
    void aSubmissionRefusedAsForbiddenPausesTheWorkerUntilStaffResumeIt() throws IOException {
        List<SubmitResult> queued = Outbox.submitted(db, 10);
        FaultyStateServer server = server((key, n) -> Fault.FORBIDDEN_403);
        DeliveryWorker worker = worker(Workers.http(server.baseUrl(), 2_000), Workers.fast());

        worker.start();
        await().atMost(WAIT).until(() -> worker.snapshot().runState() == RunState.PAUSED);
        assertThat(worker.snapshot().pausedBySystem()).isTrue();
        assertThat(worker.snapshot().pauseReason()).startsWith("403 forbidden: this token may not submit")
                .endsWith("resume the worker once that is mended");
        await().atMost(WAIT).until(() -> !worker.busy());
        int posts = server.totalPosts();
        assertThat(posts).as("at most the rows in flight when the 403 came").isLessThanOrEqualTo(4);

        await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(5))
                .until(() -> worker.snapshot().runState() == RunState.PAUSED && server.totalPosts() == posts);
        assertThat(server.lookups()).as("no probe: a lookup answered shows nothing of a 403 to a submission").isZero();

        server.plan((key, n) -> Fault.NONE);
        worker.resume();
        awaitNoPending();
        assertThat(Outbox.count(db, DeliveryState.SENT)).isEqualTo(10);
        for (SubmitResult q : queued) {
            assertThat(Outbox.retryCount(db, q.outboxEventId())).isZero();
        }
    }

    /**
     * A row whose key an HTTP header cannot carry (pasted with an en dash) fails before any call, its attempt kept;
     * sent, the client refused the header, and the row came back at once, for ever.
     */
    @Test
    void aKeyAHeaderCannotCarryFailsItsRowWithoutACallAndTheOthersGoOn() throws IOException {
        List<SubmitResult> queued = Outbox.submitted(db, 3);
        long bad = queued.get(1).outboxEventId();
        db.useTransaction(h -> h.execute("UPDATE outbox_event SET idempotency_key = ? WHERE outbox_event_id = ?",
                "sub\u20132026-17", bad));
        FaultyStateServer server = server((key, n) -> Fault.NONE);
        DeliveryWorker worker = worker(Workers.http(server.baseUrl(), 2_000), Workers.fast());

        worker.start();
        awaitNoPending();

        assertThat(queries.outboxEvent(bad).orElseThrow()).satisfies(r -> {
            assertThat(r.deliveryState()).isEqualTo(DeliveryState.FAILED);
            assertThat(r.lastError()).startsWith("the idempotency key may hold only printable ASCII")
                    .contains("submit the claim again");
        });
        assertThat(queries.attempts(bad)).singleElement().satisfies(a -> {
            assertThat(a.outcome()).isEqualTo(AttemptOutcome.PERMANENT);
            assertThat(a.httpStatus()).isNull();
        });
        assertThat(server.totalPosts()).isEqualTo(2);
        assertThat(Outbox.count(db, DeliveryState.SENT)).isEqualTo(2);
    }

    /**
     * A delivery failing inside ClaimDesk, with an exception or an error (a full heap), counts as a transient attempt:
     * backoff, then failed at the limit.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aFailureInsideTheWorkerIsACountedAttemptNotAnEndlessLoop(boolean error) {
        List<SubmitResult> queued = Outbox.submitted(db, 1);
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        StateAdapter broken = new StateAdapter() {
            @Override
            public String endpoint() {
                return "test";
            }

            @Override
            public boolean simulated() {
                return true;
            }

            @Override
            public StateAnswer submit(String key, org.claimdesk.domain.SubmissionPayload payload, String json) {
                calls.incrementAndGet();
                if (error) {
                    throw new OutOfMemoryError("adapter fault");
                }
                throw new IllegalStateException("adapter fault");
            }

            @Override
            public StateAnswer lookup(String key) {
                throw new IllegalStateException("adapter fault");
            }

            @Override
            public Duration maxCallDuration() {
                return Duration.ofSeconds(1);
            }

            @Override
            public void close() {
            }
        };
        DeliveryWorker worker = worker(broken, Workers.fast());

        worker.start();
        long id = queued.get(0).outboxEventId();
        await().atMost(WAIT).until(() -> queries.outboxEvent(id).orElseThrow().deliveryState() == DeliveryState.FAILED);

        OutboxEvent row = queries.outboxEvent(id).orElseThrow();
        assertThat(row.lastError()).startsWith("internal error delivering row " + id + ": java.lang."
                + (error ? "OutOfMemoryError" : "IllegalStateException") + ": adapter fault").endsWith("(gave up after 8 attempts)");
        assertThat(queries.attempts(id)).hasSize(8)
                .allSatisfy(a -> assertThat(a.outcome()).isEqualTo(AttemptOutcome.TRANSIENT));
        assertThat(calls.get()).isEqualTo(8);
        assertThat(queries.claim(queued.get(0).claimId()).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTING);
    }

    @Test
    void anUnreachableStatePausesTheWorkerAndResumeOnCommandDeliversOnceItIsBack() throws IOException {
        List<SubmitResult> queued = Outbox.submitted(db, 10);
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        HttpStateAdapter adapter = Workers.http(java.net.URI.create("http://127.0.0.1:" + port), 1_000);
        WorkerSettings settings = Workers.fast().withInterval(Duration.ofSeconds(30));
        DeliveryWorker worker = worker(adapter, settings);

        worker.start();
        await().atMost(WAIT).until(() -> worker.snapshot().runState() == RunState.PAUSED);
        assertThat(worker.snapshot().pausedBySystem()).isTrue();
        assertThat(worker.snapshot().pauseReason()).contains("cannot connect to the state");
        await().atMost(WAIT).until(() -> !worker.busy());
        for (SubmitResult q : queued) {
            assertThat(Outbox.retryCount(db, q.outboxEventId())).isZero();
        }
        assertThat(Outbox.count(db, DeliveryState.PENDING)).isEqualTo(10);

        FaultyStateServer back = FaultyStateServer.onPort(port, (key, n) -> Fault.NONE, Duration.ofSeconds(1));
        closeables.add(back);
        worker.resume();
        awaitNoPending();
        assertThat(Outbox.count(db, DeliveryState.SENT)).isEqualTo(10);
    }

    @Test
    void malformedPayloadAndUnknownEventTypeFailThoseRowsAndTheOthersGoOn() {
        List<SubmitResult> queued = Outbox.submitted(db, 5);
        Outbox.setPayload(db, queued.get(1).outboxEventId(), OutboxEvent.SUBMISSION_REQUESTED, "{not json");
        Outbox.setPayload(db, queued.get(3).outboxEventId(), "claim_archived", "{}");
        DeliveryWorker worker = worker(
                new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable())), Workers.fast());

        worker.start();
        awaitNoPending();

        assertThat(queries.outboxEvent(queued.get(1).outboxEventId()).orElseThrow()).satisfies(r -> {
            assertThat(r.deliveryState()).isEqualTo(DeliveryState.FAILED);
            assertThat(r.lastError()).startsWith("malformed payload: the payload is not a submission in JSON");
        });
        assertThat(queries.outboxEvent(queued.get(3).outboxEventId()).orElseThrow()).satisfies(r -> {
            assertThat(r.deliveryState()).isEqualTo(DeliveryState.FAILED);
            assertThat(r.lastError()).isEqualTo("unknown event type 'claim_archived': this worker delivers only "
                    + OutboxEvent.SUBMISSION_REQUESTED);
        });
        assertThat(queries.attempts(queued.get(3).outboxEventId())).singleElement()
                .satisfies(a -> assertThat(a.outcome()).isEqualTo(AttemptOutcome.PERMANENT));
        assertThat(Outbox.count(db, DeliveryState.SENT)).isEqualTo(3);
    }

    @Test
    void aDuplicateOfAnAcceptedClaimAndAnAlreadySubmittedClaimCountAsDelivered() {
        List<SubmitResult> queued = Outbox.submitted(db, 2);
        SimulatedState state = new SimulatedState(SimulatedState.Config.reliable());
        String earlierCase = state.submit("earlier-key", null,
                queries.outboxEvent(queued.get(0).outboxEventId()).orElseThrow().payload()).caseId();
        db.useTransaction(h -> h.createUpdate("""
                UPDATE claim SET status = 'SUBMITTED_TO_STATE', state_case_id = 'CA-2026-777777', version = version + 1
                WHERE claim_id = :id""").bind("id", queued.get(1).claimId()).execute());
        DeliveryWorker worker = worker(new SimulatedStateAdapter(state), Workers.fast());

        worker.start();
        awaitNoPending();

        OutboxEvent duplicate = queries.outboxEvent(queued.get(0).outboxEventId()).orElseThrow();
        assertThat(duplicate.deliveryState()).isEqualTo(DeliveryState.SENT);
        assertThat(duplicate.stateCaseId()).isEqualTo(earlierCase);
        assertThat(queries.claim(queued.get(0).claimId()).orElseThrow().stateCaseId()).isEqualTo(earlierCase);
        assertThat(queries.attempts(duplicate.outboxEventId())).singleElement()
                .satisfies(a -> assertThat(a.httpStatus()).isEqualTo(409));
        assertThat(queries.history(queued.get(0).claimId())).last().satisfies(h -> assertThat(h.reason()).isEqualTo(
                "state case id " + earlierCase + ": the state already held this claim under another key (409"
                        + " duplicate_claim), with the data sent under that key, which may differ from this"
                        + " submission's"));

        assertThat(queries.outboxEvent(queued.get(1).outboxEventId()).orElseThrow().deliveryState())
                .isEqualTo(DeliveryState.SENT);
        Claim already = queries.claim(queued.get(1).claimId()).orElseThrow();
        assertThat(already.stateCaseId()).as("an already submitted claim is left as it is").isEqualTo("CA-2026-777777");
        assertThat(already.version()).isEqualTo(2);
    }

    @Test
    void anExpiredLeaseIsTakenOverAndALiveOneIsLeftAlone() {
        List<SubmitResult> queued = Outbox.submitted(db, 2);
        long past = System.currentTimeMillis() - 1_000;
        long future = System.currentTimeMillis() + 600_000;
        db.useTransaction(h -> {
            h.createUpdate("UPDATE outbox_event SET lease_owner = 'crashed', lease_expires_at = :t WHERE outbox_event_id = :id")
                    .bind("t", past).bind("id", queued.get(0).outboxEventId()).execute();
            h.createUpdate("UPDATE outbox_event SET lease_owner = 'alive', lease_expires_at = :t WHERE outbox_event_id = :id")
                    .bind("t", future).bind("id", queued.get(1).outboxEventId()).execute();
        });
        DeliveryWorker worker = worker(
                new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable())), Workers.fast());

        worker.start();
        await().atMost(WAIT).until(() -> Outbox.count(db, DeliveryState.SENT) == 1);
        worker.close();

        assertThat(queries.outboxEvent(queued.get(0).outboxEventId()).orElseThrow().deliveryState())
                .isEqualTo(DeliveryState.SENT);
        OutboxEvent leased = queries.outboxEvent(queued.get(1).outboxEventId()).orElseThrow();
        assertThat(leased.deliveryState()).isEqualTo(DeliveryState.PENDING);
        assertThat(leased.leaseOwner()).isEqualTo("alive");
        assertThat(queries.attempts(leased.outboxEventId())).isEmpty();
    }

    @Test
    void snapshotsReachListenersAtMostEveryHundredMillisecondsAndShowProgress() {
        Outbox.submitted(db, 60);
        SimulatedState state = new SimulatedState(SimulatedState.Config.reliable().withLatency(Duration.ofMillis(20)));
        DeliveryWorker worker = worker(new SimulatedStateAdapter(state), Workers.fast().withConcurrency(2));
        List<Long> arrivals = Collections.synchronizedList(new ArrayList<>());
        List<WorkerSnapshot> seen = Collections.synchronizedList(new ArrayList<>());
        worker.addListener(s -> {
            arrivals.add(System.nanoTime());
            seen.add(s);
        });

        worker.start();
        awaitNoPending();
        await().atMost(WAIT).until(() -> !seen.isEmpty() && seen.get(seen.size() - 1).sentThisRun() == 60);

        List<Long> times = new ArrayList<>(arrivals);
        for (int i = 1; i < times.size(); i++) {
            assertThat((times.get(i) - times.get(i - 1)) / 1_000_000.0).isGreaterThanOrEqualTo(99.0);
        }
        assertThat(seen).anySatisfy(s -> {
            assertThat(s.drainTotal()).isPositive();
            assertThat(s.drainDone()).isBetween(1L, 59L);
            assertThat(s.inFlight()).isBetween(1, 2);
        });
        assertThat(seen).anySatisfy(s -> assertThat(s.eventsPerSecond()).isPositive());
    }

    @Test
    void staffPauseStopsTakingRowsResumeAndDrainNowCarryOnAndSettingsApplyWhileRunning() {
        Outbox.submitted(db, 30);
        SimulatedState state = new SimulatedState(SimulatedState.Config.reliable().withLatency(Duration.ofMillis(30)));
        WorkerSettings slowTicks = Workers.fast().withConcurrency(1).withInterval(Duration.ofMinutes(10));
        DeliveryWorker worker = worker(new SimulatedStateAdapter(state), slowTicks);

        worker.start();
        await().atMost(WAIT).until(() -> Outbox.count(db, DeliveryState.SENT) >= 3);
        worker.pause("month-end reconciliation with the state");
        assertThat(worker.snapshot().runState()).isEqualTo(RunState.PAUSED);
        assertThat(worker.snapshot().pauseReason()).isEqualTo("month-end reconciliation with the state");
        assertThat(worker.snapshot().pausedBySystem()).isFalse();
        await().atMost(WAIT).until(() -> !worker.busy());
        long sentWhilePaused = Outbox.count(db, DeliveryState.SENT);
        assertThat(sentWhilePaused).isLessThan(30);
        worker.drainNow();
        await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> Outbox.count(db, DeliveryState.SENT) == sentWhilePaused);

        worker.updateSettings(slowTicks.withConcurrency(6));
        assertThat(worker.settings().concurrency()).isEqualTo(6);
        worker.resume();
        awaitNoPending();
        assertThat(worker.snapshot().runState()).isEqualTo(RunState.RUNNING);
        assertThat(Outbox.count(db, DeliveryState.SENT)).isEqualTo(30);

        // with ticks ten minutes apart, only drainNow picks up a newly queued row
        SubmitResult late = Outbox.submitted(db, 1).get(0);
        worker.drainNow();
        await().atMost(WAIT).until(() -> queries.outboxEvent(late.outboxEventId()).orElseThrow().deliveryState()
                == DeliveryState.SENT);
    }

    @Test
    void theWorkersThreadsRunAtTheLowestPrioritySoTheConsoleGoesFirst() {
        Outbox.submitted(db, 20);
        DeliveryWorker worker = worker(new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable()
                .withLatency(Duration.ofMillis(50)))), Workers.fast().withConcurrency(4));
        worker.start();
        await().atMost(WAIT).until(() -> Outbox.count(db, DeliveryState.SENT) >= 4);
        List<Thread> threads = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("claimdesk-delivery")).toList();
        worker.close();

        assertThat(threads).extracting(t -> t.getName().replaceAll("-\\d+$", ""))
                .contains("claimdesk-delivery-sender", "claimdesk-delivery-commit", "claimdesk-delivery-control",
                        "claimdesk-delivery-loader", "claimdesk-delivery-publisher");
        if (engine == TestDatabase.Engine.SQLITE) {
            // a file's write-ahead log is checkpointed on a thread of its own
            assertThat(threads).extracting(Thread::getName).anyMatch(n -> n.startsWith("claimdesk-delivery-checkpoint"));
        }
        assertThat(threads).allSatisfy(t -> assertThat(t.getPriority()).as(t.getName()).isEqualTo(Thread.MIN_PRIORITY));
    }

    @Test
    void aLeasedRowThatIsNoLongerTheWorkersWhenReadIsGivenBackAndTheRestGoOn() {
        List<SubmitResult> queued = Outbox.submitted(db, 12);
        long stolen = queued.get(5).outboxEventId();
        // as soon as this worker leases the row, another owner holds it: the loader finds it gone
        Triggers.after(db, "take_over", "outbox_event", "UPDATE OF lease_owner",
                "NEW.outbox_event_id = %d AND NEW.lease_owner IS NOT NULL AND NEW.lease_owner <> 'worker-b'"
                        .formatted(stolen),
                "UPDATE outbox_event SET lease_owner = 'worker-b', lease_expires_at = NEW.lease_expires_at + 3600000"
                        + " WHERE outbox_event_id = NEW.outbox_event_id");
        SimulatedState state = new SimulatedState(SimulatedState.Config.reliable());
        DeliveryWorker worker = worker(new SimulatedStateAdapter(state), Workers.fast());

        worker.start();

        // the row left unread still counted as outstanding until its release went through the committer
        await().atMost(WAIT).until(() -> Outbox.count(db, DeliveryState.SENT) == 11 && !worker.busy());
        assertThat(Sql.scalar(db, "SELECT delivery_state || ' ' || lease_owner FROM outbox_event WHERE outbox_event_id = "
                + stolen, String.class)).isEqualTo("pending worker-b");
        assertThat(Sql.scalar(db, "SELECT count(*) FROM delivery_attempt WHERE outbox_event_id = " + stolen,
                Long.class)).isZero();
        assertThat(state.postsFor(queued.get(5).idempotencyKey())).isZero();
    }

    @Test
    void aWorkerNotStartedYetCountsTheRowsWaitingForItWhenAskedAndSendsNothing() {
        List<SubmitResult> queued = Outbox.submitted(db, 7);
        db.useTransaction(h -> h.execute("UPDATE outbox_event SET delivery_state = 'failed', last_error = 'x'"
                + " WHERE outbox_event_id IN (?, ?)", queued.get(0).outboxEventId(), queued.get(1).outboxEventId()));
        SimulatedState state = new SimulatedState(SimulatedState.Config.reliable());
        DeliveryWorker worker = worker(new SimulatedStateAdapter(state), Workers.fast());
        List<WorkerSnapshot> seen = new CopyOnWriteArrayList<>();
        worker.addListener(seen::add);
        assertThat(worker.snapshot().pending()).as("a worker counts only while it runs, or when asked").isZero();

        worker.refreshCounts();

        await().atMost(WAIT).until(() -> seen.stream().anyMatch(s -> s.pending() == 5 && s.failedTotal() == 2));
        WorkerSnapshot snapshot = worker.snapshot();
        assertThat(snapshot.runState()).isEqualTo(RunState.STOPPED);
        assertThat(snapshot.due()).isEqualTo(5);
        assertThat(snapshot.sentTotal()).isZero();
        assertThat(state.posts()).isEmpty();
        assertThat(Outbox.count(db, DeliveryState.PENDING)).isEqualTo(5);
    }

    @Test
    void closeFinishesInFlightWorkReleasesLeasesAndLeavesNoThreadBehind() {
        Outbox.submitted(db, 40);
        SimulatedState state = new SimulatedState(SimulatedState.Config.reliable().withLatency(Duration.ofMillis(100)));
        DeliveryWorker worker = worker(new SimulatedStateAdapter(state), Workers.fast().withConcurrency(4));

        worker.start();
        await().atMost(WAIT).until(() -> Outbox.count(db, DeliveryState.SENT) >= 4);
        worker.close();

        long leased = db.read(h -> h.createQuery("SELECT count(*) FROM outbox_event WHERE lease_owner IS NOT NULL")
                .mapTo(Long.class).one());
        assertThat(leased).isZero();
        long sent = Outbox.count(db, DeliveryState.SENT);
        assertThat(state.acceptances().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo((int) sent);
        assertThat(worker.snapshot().runState()).isEqualTo(RunState.STOPPED);
        await().atMost(WAIT).until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.isAlive() && t.getName().startsWith("claimdesk-delivery")));
    }
}
