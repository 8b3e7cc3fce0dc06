package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.claimdesk.app.Queries;
import org.claimdesk.app.SubmitResult;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.Database;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Triggers;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Rows the worker cannot deliver fail with a reason; the others are delivered and the worker keeps running. */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class BadOutboxRowsTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    Database db;
    Queries queries;
    DeliveryWorker worker;

    @BeforeEach
    void open() {
        db = TestDatabase.open(engine, dir);
        queries = new Queries(db, Clock.systemUTC());
    }

    @AfterEach
    void close() {
        if (worker != null) {
            worker.close();
        }
        db.close();
    }

    @Test
    void missingFieldsAndAVanishedClaimFailTheirRowsAndTheRestIsDelivered() {
        List<SubmitResult> queued = Outbox.submitted(db, 4);
        long missingFields = queued.get(0).outboxEventId();
        Outbox.setPayload(db, missingFields, OutboxEvent.SUBMISSION_REQUESTED,
                "{\"claimId\":" + queued.get(0).claimId() + ",\"idempotencyKey\":\"" + queued.get(0).idempotencyKey()
                        + "\",\"claimNumber\":\"\",\"jurisdiction\":null}");
        long vanished = queued.get(1).outboxEventId();
        long vanishedClaim = queued.get(1).claimId();
        Triggers.withoutForeignKeys(db, h -> {
            h.execute("DELETE FROM claim_status_history WHERE claim_id = ?", vanishedClaim);
            h.execute("DELETE FROM claim WHERE claim_id = ?", vanishedClaim);
        });

        worker = new DeliveryWorker(db, new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable())),
                Workers.fast(), Clock.systemUTC(), Deadlines.statutory());
        worker.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> Outbox.count(db, DeliveryState.PENDING) == 0);

        assertThat(queries.outboxEvent(missingFields).orElseThrow()).satisfies(r -> {
            assertThat(r.deliveryState()).isEqualTo(DeliveryState.FAILED);
            assertThat(r.lastError()).isEqualTo("malformed payload: the claim number, jurisdiction and state property id"
                    + " are required");
        });
        assertThat(queries.claim(queued.get(0).claimId()).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTING);
        assertThat(queries.outboxEvent(vanished).orElseThrow()).satisfies(r -> {
            assertThat(r.deliveryState()).isEqualTo(DeliveryState.FAILED);
            assertThat(r.lastError()).contains("claim " + vanishedClaim).contains("no longer exists");
        });
        for (SubmitResult ok : queued.subList(2, 4)) {
            assertThat(queries.claim(ok.claimId()).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTED_TO_STATE);
        }
        assertThat(worker.snapshot().runState()).isEqualTo(WorkerSnapshot.RunState.RUNNING);
    }
}
