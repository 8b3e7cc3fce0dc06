package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.claimdesk.app.Queries;
import org.claimdesk.app.SubmitResult;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.store.Database;
import org.claimdesk.testing.FaultyStateServer;
import org.claimdesk.testing.FaultyStateServer.Fault;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every fault the network and the state can throw at a delivery, mixed over many rows: afterwards
 * every claim has exactly one case id, the state's, and no claim was accepted twice.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class FaultInjectionTest {
    @Parameter
    TestDatabase.Engine engine;

    private static final Fault[] FIRST_ANSWERS = {
        Fault.UNAVAILABLE_503, Fault.RATE_LIMITED_429, Fault.NO_REPLY, Fault.DROP_CONNECTION, Fault.ACCEPTED_THEN_503,
        Fault.NONE,
    };

    @TempDir
    Path dir;

    @Test
    void everyClaimEndsWithExactlyTheStatesCaseIdWhateverFailsOnTheWay() throws Exception {
        int rows = 120;
        try (Database db = TestDatabase.open(engine, dir);
             FaultyStateServer server = FaultyStateServer.start(FaultInjectionTest::plan, Duration.ofMillis(1_500))) {
            server.retryAfterSeconds(1);
            List<SubmitResult> queued = Outbox.submitted(db, rows);
            WorkerSettings settings = Workers.fast().withConcurrency(8).withMaxAttempts(8);
            try (HttpStateAdapter adapter = Workers.http(server.baseUrl(), 400);
                 DeliveryWorker worker = new DeliveryWorker(db, adapter, settings, Clock.systemUTC(),
                         Deadlines.statutory())) {
                worker.start();
                await().atMost(Duration.ofSeconds(60)).until(() -> Outbox.count(db, DeliveryState.PENDING) == 0);
            }

            Queries queries = new Queries(db, Clock.systemUTC());
            Map<Long, String> stateCases = server.state().caseIds();
            Map<Long, String> ourCases = Outbox.caseIds(db);
            long rejected = queued.stream().filter(q -> q.idempotencyKey().hashCode() % 10 == 0).count();
            assertThat(Outbox.count(db, DeliveryState.FAILED)).isEqualTo(rejected);
            assertThat(Outbox.count(db, DeliveryState.SENT)).isEqualTo(rows - rejected);
            assertThat(server.state().acceptances().values()).allMatch(n -> n == 1);
            for (SubmitResult q : queued) {
                boolean shouldFail = q.idempotencyKey().hashCode() % 10 == 0;
                if (shouldFail) {
                    assertThat(queries.claim(q.claimId()).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTING);
                    assertThat(stateCases).doesNotContainKey(q.claimId());
                    continue;
                }
                assertThat(ourCases.get(q.claimId())).as("claim %d", q.claimId()).isNotNull()
                        .isEqualTo(stateCases.get(q.claimId()));
                assertThat(queries.claim(q.claimId()).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTED_TO_STATE);
                assertThat(queries.outboxEvent(q.outboxEventId()).orElseThrow().stateCaseId())
                        .isEqualTo(stateCases.get(q.claimId()));
                List<DeliveryAttempt> attempts = queries.attempts(q.outboxEventId());
                assertThat(attempts).last().satisfies(a -> assertThat(a.outcome()).isEqualTo(AttemptOutcome.DELIVERED));
                assertThat(attempts).extracting(DeliveryAttempt::attemptNo)
                        .containsExactlyElementsOf(java.util.stream.IntStream.rangeClosed(1, attempts.size()).boxed().toList());
            }
            assertThat(ourCases.values()).doesNotHaveDuplicates();
            // every kind of fault really happened
            List<DeliveryAttempt> all = queued.stream().flatMap(q -> queries.attempts(q.outboxEventId()).stream()).toList();
            assertThat(all).anySatisfy(a -> assertThat(a.detail()).startsWith("timeout: no reply from the state within 400 ms"));
            assertThat(all).anySatisfy(a -> assertThat(a.detail()).startsWith("connection lost before the state answered"));
            assertThat(all).anySatisfy(a -> assertThat(a.httpStatus()).isEqualTo(429));
            assertThat(all).anySatisfy(a -> assertThat(a.detail()).contains("gateway lost the reply"));
            assertThat(all).anySatisfy(a -> assertThat(a.httpStatus()).isEqualTo(200));
        }
    }

    /** First POST of a key: a fault picked by its hash; every tenth key is rejected for good. */
    static Fault plan(String key, int postNumber) {
        int h = Math.floorMod(key.hashCode(), 1_000_003);
        if (key.hashCode() % 10 == 0) {
            return Fault.REJECT_422;
        }
        if (postNumber == 1) {
            return FIRST_ANSWERS[h % FIRST_ANSWERS.length];
        }
        if (postNumber == 2 && h % 3 == 0) {
            return Fault.UNAVAILABLE_503;
        }
        return Fault.NONE;
    }
}
