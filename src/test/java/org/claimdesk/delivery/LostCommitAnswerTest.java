package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.claimdesk.app.Queries;
import org.claimdesk.app.SubmitResult;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.store.Database;
import org.claimdesk.testing.CommitFault;
import org.claimdesk.testing.FaultyStateServer;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Workers;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A write transaction of the worker that leased rows fails at its commit: the commit went through and its answer was
 * lost (a connection to the team database's server cut at that moment), or it did not go through. Either way every
 * row goes out once, and soon: the rows that commit leased are taken back by the next lease, not left to wait out a
 * lease of 30 s.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class LostCommitAnswerTest {
    private static final int ROWS = 60;
    private static final Duration LEASE = Duration.ofSeconds(30);

    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    @Test
    void rowsLeasedByTheFillingThreadsCommitWhoseAnswerWasLostGoOutOnceWithoutWaitingOutTheirLease() throws Exception {
        deliverAllOnce("claimdesk-delivery-control", true, "cannot lease rows: ");
    }

    @Test
    void rowsLeasedByTheCommittingThreadsCommitWhoseAnswerWasLostGoOutOnceWithoutWaitingOutTheirLease()
            throws Exception {
        deliverAllOnce("claimdesk-delivery-commit", true, "cannot record delivery outcomes: ");
    }

    @Test
    void rowsLeasedByACommitThatDidNotGoThroughGoOutOnce() throws Exception {
        deliverAllOnce("claimdesk-delivery-commit", false, "cannot record delivery outcomes: ");
    }

    private void deliverAllOnce(String thread, boolean committed, String error) throws Exception {
        try (Database db = TestDatabase.open(engine, dir);
             FaultyStateServer server = FaultyStateServer.reliable()) {
            List<SubmitResult> queued = Outbox.submitted(db, ROWS);
            server.replyDelayMillis(20);
            // the first commit on that thread that leases rows (held at its commit and not at its start)
            CommitFault<Set<Long>> fault = CommitFault.install(db, thread, committed, LostCommitAnswerTest::held,
                    (start, commit) -> !start.containsAll(commit));
            WorkerSettings settings = Workers.fast().withConcurrency(4).withLease(LEASE);
            try (HttpStateAdapter adapter = Workers.http(server.baseUrl(), 5_000);
                 DeliveryWorker worker = new DeliveryWorker(db, adapter, settings, Clock.systemUTC(),
                         Deadlines.statutory())) {
                worker.start();
                // well within the lease: a row left leased by the failed commit would wait 30 s
                await().atMost(Duration.ofSeconds(10)).until(() -> Outbox.count(db, DeliveryState.SENT) == ROWS);
                // nothing left counted as leased or perhaps leased: the failed commit's rows were settled
                await().atMost(Duration.ofSeconds(5)).until(() -> !worker.busy());
                assertThat(worker.snapshot().lastError()).isEqualTo(error + CommitFault.MESSAGE);
            }

            assertThat(fault.struck()).as("the fault struck a commit that leased rows").isTrue();
            for (SubmitResult q : queued) {
                assertThat(server.postsFor(q.idempotencyKey())).as("POSTs of %s", q.idempotencyKey()).isEqualTo(1);
            }
            assertThat(server.maxConcurrentPostsOfOneKey()).isEqualTo(1);
            Map<Long, String> caseIds = Outbox.caseIds(db);
            assertThat(caseIds).hasSize(ROWS).containsAllEntriesOf(server.state().caseIds());
            Queries queries = new Queries(db, Clock.systemUTC());
            for (SubmitResult q : queued) {
                assertThat(queries.attempts(q.outboxEventId())).as("attempts of row %d", q.outboxEventId())
                        .singleElement().extracting(DeliveryAttempt::outcome).isEqualTo(AttemptOutcome.DELIVERED);
            }
        }
    }

    /** The pending rows held by a worker, as a transaction sees them. */
    private static Set<Long> held(Handle handle) {
        return new HashSet<>(handle.createQuery("SELECT outbox_event_id FROM outbox_event"
                + " WHERE lease_owner IS NOT NULL AND delivery_state = 'pending'").mapTo(Long.class).list());
    }
}
