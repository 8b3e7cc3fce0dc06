package org.claimdesk.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.claimdesk.delivery.HttpStateAdapter;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.Database;
import org.claimdesk.ui.main.MainViewModel;
import org.claimdesk.ui.testing.DirectTaskRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new desk on a workstation set up for a state's API (CLAIMDESK_STATE_URL) gets no demo data at its first start:
 * the demo's pending submissions would be one Resume away from the state. It stays empty and says how claims come in.
 */
class StateApiDeskTest {
    @TempDir
    Path dir;

    @Test
    void anEmptyDeskDeliveringToAStatesApiGetsNoDemoDataAndSaysWhy() {
        // never called: nothing is delivered while the desk is empty
        HttpStateAdapter state = new HttpStateAdapter(URI.create("https://submissions.example-state.gov"),
                Duration.ofSeconds(1), Duration.ofSeconds(1), null);
        try (ConsoleServices services = ConsoleServices.on(Database.open(dir.resolve("desk.db")), state,
                WorkerSettings.defaults())) {
            assertThat(services.demoDataWhenEmpty()).isNull();
            assertThat(services.emptyNotice()).isEqualTo(MainViewModel.EMPTY_DESK_WITH_STATE_API);
            MainViewModel main = new MainViewModel(services.databaseName(), services.demoDataWhenEmpty(),
                    services.emptyNotice(), services.queries(), services.worker(), false, new DirectTaskRunner(),
                    "tester", services.endpoint());

            main.start(() -> { });

            assertThat(main.readyProperty().get()).isTrue();
            assertThat(services.queries().countClaims(ClaimQuery.all())).isZero();
            assertThat(services.queries().countOutboxByState().values()).allMatch(n -> n == 0);
            assertThat(main.bannerProperty().get()).isEqualTo(MainViewModel.EMPTY_DESK_WITH_STATE_API)
                    .contains("CLAIMDESK_STATE_URL").doesNotContain("simulated");
        }
    }

    /** A simulated state served on this machine (claimdesk state-sim, for training) is not a state: demo data. */
    @Test
    void anEmptyDeskDeliveringToAStateSimOnThisMachineGetsDemoData() {
        HttpStateAdapter local = new HttpStateAdapter(URI.create("http://127.0.0.1:9"), Duration.ofSeconds(1),
                Duration.ofSeconds(1), null);
        try (ConsoleServices services = ConsoleServices.on(Database.open(dir.resolve("desk.db")), local,
                WorkerSettings.defaults())) {
            assertThat(services.emptyNotice()).isNull();
            assertThat(services.demoDataWhenEmpty()).isNotNull();
        }
    }

    @Test
    void anEmptyDeskDeliveringToTheSimulatedStateGetsDemoData() {
        try (ConsoleServices services = ConsoleServices.on(Database.open(dir.resolve("desk.db")),
                ConsoleServices.simulated(), WorkerSettings.defaults())) {
            assertThat(services.emptyNotice()).isNull();
            assertThat(services.demoDataWhenEmpty()).isNotNull();
        }
    }
}
