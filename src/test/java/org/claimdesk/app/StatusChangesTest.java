package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.claimdesk.app.OutboxTriage.Action;
import org.claimdesk.delivery.DeliveryWorker;
import org.claimdesk.delivery.HttpStateAdapter;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.StatusChange;
import org.claimdesk.domain.TransitionRefusedException;
import org.claimdesk.domain.Transitions;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.DeliveryStore;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.testing.FaultyStateServer;
import org.claimdesk.testing.FaultyStateServer.Fault;
import org.claimdesk.testing.Outbox;
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
 * The transition table is the single authority on status changes: every path that moves a claim (the workflow,
 * delivery by a real worker, re-queue, reconcile, abandon) is driven on a real database, and then every
 * recorded change must be one the table allows, each claim's history must chain, and its status must be its
 * last history entry.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class StatusChangesTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    Database db;
    Workflow workflow;
    Queries queries;
    FaultyStateServer server;
    final Map<Long, ClaimStatus> createdAs = new LinkedHashMap<>();

    @BeforeEach
    void open() throws Exception {
        db = TestDatabase.open(engine, dir);
        workflow = new Workflow(db, Clock.systemUTC(), Deadlines.statutory());
        queries = new Queries(db, Clock.systemUTC());
        server = FaultyStateServer.start((key, n) -> Fault.NONE, Duration.ofSeconds(1));
    }

    @AfterEach
    void close() throws Exception {
        server.close();
        db.close();
    }

    private long claim() {
        long id = TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
        createdAs.put(id, ClaimStatus.IDENTITY_PENDING);
        return id;
    }

    private void advance(long claimId, ClaimStatus... path) {
        for (ClaimStatus to : path) {
            workflow.advance(claimId, to, "j.chen", null, "checked " + to, null);
        }
    }

    private OutboxTriage triage(HttpStateAdapter state) {
        return new OutboxTriage(db, Clock.systemUTC(), Deadlines.statutory(), state);
    }

    private void drain() {
        HttpStateAdapter adapter = Workers.http(server.baseUrl(), 2_000);
        try (adapter; DeliveryWorker worker = new DeliveryWorker(db, adapter, Workers.fast().withMaxAttempts(1),
                Clock.systemUTC(), Deadlines.statutory())) {
            worker.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> Outbox.count(db, DeliveryState.PENDING) == 0);
        }
    }

    private long outboxRow(SubmitResult submitted) {
        return submitted.outboxEventId();
    }

    @Test
    void everyPathWritesOnlyChangesTheTableAllowsAndEachStatusIsTheLastHistoryEntry() {
        // workflow: forward, back and forward again, withdrawal before submission
        List<Long> claims = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            long id = claim();
            advance(id, ClaimStatus.EVIDENCE_PENDING, ClaimStatus.READY_FOR_SUBMISSION);
            claims.add(id);
        }
        advance(claims.get(0), ClaimStatus.EVIDENCE_PENDING, ClaimStatus.IDENTITY_PENDING, ClaimStatus.EVIDENCE_PENDING,
                ClaimStatus.READY_FOR_SUBMISSION);
        long withdrawn = claim();
        advance(withdrawn, ClaimStatus.WITHDRAWN);

        // submit, then deliver with a real worker: some accepted, some refused for good, some accepted with the
        // reply lost, some refused while the state is unavailable
        Map<Long, SubmitResult> submitted = new LinkedHashMap<>();
        for (long id : claims) {
            submitted.put(id, workflow.submit(id, "s.patel", null));
        }
        Set<String> rejected = Set.of(submitted.get(claims.get(1)).idempotencyKey(),
                submitted.get(claims.get(2)).idempotencyKey());
        Set<String> replyLost = Set.of(submitted.get(claims.get(3)).idempotencyKey(),
                submitted.get(claims.get(4)).idempotencyKey());
        Set<String> unavailable = Set.of(submitted.get(claims.get(5)).idempotencyKey());
        server.plan((key, n) -> rejected.contains(key) ? Fault.REJECT_422
                : replyLost.contains(key) ? Fault.ACCEPTED_THEN_503
                : unavailable.contains(key) ? Fault.UNAVAILABLE_503 : Fault.NONE);
        drain();
        assertThat(Outbox.count(db, DeliveryState.FAILED)).isEqualTo(5);
        assertThat(queries.claim(claims.get(6)).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTED_TO_STATE);

        // abandon the refused ones: back to READY_FOR_SUBMISSION; one is submitted again and delivered
        OutboxTriage plain = triage(null);
        OutboxTriage.Result abandoned = plain.apply(plain.preview(Action.ABANDON, OutboxQuery.byIds(List.of(
                outboxRow(submitted.get(claims.get(1))), outboxRow(submitted.get(claims.get(2)))))),
                "j.chen", "holder id to be corrected", false, null);
        assertThat(abandoned.changed()).isEqualTo(2);
        workflow.submit(claims.get(1), "s.patel", null);
        advance(claims.get(2), ClaimStatus.EVIDENCE_PENDING);

        // reconcile the ones the state holds (completed with its case id), re-queue the unavailable one
        server.plan((key, n) -> Fault.NONE);
        try (HttpStateAdapter state = Workers.http(server.baseUrl(), 2_000)) {
            OutboxTriage reconciling = triage(state);
            OutboxTriage.Result result = reconciling.apply(reconciling.preview(Action.REQUEUE,
                    OutboxQuery.all().withState(DeliveryState.FAILED)), "supervisor.kim", "portal outage", true, null);
            assertThat(result.reconciled()).isEqualTo(2);
            assertThat(result.changed()).isEqualTo(1);
        }
        drain();
        for (long id : List.of(claims.get(1), claims.get(3), claims.get(4), claims.get(5))) {
            assertThat(queries.claim(id).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTED_TO_STATE);
        }

        // the state decides
        advance(claims.get(6), ClaimStatus.NEEDS_INFO, ClaimStatus.SUBMITTED_TO_STATE, ClaimStatus.APPROVED,
                ClaimStatus.PAID);
        advance(claims.get(7), ClaimStatus.REJECTED, ClaimStatus.EVIDENCE_PENDING);
        advance(claims.get(8), ClaimStatus.WITHDRAWN);

        // moves the table refuses change nothing
        long paid = claims.get(6);
        assertThatThrownBy(() -> advance(paid, ClaimStatus.SUBMITTED_TO_STATE))
                .isInstanceOf(TransitionRefusedException.class);
        long inFlight = claim();
        advance(inFlight, ClaimStatus.EVIDENCE_PENDING, ClaimStatus.READY_FOR_SUBMISSION);
        workflow.submit(inFlight, "s.patel", null);
        Claim submitting = queries.claim(inFlight).orElseThrow();
        assertThatThrownBy(() -> db.useTransaction(h -> new ClaimStore().changeStatus(h, submitting, ClaimStatus.WITHDRAWN,
                null, null, "j.chen", "claimant wrote", Instant.now())))
                .isInstanceOf(TransitionRefusedException.class)
                .hasMessageStartingWith("cannot move a claim from SUBMITTING to WITHDRAWN");
        assertThat(queries.claim(inFlight).orElseThrow()).isEqualTo(submitting);

        Set<List<ClaimStatus>> seen = new HashSet<>();
        Set<String> actors = new HashSet<>();
        for (Map.Entry<Long, ClaimStatus> created : createdAs.entrySet()) {
            Claim claim = queries.claim(created.getKey()).orElseThrow();
            List<StatusChange> history = queries.history(claim.claimId());
            ClaimStatus expectedFrom = created.getValue();
            for (StatusChange change : history) {
                assertThat(change.fromStatus()).as("claim %s history chains", claim.claimNumber()).isEqualTo(expectedFrom);
                assertThat(Transitions.isAllowed(change.fromStatus(), change.toStatus()))
                        .as("%s -> %s by %s", change.fromStatus(), change.toStatus(), change.actor()).isTrue();
                seen.add(List.of(change.fromStatus(), change.toStatus()));
                actors.add(change.actor());
                expectedFrom = change.toStatus();
            }
            assertThat(claim.status()).as("claim %s is its last history entry", claim.claimNumber()).isEqualTo(expectedFrom);
        }
        assertThat(seen).contains(List.of(ClaimStatus.SUBMITTING, ClaimStatus.SUBMITTED_TO_STATE),
                List.of(ClaimStatus.SUBMITTING, ClaimStatus.READY_FOR_SUBMISSION),
                List.of(ClaimStatus.READY_FOR_SUBMISSION, ClaimStatus.SUBMITTING),
                List.of(ClaimStatus.APPROVED, ClaimStatus.PAID));
        assertThat(actors).contains(DeliveryStore.ACTOR, "supervisor.kim", "j.chen", "s.patel");
    }

    @Test
    void theWorkersOneStatusChangeComesFromTheTable() {
        assertThat(Transitions.DELIVERED.from()).isEqualTo(ClaimStatus.SUBMITTING);
        assertThat(Transitions.DELIVERED.to()).isEqualTo(ClaimStatus.SUBMITTED_TO_STATE);
        assertThatThrownBy(() -> new Transitions.Change(ClaimStatus.SUBMITTING, ClaimStatus.WITHDRAWN))
                .isInstanceOf(TransitionRefusedException.class);
    }
}
