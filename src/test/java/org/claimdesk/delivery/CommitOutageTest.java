package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.claimdesk.app.Queries;
import org.claimdesk.app.SubmitResult;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.store.Database;
import org.claimdesk.testing.CommitOutage;
import org.claimdesk.testing.FaultyStateServer;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The database cannot be written for a while (a team database's server restarting) as the worker records its calls'
 * outcomes: it keeps trying while the rows' leases may still be held, so that once the database can be written each
 * call's outcome and attempt is recorded, soon and once, instead of the rows waiting out their lease and going out
 * again; a worker closed meanwhile gives up its tries and its leases (closing a closed worker does nothing more).
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class CommitOutageTest {
    private static final int ROWS = 20;
    private static final Duration LEASE = Duration.ofSeconds(30);
    /** More failed commits than the first five tries of one batch. */
    private static final int OUTAGE_COMMITS = 8;

    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    @Test
    void outcomesCalledDuringAnOutageAreRecordedOnceItEndsEachRowSentOnce() throws Exception {
        try (Database db = TestDatabase.open(engine, dir);
             FaultyStateServer server = FaultyStateServer.reliable()) {
            List<SubmitResult> queued = Outbox.submitted(db, ROWS);
            server.replyDelayMillis(20);
            CommitOutage outage = CommitOutage.begin(db, "claimdesk-delivery-commit");
            WorkerSettings settings = Workers.fast().withConcurrency(4).withLease(LEASE);
            try (HttpStateAdapter adapter = Workers.http(server.baseUrl(), 5_000);
                 DeliveryWorker worker = new DeliveryWorker(db, adapter, settings, Clock.systemUTC(),
                         Deadlines.statutory())) {
                worker.start();
                await().atMost(Duration.ofSeconds(20)).until(() -> outage.failedCommits() >= OUTAGE_COMMITS);
                assertThat(Outbox.count(db, DeliveryState.SENT)).as("nothing recorded during the outage").isZero();
                assertThat(worker.snapshot().lastError()).startsWith("cannot record delivery outcomes: ")
                        .contains(engine == TestDatabase.Engine.POSTGRESQL ? "cannot reach" : "locked by another program");
                outage.close();
                // well within the lease: a batch given up would leave its rows leased for 30 s
                await().atMost(Duration.ofSeconds(10)).until(() -> Outbox.count(db, DeliveryState.SENT) == ROWS);
                await().atMost(Duration.ofSeconds(5)).until(() -> !worker.busy());
            }

            for (SubmitResult q : queued) {
                assertThat(server.postsFor(q.idempotencyKey())).as("POSTs of %s", q.idempotencyKey()).isEqualTo(1);
            }
            Queries queries = new Queries(db, Clock.systemUTC());
            for (SubmitResult q : queued) {
                assertThat(queries.attempts(q.outboxEventId())).as("attempts of row %d", q.outboxEventId())
                        .singleElement().extracting(DeliveryAttempt::outcome).isEqualTo(AttemptOutcome.DELIVERED);
            }
        }
    }

    @Test
    void aWorkerClosedDuringAnOutageStopsTryingAndGivesItsRowsBack() throws Exception {
        try (Database db = TestDatabase.open(engine, dir);
             FaultyStateServer server = FaultyStateServer.reliable()) {
            Outbox.submitted(db, ROWS);
            CommitOutage outage = CommitOutage.begin(db, "claimdesk-delivery-commit");
            WorkerSettings settings = Workers.fast().withConcurrency(4).withLease(LEASE);
            java.util.Set<Thread> before = committers();
            try (HttpStateAdapter adapter = Workers.http(server.baseUrl(), 5_000);
                 DeliveryWorker worker = new DeliveryWorker(db, adapter, settings, Clock.systemUTC(),
                         Deadlines.statutory())) {
                worker.start();
                await().atMost(Duration.ofSeconds(20)).until(() -> outage.failedCommits() >= OUTAGE_COMMITS);
                CompletableFuture<Void> closed = CompletableFuture.runAsync(worker::close);
                // well within the lease the committer would otherwise go on trying for
                await().atMost(Duration.ofSeconds(15)).until(closed::isDone);
                closed.join();
                assertThat(committers()).as("the worker's committing thread has ended").isSubsetOf(before);
                int leased = db.read(h -> h.createQuery("SELECT count(*) FROM outbox_event WHERE lease_owner IS NOT NULL")
                        .mapTo(Integer.class).one());
                assertThat(leased).as("leases given back at the close").isZero();
                assertThat(Outbox.count(db, DeliveryState.PENDING)).isEqualTo(ROWS);
            } finally {
                outage.close();
            }
        }
    }

    /** The committing threads of workers alive now. */
    private static java.util.Set<Thread> committers() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .filter(t -> t.getName().startsWith("claimdesk-delivery-commit"))
                .collect(java.util.stream.Collectors.toSet());
    }
}
