package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.claimdesk.delivery.WorkerSnapshot.RunState;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;

/**
 * A console's worker follows pauses made elsewhere by reading the database; on a team database that read may wait
 * (a read of a desk's file never waits for a writer, so this is PostgreSQL's case alone).
 */
class PauseWhileFollowingTest {

    /**
     * A pause made here while this console follows a change from elsewhere: the follow's read, held by a table lock
     * (as a busy server may hold it), must not see the database before the pause and then undo it.
     */
    @Test
    void aPauseMadeHereWhileFollowingAChangeFromElsewhereStands() throws Exception {
        DatabaseLocation location = TestDatabase.newServerDatabase();
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(2);
        try (Database here = Database.open(location); Database server = Database.open(location);
             AuditedWorker mine = PauseElsewhereTest.worker(here, "r.okafor");
             org.jdbi.v3.core.Handle holder = server.jdbi().open();
             org.jdbi.v3.core.Handle watcher = server.jdbi().open()) {
            mine.startWithConsole(true);
            holder.begin();
            holder.execute("LOCK TABLE worker_pause IN ACCESS EXCLUSIVE MODE");
            java.util.function.IntSupplier waiting = () -> watcher.createQuery("SELECT count(*) FROM"
                    + " pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")
                    .mapTo(Integer.class).one();

            java.util.concurrent.Future<?> follow = threads.submit(mine::followPause);
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> waiting.getAsInt() == 1);
            Thread[] pausing = new Thread[1];
            java.util.concurrent.Future<?> pause = threads.submit(() -> {
                pausing[0] = Thread.currentThread();
                mine.pause("state maintenance tonight");
            });
            // the pause waits for the follow (this console's lock) or for the table, behind the follow's read
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> pausing[0] != null
                    && pausing[0].getState() == Thread.State.BLOCKED || waiting.getAsInt() == 2);
            holder.commit();
            follow.get(10, java.util.concurrent.TimeUnit.SECONDS);
            pause.get(10, java.util.concurrent.TimeUnit.SECONDS);

            assertThat(mine.staffPause()).hasValueSatisfying(p -> assertThat(p.reason())
                    .isEqualTo("state maintenance tonight"));
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> mine.snapshot().runState() == RunState.PAUSED);
            mine.followPause();
            assertThat(mine.snapshot().runState()).isEqualTo(RunState.PAUSED);
        } finally {
            threads.shutdownNow();
        }
    }
}
