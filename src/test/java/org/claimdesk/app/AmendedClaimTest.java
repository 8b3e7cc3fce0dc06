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
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.testing.TestClaims;
import org.claimdesk.testing.TestDatabase;
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

    @Test
    void anAmendedClaimIsSubmittedAsANewFilingAndGetsANewCase() {
        Clock clock = Clock.systemUTC();
        SimulatedState state = new SimulatedState(SimulatedState.Config.reliable());
        try (Database db = Database.open(TestDatabase.location(engine, dir, "amended"));
                StateAdapter adapter = new SimulatedStateAdapter(state)) {
            Workflow workflow = new Workflow(db, clock, Deadlines.statutory());
            Queries queries = new Queries(db, clock);
            long id = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
            workflow.submit(id, "supervisor.kim", null);
            drain(db, adapter, clock);
            String rejectedCase = queries.claim(id).orElseThrow().stateCaseId();
            assertThat(rejectedCase).isNotNull();
            OutboxEvent firstRow = queries.outbox(OutboxQuery.all()).get(0);
            assertThat(Json.readObject(firstRow.payload())).as("a first filing names no case")
                    .doesNotContainKey("amends");

            workflow.advance(id, ClaimStatus.REJECTED, "j.chen", null, "R-12: no proof of ownership", null);
            workflow.advance(id, ClaimStatus.EVIDENCE_PENDING, "j.chen", null, "deed found; amending", null);
            workflow.advance(id, ClaimStatus.READY_FOR_SUBMISSION, "j.chen", null, null, null);
            SubmitResult again = workflow.submit(id, "supervisor.kim", null);
            Map<String, Object> payload = Json.readObject(queries.outbox(OutboxQuery.all()).stream()
                    .filter(e -> e.outboxEventId() == again.outboxEventId()).findFirst().orElseThrow().payload());
            assertThat(payload).containsEntry("amends", rejectedCase);
            drain(db, adapter, clock);

            Claim amended = queries.claim(id).orElseThrow();
            assertThat(amended.status()).isEqualTo(ClaimStatus.SUBMITTED_TO_STATE);
            assertThat(amended.stateCaseId()).as("judged anew under a case of its own").isNotNull()
                    .isNotEqualTo(rejectedCase);
        }
    }

    /**
     * A row queued before submissions named the case they amend (no {@code amends} in its payload): the state answers
     * it as a duplicate of the rejected case, and the claim's own case id tells the worker so: failed, not delivered.
     */
    @Test
    void anAmendmentQueuedWithoutNamingItsCaseFailsRatherThanReadAsDeliveredUnderIt() {
        Clock clock = Clock.systemUTC();
        SimulatedState state = new SimulatedState(SimulatedState.Config.reliable());
        try (Database db = Database.open(TestDatabase.location(engine, dir, "legacy"));
                StateAdapter adapter = new SimulatedStateAdapter(state)) {
            Workflow workflow = new Workflow(db, clock, Deadlines.statutory());
            Queries queries = new Queries(db, clock);
            long id = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
            workflow.submit(id, "supervisor.kim", null);
            drain(db, adapter, clock);
            String rejectedCase = queries.claim(id).orElseThrow().stateCaseId();
            workflow.advance(id, ClaimStatus.REJECTED, "j.chen", null, "R-12: no proof of ownership", null);
            workflow.advance(id, ClaimStatus.EVIDENCE_PENDING, "j.chen", null, "deed found; amending", null);
            workflow.advance(id, ClaimStatus.READY_FOR_SUBMISSION, "j.chen", null, null, null);
            SubmitResult again = workflow.submit(id, "supervisor.kim", null);
            OutboxEvent row = queries.outbox(OutboxQuery.all()).stream()
                    .filter(e -> e.outboxEventId() == again.outboxEventId()).findFirst().orElseThrow();
            Map<String, Object> payload = new java.util.LinkedHashMap<>(Json.readObject(row.payload()));
            payload.remove("amends");
            org.claimdesk.testing.Outbox.setPayload(db, row.outboxEventId(), row.eventType(), Json.write(payload));
            drain(db, adapter, clock);

            Claim claim = queries.claim(id).orElseThrow();
            assertThat(claim.status()).isEqualTo(ClaimStatus.SUBMITTING);
            assertThat(claim.stateCaseId()).isEqualTo(rejectedCase);
            OutboxEvent failed = queries.outbox(OutboxQuery.all()).stream()
                    .filter(e -> e.outboxEventId() == again.outboxEventId()).findFirst().orElseThrow();
            assertThat(failed.deliveryState()).isEqualTo(org.claimdesk.domain.DeliveryState.FAILED);
            assertThat(failed.lastError()).contains("did not take the amendment");
        }
    }

    private static void drain(Database db, StateAdapter adapter, Clock clock) {
        Drain.Summary drained = Drain.run(db, adapter, PACE, Deadlines.statutory(), clock, true, Duration.ofSeconds(30),
                null);
        assertThat(drained.ending()).as(drained.toString()).isEqualTo(Drain.Ending.IDLE);
    }
}
