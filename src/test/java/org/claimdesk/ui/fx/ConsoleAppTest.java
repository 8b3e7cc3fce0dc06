package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javafx.application.Application;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.ui.ConsoleApp;
import org.claimdesk.ui.ConsoleServices;
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

    /**
     * An opening that outlasts the toolkit's start (a schema upgrade on a large database) shows a window saying what
     * it is doing; the console's window replaces it once the database is open.
     */
    @Test
    void aSlowOpeningShowsItsStepUntilTheConsoleReplacesIt() throws Exception {
        // the windows on screen are checked below: none left by an earlier test in this JVM
        FxToolkit.registerPrimaryStage();
        FxToolkit.cleanupStages();
        Path db = dir.resolve("office.db");
        CountDownLatch upgrading = new CountDownLatch(1);
        // a size remembered on this workstation, read beside the opening
        new UiSettingsStore(dir.resolve("home")).update(kept -> {
            kept.width = 1111;
            kept.height = 777;
        });
        ConsoleApp.configure(db, dir.resolve("home"));
        ConsoleApp.openInBackground((location, progress) -> {
            progress.applying(10, 11, 11);
            try {
                upgrading.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ConsoleServices.open(location, progress);
        });
        System.setProperty("claimdesk.operator", "m.alvarez");
        Application app = FxToolkit.setupApplication(ConsoleApp.class);
        try {
            WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> openingStep()
                    .filter(step -> step.equals("Bringing the database up to date for this ClaimDesk:"
                            + " schema version 11 of 11 (it was at 10)…")).isPresent());
            assertThat(WaitForAsyncUtils.asyncFx(() -> Window.getWindows().stream().filter(Window::isShowing)
                    .map(w -> w.getScene().lookup("#openingNote")).filter(n -> n != null && n.isVisible())
                    .map(n -> ((Label) n).getText()).toList()).get())
                    .singleElement().asString().contains("once after ClaimDesk is updated", "loses nothing");
            assertThat(consoleShown()).as("no console before its database is open").isFalse();
            assertThat(Window.getWindows().stream().filter(Window::isShowing).map(w -> ((Stage) w).getTitle()))
                    .containsExactly("Opening ClaimDesk");

            upgrading.countDown();
            WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, ConsoleAppTest::consoleShown);
            WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> openingStep().isEmpty());
            assertThat(Window.getWindows().stream().filter(Window::isShowing).map(w -> ((Stage) w).getTitle()))
                    .containsExactly("ClaimDesk — office.db");
            assertThat(WaitForAsyncUtils.asyncFx(() -> Window.getWindows().stream().filter(Window::isShowing)
                    .map(w -> w.getWidth() + "x" + w.getHeight()).toList()).get()).containsExactly("1111.0x777.0");
        } finally {
            upgrading.countDown();
            System.clearProperty("claimdesk.operator");
            FxToolkit.cleanupApplication(app);
            FxToolkit.cleanupStages();
        }
    }

    private static boolean consoleShown() {
        return Window.getWindows().stream().anyMatch(w -> w.isShowing() && w instanceof Stage s
                && s.getTitle() != null && s.getTitle().contains("office.db"));
    }

    /** The step the opening window shows, if it is showing. */
    private static Optional<String> openingStep() throws Exception {
        return WaitForAsyncUtils.asyncFx(() -> Window.getWindows().stream().filter(Window::isShowing)
                .map(w -> w.getScene().lookup("#openingStep")).filter(Objects::nonNull)
                .map(n -> ((Label) n).getText()).findFirst()).get();
    }

    private static int countClaims(Path db) {
        try (var d = org.claimdesk.store.Database.open(db)) {
            return TestDatabases.queries(d).countClaims(ClaimQuery.all());
        }
    }
}
