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

    /**
     * A drain's "anything left to lease?" judges leases as a lease does, by the server's clock: a workstation 30 s
     * ahead does not count a row leased by another for 60 s as leasable (and end its drain too soon, or wait on it).
     */
    @Test
    void whetherARowIsLeasableIsJudgedByTheServersClock() {
        try (Database db = Database.open(TestDatabase.newServerDatabase())) {
            Outbox.submitted(db, 1);
            db.useTransaction(h -> h.execute("UPDATE outbox_event SET lease_owner = 'desk-02-console', lease_expires_at"
                    + " = CAST(extract(epoch FROM statement_timestamp()) * 1000 AS bigint) + 60000"));
            org.claimdesk.store.OutboxStore outbox = new org.claimdesk.store.OutboxStore();
            java.time.Instant ahead = java.time.Instant.now().plusSeconds(90);
            boolean leasableAhead = db.read(h -> outbox.anyLeasable(h, ahead));
            assertThat(leasableAhead).as("its lease runs on the server's clock").isFalse();
            db.useTransaction(h -> h.execute("UPDATE outbox_event SET lease_expires_at = lease_expires_at - 61000"));
            boolean leasableOnceExpired = db.read(h -> outbox.anyLeasable(h, java.time.Instant.now()));
            assertThat(leasableOnceExpired).isTrue();
        }
    }
}
