package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.claimdesk.app.SubmitResult;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.testing.FaultyStateServer;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** The console's worker and a CLI drain on one database file: no row is ever delivered by both. */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class TwoWorkersTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    private volatile boolean bothStarted;

    private static long leaseOwners(Database db) {
        return db.read(h -> h.createQuery(
                "SELECT count(DISTINCT lease_owner) FROM outbox_event WHERE lease_owner IS NOT NULL").mapTo(Long.class).one());
    }

    @Test
    void twoWorkersOnOneFileEachPostEveryKeyExactlyOnce() throws Exception {
        DatabaseLocation file = TestDatabase.location(engine, dir, "claims");
        List<SubmitResult> queued;
        try (Database setup = Database.open(file)) {
            queued = Outbox.submitted(setup, 400);
        }
        try (FaultyStateServer server = FaultyStateServer.reliable();
             Database first = Database.open(file);
             Database second = Database.open(file);
             HttpStateAdapter a = Workers.http(server.baseUrl(), 5_000);
             HttpStateAdapter b = Workers.http(server.baseUrl(), 5_000)) {
            WorkerSettings settings = Workers.fast().withConcurrency(8).withInterval(Duration.ofMillis(20));
            // The state answers nothing until both workers hold leases, so both take part whichever
            // starts first (a worker's first lease window is twice its concurrency, far below 400).
            server.plan((key, post) -> {
                await().atMost(Duration.ofSeconds(20)).until(() -> leaseOwners(first) >= 2 || bothStarted);
                bothStarted = true;
                return FaultyStateServer.Fault.NONE;
            });
            try (DeliveryWorker one = new DeliveryWorker(first, a, settings, Clock.systemUTC(), Deadlines.statutory());
                 DeliveryWorker two = new DeliveryWorker(second, b, settings, Clock.systemUTC(), Deadlines.statutory())) {
                one.start();
                two.start();
                await().atMost(Duration.ofSeconds(60)).until(() -> Outbox.count(first, DeliveryState.SENT) == 400);
                await().atMost(Duration.ofSeconds(10)).until(() -> one.snapshot().sentThisRun()
                        + two.snapshot().sentThisRun() == 400);
                assertThat(one.snapshot().sentThisRun()).as("both workers took part").isPositive();
                assertThat(two.snapshot().sentThisRun()).as("both workers took part").isPositive();
            }
            for (SubmitResult q : queued) {
                assertThat(server.postsFor(q.idempotencyKey())).as("POSTs of %s", q.idempotencyKey()).isEqualTo(1);
            }
            assertThat(server.totalPosts()).isEqualTo(400);
            assertThat(server.maxConcurrentPostsOfOneKey()).isEqualTo(1);
            assertThat(Outbox.caseIds(first)).hasSize(400).containsAllEntriesOf(server.state().caseIds());
        }
    }
}
