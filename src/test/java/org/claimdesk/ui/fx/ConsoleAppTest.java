package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javafx.application.Application;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.ui.ConsoleApp;
import org.claimdesk.ui.common.UiSettings;
import org.claimdesk.ui.common.UiSettingsStore;
import org.claimdesk.ui.testing.TestDatabases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/** The application's whole life: init opens the database, start shows the console, stop saves the layout. */
class ConsoleAppTest {
    @TempDir
    Path dir;

    @Test
    void anEmptyDatabaseOpensWithDemoDataAndTheLayoutIsSavedOnStop() throws Exception {
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> uncaught.add(e));
        Path db = dir.resolve("office.db");
        Path settingsDir = dir.resolve("home");
        ConsoleApp.configure(db, settingsDir);
        System.setProperty("claimdesk.operator", "m.alvarez");
        FxToolkit.registerPrimaryStage();
        Application app = FxToolkit.setupApplication(ConsoleApp.class);
        try {
            WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> Window.getWindows().stream()
                    .anyMatch(w -> w instanceof Stage s && s.getTitle() != null && s.getTitle().contains("office.db")));
            WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> Files.exists(db)
                    && countClaims(db) > 0);
        } finally {
            System.clearProperty("claimdesk.operator");
            FxToolkit.cleanupApplication(app);
            FxToolkit.cleanupStages();
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
        UiSettings saved = new UiSettingsStore(settingsDir).load();
        assertThat(Files.exists(settingsDir.resolve(UiSettingsStore.FILE))).isTrue();
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(settingsDir.resolve(UiSettingsStore.FILE)))).isEqualTo("rw-------");
        assertThat(saved.page).isEqualTo("CLAIMS");
        assertThat(saved.columns).containsKey("claims");
        assertThat(saved.startWorker).as("the worker starts with the console unless staff turn it off").isTrue();
        assertThat(uncaught).isEmpty();
    }

    private static int countClaims(Path db) {
        try (var d = org.claimdesk.store.Database.open(db)) {
            return TestDatabases.queries(d).countClaims(ClaimQuery.all());
        }
    }
}
