package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.claimdesk.delivery.Drain;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.delivery.StateAdapter;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.TestClaims;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A claim the state rejected, amended and submitted again, is a new filing: its submission names the rejected case,
 * the state judges it anew, and the claim reads as submitted under the new case, never under the one rejected.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class AmendedClaimTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    private static final WorkerSettings PACE = WorkerSettings.defaults().withInterval(Duration.ofMillis(20));
    private final Clock clock = Clock.systemUTC();
    private Database db;
    private StateAdapter adapter;
    private Workflow workflow;
    private Queries queries;

    @BeforeEach
    void open() {
        db = Database.open(TestDatabase.location(engine, dir, "amended"));
        adapter = new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable()));
        workflow = new Workflow(db, clock, Deadlines.statutory());
        queries = new Queries(db, clock);
    }

    @AfterEach
    void close() throws Exception {
        adapter.close();
        db.close();
    }

    /** A claim delivered, then rejected by the state, amended and queued again. */
    private record Amended(long claimId, String rejectedCase, OutboxEvent row) {
    }

    private Amended rejectedAndQueuedAgain() {
        long id = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        workflow.submit(id, "supervisor.kim", null);
        drain();
        String rejectedCase = queries.claim(id).orElseThrow().stateCaseId();
        assertThat(rejectedCase).isNotNull();
        assertThat(Json.readObject(queries.outbox(OutboxQuery.all()).get(0).payload()))
                .as("a first filing names no case").doesNotContainKey("amends");
        workflow.advance(id, ClaimStatus.REJECTED, "j.chen", null, "R-12: no proof of ownership", null);
        workflow.advance(id, ClaimStatus.EVIDENCE_PENDING, "j.chen", null, "deed found; amending", null);
        workflow.advance(id, ClaimStatus.READY_FOR_SUBMISSION, "j.chen", null, null, null);
        long rowId = workflow.submit(id, "supervisor.kim", null).outboxEventId();
        return new Amended(id, rejectedCase, row(rowId));
    }

    private OutboxEvent row(long rowId) {
        return queries.outbox(OutboxQuery.all()).stream().filter(e -> e.outboxEventId() == rowId).findFirst()
                .orElseThrow();
    }

    @Test
    void anAmendedClaimIsSubmittedAsANewFilingAndGetsANewCase() {
        Amended amended = rejectedAndQueuedAgain();
        assertThat(Json.readObject(amended.row().payload())).containsEntry("amends", amended.rejectedCase());
        drain();

        Claim claim = queries.claim(amended.claimId()).orElseThrow();
        assertThat(claim.status()).isEqualTo(ClaimStatus.SUBMITTED_TO_STATE);
        assertThat(claim.stateCaseId()).as("judged anew under a case of its own").isNotNull()
                .isNotEqualTo(amended.rejectedCase());
    }

    /**
     * A row queued before submissions named the case they amend (no {@code amends} in its payload): the state answers
     * it as a duplicate of the rejected case, and the claim's own case id tells the worker so: failed, not delivered.
     */
    @Test
    void anAmendmentQueuedWithoutNamingItsCaseFailsRatherThanReadAsDeliveredUnderIt() {
        Amended amended = rejectedAndQueuedAgain();
        Map<String, Object> payload = new java.util.LinkedHashMap<>(Json.readObject(amended.row().payload()));
        payload.remove("amends");
        Outbox.setPayload(db, amended.row().outboxEventId(), amended.row().eventType(), Json.write(payload));
        drain();

        Claim claim = queries.claim(amended.claimId()).orElseThrow();
        assertThat(claim.status()).isEqualTo(ClaimStatus.SUBMITTING);
        assertThat(claim.stateCaseId()).isEqualTo(amended.rejectedCase());
        OutboxEvent failed = row(amended.row().outboxEventId());
        assertThat(failed.deliveryState()).isEqualTo(DeliveryState.FAILED);
        assertThat(failed.lastError()).contains("did not take the amendment");
    }

    private void drain() {
        Drain.Summary drained = Drain.run(db, adapter, PACE, Deadlines.statutory(), clock, true, Duration.ofSeconds(30),
                null);
        assertThat(drained.ending()).as(drained.toString()).isEqualTo(Drain.Ending.IDLE);
    }
}
