package org.claimdesk.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.claimdesk.delivery.StateNotSet;
import org.claimdesk.delivery.WorkerSnapshot.RunState;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.ui.main.MainViewModel;
import org.claimdesk.ui.testing.DirectTaskRunner;
import org.claimdesk.ui.worker.WorkerViewModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A workstation on a team database that names no state API (no {@code CLAIMDESK_STATE_URL}) delivers nothing:
 * the simulated state would accept the office's claims, and they would read as submitted to a state that never
 * received them. Its worker stays off whatever the workstation's setting, Start is refused with the reason, and
 * staff are told what to set.
 */
class TeamStateNotSetTest {
    @TempDir
    Path dir;

    @Test
    void theWorkerStaysOffSaysWhyAndLeavesTheOfficesRowsPending() {
        assertThat(System.getenv(ConsoleServices.STATE_URL_ENV)).as("this test needs no state API in its environment")
                .isNull();
        DatabaseLocation location = TestDatabase.location(TestDatabase.Engine.POSTGRESQL, dir, "office");
        long claimId;
        try (Database db = Database.open(location)) {
            claimId = Outbox.submitted(db, 1).get(0).claimId();
        }
        try (ConsoleServices services = ConsoleServices.open(location).withActor("s.patel")) {
            assertThat(services.state()).isInstanceOf(StateNotSet.class);
            assertThat(services.endpoint()).isEqualTo(StateNotSet.ENDPOINT);
            // a reconciliation asks the state first: refused with the same sentence staff are shown
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> services.state().lookup("sub-1"))
                    .isInstanceOf(org.claimdesk.domain.ClaimDeskException.class)
                    .hasMessage(ConsoleServices.NO_STATE_ON_TEAM_DATABASE);
            DirectTaskRunner tasks = new DirectTaskRunner();
            MainViewModel main = new MainViewModel(services.databaseName(), null, services.queries(),
                    services.worker(), true, tasks, services.actor(), services.endpoint());
            WorkerViewModel worker = new WorkerViewModel(services.worker(), tasks, services.actor(), true, on -> { });
            worker.attach();
            main.start(() -> { });

            assertThat(services.worker().snapshot().runState()).isEqualTo(RunState.STOPPED);
            assertThat(main.workerStateProperty().get()).isEqualTo("Worker off: no state API set on this workstation");
            assertThat(main.bannerProperty().get()).contains("never to the simulated state")
                    .contains(ConsoleServices.STATE_URL_ENV);
            assertThat(worker.canStartProperty().get()).isFalse();

            worker.start();
            assertThat(worker.noticeProperty().get().text()).contains("No state API is set on this workstation");

            // a pause ended on this workstation ends it for the office, and still starts nothing here
            worker.pause("state maintenance tonight");
            worker.resume("maintenance over");
            assertThat(services.worker().staffPause()).isEmpty();
            assertThat(services.worker().snapshot().runState()).isEqualTo(RunState.STOPPED);

            assertThat(services.queries().countOutboxByState()).containsEntry(DeliveryState.PENDING, 1);
            assertThat(services.queries().claim(claimId).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTING);
            worker.detach();
        }
    }
}
