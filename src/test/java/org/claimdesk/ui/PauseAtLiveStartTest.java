package org.claimdesk.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.delivery.WorkerSnapshot.RunState;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.ui.main.MainViewModel;
import org.claimdesk.ui.testing.DirectTaskRunner;
import org.junit.jupiter.api.Test;

/**
 * A console on a team database reads the worker's pause at start, and hears of later pauses once its live updates
 * start: a pause made in between is read again when they do, so the console's worker does not go on delivering, and
 * so are the rows on screen.
 */
class PauseAtLiveStartTest {
    @Test
    void aPauseMadeBeforeTheLiveUpdatesStartedIsFollowedOnceTheyDo() {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();
        try (ConsoleServices here = ConsoleServices.on(Database.open(location),
                new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable())),
                WorkerSettings.defaults()).withActor("s.patel");
             ConsoleServices there = ConsoleServices.on(Database.open(location),
                     new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable())),
                     WorkerSettings.defaults()).withActor("m.alvarez")) {
            DirectTaskRunner tasks = new DirectTaskRunner();
            MainViewModel main = new MainViewModel(here.databaseName(), null, here.queries(), here.worker(), true, tasks,
                    here.actor(), here.endpoint());
            java.util.concurrent.atomic.AtomicInteger rowsRead = new java.util.concurrent.atomic.AtomicInteger();
            main.onRefresh(org.claimdesk.ui.main.Page.CLAIMS, () -> { });
            main.onLiveRefresh(org.claimdesk.ui.main.Page.CLAIMS, rowsRead::incrementAndGet);
            main.start(() -> { });
            assertThat(here.worker().snapshot().runState()).isEqualTo(RunState.RUNNING);
            main.catchUpOnceHeard(() -> false);
            assertThat(rowsRead).as("not heard: nothing to catch up on yet").hasValue(0);

            // made elsewhere before this console listens: no notification reaches it
            there.worker().pause("state maintenance tonight");
            main.catchUpOnceHeard(() -> true);

            assertThat(rowsRead).as("the rows on screen read again, as a change made meanwhile went unheard")
                    .hasValue(1);
            assertThat(here.worker().staffPause()).hasValueSatisfying(p -> assertThat(p.actor()).isEqualTo("m.alvarez"));
            await().atMost(Duration.ofSeconds(10)).until(() -> here.worker().snapshot().runState() == RunState.PAUSED);
        }
    }
}
