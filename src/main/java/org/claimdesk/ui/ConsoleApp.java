package org.claimdesk.ui;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Function;
import org.claimdesk.store.DatabaseLocation;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.stage.Stage;
import org.claimdesk.app.DataDirectory;
import org.claimdesk.app.Operators;
import org.claimdesk.ui.common.Dialogs;
import org.claimdesk.ui.common.UiSettings;
import org.claimdesk.ui.common.UiSettingsStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JavaFX application. {@link #init()} runs on the launcher thread, so the database is opened and the
 * remembered settings read before the FX thread exists; {@link #stop()} saves the layout and stops the
 * worker and every console thread.
 */
public final class ConsoleApp extends Application {
    private static final Logger LOG = LoggerFactory.getLogger(ConsoleApp.class);

    static volatile DatabaseLocation databaseFile;
    static volatile Function<DatabaseLocation, ConsoleServices> servicesFactory = ConsoleServices::open;
    static volatile Path settingsDirectory;
    static volatile Consumer<ConsoleWindow> onShown = w -> { };
    /** The database being opened while the toolkit starts; null to open it in {@link #init()}. */
    static volatile CompletableFuture<ConsoleServices> opening;

    /** For tests that start the application themselves: the database file and the settings folder. */
    public static void configure(Path database, Path settingsFolder) {
        databaseFile = new DatabaseLocation.SqliteFile(database);
        settingsDirectory = settingsFolder;
        servicesFactory = ConsoleServices::open;
        opening = null;
        onShown = w -> { };
    }

    /** Starts opening the database on a thread of its own, so it overlaps the toolkit's start-up. */
    static void openInBackground() {
        CompletableFuture<ConsoleServices> future = new CompletableFuture<>();
        DatabaseLocation file = databaseFile;
        Function<DatabaseLocation, ConsoleServices> factory = servicesFactory;
        Thread t = new Thread(() -> {
            try {
                future.complete(factory.apply(file));
            } catch (RuntimeException | Error e) {
                future.completeExceptionally(e);
            }
        }, "claimdesk-open-database");
        t.setDaemon(true);
        t.start();
        opening = future;
    }

    private ConsoleServices services;
    private UiSettingsStore settingsStore;
    private UiSettings settings;
    private ConsoleWindow window;
    private RuntimeException failure;

    @Override
    public void init() {
        long started = System.nanoTime();
        settingsStore = new UiSettingsStore(settingsDirectory != null ? settingsDirectory : DataDirectory.home());
        settings = settingsStore.load();
        try {
            services = opening == null ? servicesFactory.apply(databaseFile) : opening.join();
            LOG.info("database {} ready {} ms after JVM start (waited {} ms in init)", databaseFile, sinceJvmStart(),
                    (System.nanoTime() - started) / 1_000_000);
        } catch (CompletionException e) {
            LOG.error("cannot open the database {}", databaseFile, e.getCause());
            failure = e.getCause() instanceof RuntimeException r ? r : e;
        } catch (RuntimeException e) {
            LOG.error("cannot open the database {}", databaseFile, e);
            failure = e;
        }
    }

    @Override
    public void start(Stage stage) {
        LOG.info("toolkit up {} ms after JVM start", sinceJvmStart());
        Thread.currentThread().setUncaughtExceptionHandler((t, e) -> LOG.error("uncaught on the FX thread", e));
        ConsoleWindow.applyTheme(settings.dark);
        if (failure instanceof IllegalArgumentException) {
            Dialogs.error(null, "ClaimDesk cannot start", failure.getMessage()
                    + "\n\nCorrect the setting and start ClaimDesk again; nothing was changed.");
            Platform.exit();
            return;
        }
        if (failure != null) {
            Dialogs.error(null, "ClaimDesk cannot open its database", failure.getMessage()
                    + "\n\nStart ClaimDesk with --db PATH to use another file.");
            Platform.exit();
            return;
        }
        services = services.withActor(operator());
        long started = System.nanoTime();
        window = new ConsoleWindow(stage, services, settings, settingsStore);
        window.show();
        LOG.info("console window built and shown in {} ms, {} ms after JVM start", (System.nanoTime() - started) / 1_000_000,
                sinceJvmStart());
        onShown.accept(window);
    }

    /**
     * The operator: from {@code CLAIMDESK_OPERATOR} if set, else the one chosen before, else asked now
     * (first start), the OS user offered. A new choice is saved and audited at once, off the FX thread.
     */
    private String operator() {
        String given = Operators.fromEnvironment();
        if (given != null) {
            return given;
        }
        if (settings.operator != null && !settings.operator.isBlank()) {
            return settings.operator;
        }
        String chosen = OperatorDialog.ask(Operators.osUser());
        settings.operator = chosen;
        UiSettings toSave = settings.copy();
        ConsoleServices opened = services;
        Thread audit = new Thread(() -> {
            try {
                settingsStore.save(toSave);
                Operators.recordChoice(opened.database(), java.time.Clock.systemUTC(), chosen, null);
            } catch (RuntimeException e) {
                LOG.error("cannot keep or audit the operator chosen at first start", e);
            }
        }, "claimdesk-save-operator");
        audit.setDaemon(true);
        audit.start();
        return chosen;
    }

    static long sinceJvmStart() {
        return System.currentTimeMillis() - java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime();
    }

    @Override
    public void stop() {
        if (window != null) {
            UiSettings captured = window.captureSettings();
            window.close();
            settingsStore.save(captured);
        }
        if (services != null) {
            services.close();
        }
        LOG.info("console closed");
    }
}
