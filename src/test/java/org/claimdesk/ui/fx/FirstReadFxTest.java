package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.concurrent.TimeUnit;
import org.claimdesk.app.DemoData;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.Database;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.ui.ConsoleServices;
import org.claimdesk.ui.ConsoleWindow;
import org.claimdesk.ui.claims.ClaimsViewModel;
import org.claimdesk.ui.common.UiSettings;
import org.claimdesk.ui.common.UiSettingsStore;
import org.claimdesk.ui.testing.TestDatabases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * When the page staff wait for at start is read. From a team database (a real PostgreSQL server) the console built
 * off the FX thread, as {@code Application.init()} builds it, reads the page on screen before its window is shown;
 * from a file it reads it once the window is shown.
 */
class FirstReadFxTest {
    @TempDir
    Path dir;

    @Test
    void fromATeamDatabaseThePageOnScreenIsReadAsTheConsoleIsBuiltBeforeItsWindowIsShown() throws Exception {
        Database team = Database.open(TestDatabase.newServerDatabase());
        new DemoData(team, LocalDate.now(ZoneId.systemDefault()), Deadlines.statutory())
                .generate(300, TestDatabases.SEED, n -> { });
        ConsoleWindow window = build(team);
        try {
            ConsoleFxTest.waitUntil("the Claims page's first rows are read",
                    () -> window.claimsModel().rows().size() == ClaimsViewModel.PAGE_SIZE);
            assertThat(ConsoleFxTest.onFx(window::scene)).as("no window made yet").isNull();
            assertThat(ConsoleFxTest.onFx(window::claimsView)).as("the page not built yet").isNull();
            assertThat(ConsoleFxTest.onFx(() -> window.claimsModel().rows().get(0).claimNumber()))
                    .isEqualTo(TestDatabases.queries(team).claims(ClaimQuery.all().withPage(0, 1)).get(0)
                            .claimNumber());
        } finally {
            close(window);
        }
    }

    @Test
    void fromAFileThePageOnScreenIsNotReadBeforeItsWindowIsShown() throws Exception {
        ConsoleWindow window = build(TestDatabases.demo(dir, 300));
        try {
            // queued after everything the constructor queued to the FX thread
            assertThat(ConsoleFxTest.onFx(() -> window.claimsModel().loadingProperty().get()))
                    .as("a read started").isFalse();
            assertThat(ConsoleFxTest.onFx(() -> window.claimsModel().rows().isEmpty())).isTrue();
        } finally {
            close(window);
        }
    }

    private ConsoleServices services;

    /** The console on {@code db}, the Claims page on screen, built on this thread (not the FX thread). */
    private ConsoleWindow build(Database db) throws Exception {
        FxToolkit.registerPrimaryStage();
        services = ConsoleServices.on(db, new SimulatedStateAdapter(new SimulatedState(
                SimulatedState.Config.reliable())), WorkerSettings.defaults());
        UiSettings settings = new UiSettings();
        settings.page = "CLAIMS";
        settings.startWorker = false;
        return new ConsoleWindow(services, settings, new UiSettingsStore(dir.resolve("settings")));
    }

    private void close(ConsoleWindow window) throws Exception {
        WaitForAsyncUtils.asyncFx(window::close).get(10, TimeUnit.SECONDS);
        services.close();
    }
}
