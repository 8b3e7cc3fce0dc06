package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.Test;

/**
 * Workstations on a team database do not share a clock: one whose clock runs ahead must not take over a row whose
 * lease is still running for another, or the state would get one key from two workers at once. Leases are kept in
 * the server's time (a file's workers share one machine's clock, so this is a team database's test).
 */
class LeaseClockTest {
    @Test
    void aWorkerWhoseClockRunsAheadDoesNotTakeOverRowsLeasedByAnother() throws Exception {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();
        List<SubmitResult> queued;
        try (Database setup = Database.open(location)) {
            queued = Outbox.submitted(setup, 24);
        }
        try (FaultyStateServer server = FaultyStateServer.reliable();
             Database first = Database.open(location);
             Database second = Database.open(location);
             HttpStateAdapter a = Workers.http(server.baseUrl(), 2_000);
             HttpStateAdapter b = Workers.http(server.baseUrl(), 2_000)) {
            // every answer takes 1.5 s of a 4 s lease: a worker 30 s ahead would see every lease of the other expired
            server.replyDelayMillis(1_500);
            WorkerSettings settings = Workers.fast().withConcurrency(4).withInterval(Duration.ofMillis(20))
                    .withLease(Duration.ofSeconds(4));
            Clock ahead = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(30));
            try (DeliveryWorker one = new DeliveryWorker(first, a, settings, Clock.systemUTC(), Deadlines.statutory());
                 DeliveryWorker two = new DeliveryWorker(second, b, settings, ahead, Deadlines.statutory())) {
                one.start();
                await().atMost(Duration.ofSeconds(10)).until(() -> server.totalPosts() > 0);
                two.start();
                await().atMost(Duration.ofSeconds(90)).until(() -> Outbox.count(first, DeliveryState.SENT) == 24);
                assertThat(two.snapshot().sentThisRun()).as("the worker ahead took part").isPositive();
            }
            assertThat(server.maxConcurrentPostsOfOneKey()).isEqualTo(1);
            for (SubmitResult q : queued) {
                assertThat(server.postsFor(q.idempotencyKey())).as("POSTs of %s", q.idempotencyKey()).isEqualTo(1);
            }
        }
    }
}
