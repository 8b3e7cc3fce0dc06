package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.claimdesk.delivery.DeliveryWorker;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.delivery.WorkerSnapshot.RunState;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two workstations on one database, each with its delivery worker: a pause by staff made on one holds the other's
 * worker once it follows the pause, and ending it there lets the other deliver again; only the workstation where
 * staff acted writes the audit trail.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class PauseElsewhereTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    @Test
    void aPauseMadeOnAnotherWorkstationHoldsThisWorkerAndItsEndLetsItDeliver() {
        DatabaseLocation location = TestDatabase.location(engine, dir, "shared");
        try (Database here = Database.open(location); Database there = Database.open(location);
             AuditedWorker mine = worker(here, "r.okafor"); AuditedWorker theirs = worker(there, "m.alvarez")) {
            mine.startWithConsole(true);
            theirs.startWithConsole(true);
            assertThat(mine.snapshot().runState()).isEqualTo(RunState.RUNNING);

            theirs.pause("state maintenance tonight");
            mine.followPause();

            assertThat(mine.staffPause()).hasValueSatisfying(p -> {
                assertThat(p.actor()).isEqualTo("m.alvarez");
                assertThat(p.reason()).isEqualTo("state maintenance tonight");
            });
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> mine.snapshot().runState() == RunState.PAUSED);

            theirs.resume("maintenance over");
            mine.followPause();

            assertThat(mine.staffPause()).isEmpty();
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> mine.snapshot().runState() == RunState.RUNNING);
            List<AuditEntry> entries = new Queries(here, Clock.systemUTC()).audit("worker", null, null, 0, 0);
            assertThat(entries).extracting(AuditEntry::actor).containsOnly("m.alvarez").hasSize(2);
        }
    }

    /**
     * Staff resume the pause they saw: one made meanwhile on another workstation is not ended with it (a conflict
     * naming who paused), and a pause ended elsewhere is followed here without a second audit entry.
     */
    @Test
    void aResumeEndsOnlyThePauseItsStaffSawAndAPauseEndedElsewhereIsNotEndedTwice() {
        DatabaseLocation location = TestDatabase.location(engine, dir, "shared");
        try (Database here = Database.open(location); Database there = Database.open(location);
             AuditedWorker mine = worker(here, "r.okafor"); AuditedWorker theirs = worker(there, "m.alvarez")) {
            mine.startWithConsole(true);
            theirs.startWithConsole(true);
            mine.pause("state portal slow");
            theirs.followPause();
            theirs.pause("state portal rejecting every claim: stop");

            org.assertj.core.api.Assertions.assertThatThrownBy(() -> mine.resume("portal fine again"))
                    .isInstanceOf(org.claimdesk.domain.ConflictException.class)
                    .hasMessageContaining("paused again by m.alvarez").hasMessageContaining("nothing was resumed");
            assertThat(theirs.staffPause()).hasValueSatisfying(p -> assertThat(p.actor()).isEqualTo("m.alvarez"));
            assertThat(mine.staffPause()).hasValueSatisfying(p -> assertThat(p.actor()).isEqualTo("m.alvarez"));
            mine.followPause();
            java.util.Optional<org.claimdesk.domain.WorkerPause> held =
                    here.read(h -> new org.claimdesk.store.WorkerPauseStore().find(h));
            assertThat(held).hasValueSatisfying(p -> assertThat(p.actor()).isEqualTo("m.alvarez"));

            mine.resume("checked with m.alvarez: portal fine again");
            theirs.resume("portal fine again");
            theirs.followPause();

            assertThat(theirs.staffPause()).isEmpty();
            List<AuditEntry> entries = new Queries(here, Clock.systemUTC()).audit("worker", null, null, 0, 0);
            assertThat(entries).extracting(AuditEntry::action)
                    .containsExactly("worker.resume", "worker.pause", "worker.pause");
        }
    }

    @Test
    void aConsoleThatCameUpPausedStartsWhenThePauseEndsElsewhereOnlyIfItStartsItsWorkerWithTheConsole() {
        DatabaseLocation location = TestDatabase.location(engine, dir, "shared");
        try (Database here = Database.open(location); Database there = Database.open(location);
             Database third = Database.open(location);
             AuditedWorker starts = worker(here, "r.okafor"); AuditedWorker off = worker(third, "s.patel");
             AuditedWorker theirs = worker(there, "m.alvarez")) {
            theirs.pause("end of quarter");
            assertThat(starts.startWithConsole(true)).isEqualTo(AuditedWorker.Startup.PAUSED);
            assertThat(off.startWithConsole(false)).isEqualTo(AuditedWorker.Startup.PAUSED);

            theirs.resume("done");
            starts.followPause();
            off.followPause();

            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> starts.snapshot().runState() == RunState.RUNNING);
            assertThat(off.staffPause()).isEmpty();
            assertThat(off.snapshot().runState()).as("this workstation leaves its worker to staff")
                    .isEqualTo(RunState.STOPPED);
        }
    }

    static AuditedWorker worker(Database db, String actor) {
        SimulatedStateAdapter state = new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable()));
        return new AuditedWorker(new DeliveryWorker(db, state, Workers.fast(), Clock.systemUTC(),
                Deadlines.statutory()), db, Clock.systemUTC(), actor);
    }

    /**
     * A drain's watch reads the pause only once the live updates are heard on a team database: a pause made in
     * between cannot go unheard.
     */
    @Test
    void aDrainsWatchReadsThePauseOnceChangesElsewhereAreHeard() {
        DatabaseLocation location = TestDatabase.location(engine, dir, "shared");
        try (Database here = Database.open(location); Database there = Database.open(location)) {
            try (AuditedWorker theirs = worker(there, "m.alvarez")) {
                theirs.pause("state maintenance tonight");
            }
            try (StaffPauseWatch watch = new StaffPauseWatch(here)) {
                assertThat(here.changes().connected()).as("listening before the pause is read")
                        .isEqualTo(engine == TestDatabase.Engine.POSTGRESQL);
                assertThat(watch.get()).startsWith("the delivery worker was paused by m.alvarez at ")
                        .endsWith(": state maintenance tonight");
            }
        }
    }
}
