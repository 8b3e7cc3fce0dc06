package org.claimdesk.ui;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.SchemaProgress;
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
 * The JavaFX application. {@link #init()} runs on the launcher thread: it takes the remembered settings and waits
 * for the database, each read or opened on a thread of its own while the toolkit starts, the database for at most a
 * second; an opening that takes longer is shown in the opening window until it ends. The FX thread loads the theme
 * meanwhile. With the database open and the operator known, init also builds the console's models and main view;
 * {@link #start(Stage)} puts them in the window. {@link #stop()} saves the layout and stops the worker and every
 * console thread.
 */
public final class ConsoleApp extends Application {
    private static final Logger LOG = LoggerFactory.getLogger(ConsoleApp.class);

    /**
     * How long {@link #init()} waits for the database before the toolkit goes on to show the opening window: an
     * opening that takes longer (a schema upgrade, a slow server) is shown, one that does not shows nothing.
     */
    static final long OPENING_WINDOW_AFTER_MS = 1_000;

    static volatile DatabaseLocation databaseFile;
    static volatile BiFunction<DatabaseLocation, SchemaProgress, ConsoleServices> servicesFactory = ConsoleServices::open;
    static volatile Path settingsDirectory;
    static volatile Consumer<ConsoleWindow> onShown = w -> { };
    /** A setting refused before anything was opened ({@link Console#cannotStart}): the application only says so. */
    static volatile IllegalArgumentException refusal;
    /** The database being opened while the toolkit starts; null to open it in {@link #init()}. */
    static volatile CompletableFuture<ConsoleServices> opening;
    /** What that opening is doing, for the opening window. */
    static volatile OpeningWindow.Progress openingProgress = new OpeningWindow.Progress();
    /**
     * The remembered settings being read beside that opening, while the toolkit starts; null to read them in
     * {@link #init()}. Their first read starts the JSON mapper, 90–150 ms of a cold start.
     */
    static volatile CompletableFuture<UiSettings> settingsReading;

    /** For tests that start the application themselves: the database file and the settings folder. */
    public static void configure(Path database, Path settingsFolder) {
        databaseFile = new DatabaseLocation.SqliteFile(database);
        settingsDirectory = settingsFolder;
        servicesFactory = ConsoleServices::open;
        opening = null;
        settingsReading = null;
        onShown = w -> { };
    }

    /** For tests: opens the configured database through {@code factory} on a thread of its own, as the launcher does. */
    public static void openInBackground(BiFunction<DatabaseLocation, SchemaProgress, ConsoleServices> factory) {
        servicesFactory = factory;
        openInBackground();
    }

    /**
     * Starts opening the database, and reading the remembered settings, each on a thread of its own, so that they
     * overlap the toolkit's start-up.
     */
    static void openInBackground() {
        DatabaseLocation file = databaseFile;
        BiFunction<DatabaseLocation, SchemaProgress, ConsoleServices> factory = servicesFactory;
        OpeningWindow.Progress progress = new OpeningWindow.Progress();
        openingProgress = progress;
        opening = onThreadOfItsOwn("claimdesk-open-database", () -> factory.apply(file, progress));
        UiSettingsStore store = settingsStore();
        settingsReading = onThreadOfItsOwn("claimdesk-read-settings", store::load);
    }

    /** What {@code work} returns or throws, worked out on a daemon thread named {@code name}. */
    private static <T> CompletableFuture<T> onThreadOfItsOwn(String name, Supplier<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(work.get());
            } catch (RuntimeException | Error e) {
                result.completeExceptionally(e);
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return result;
    }

    private static UiSettingsStore settingsStore() {
        return new UiSettingsStore(settingsDirectory != null ? settingsDirectory : DataDirectory.home());
    }

    private ConsoleServices services;
    /** Set by {@link #stop()}: an opening that ends afterwards builds no console. */
    private volatile boolean stopped;
    /** The operator chosen at first start, once its audit entry is written (the audit's own thread). */
    private volatile String auditedOperator;
    private UiSettingsStore settingsStore;
    private UiSettings settings;
    private ConsoleWindow window;
    /** Whether {@link #window} was put on screen (its layout is worth keeping). */
    private boolean windowShown;
    private RuntimeException failure;
    /** Why building the console in {@link #init()} failed, thrown again by {@link #start(Stage)}; or null. */
    private Throwable windowFailure;

    /**
     * Takes the settings (reads them, unless they are being read in the background) and waits for the database,
     * at most {@link #OPENING_WINDOW_AFTER_MS} when it is being opened in the background; {@link #start(Stage)}
     * shows the opening window if it is not open by then.
     */
    @Override
    public void init() {
        long started = System.nanoTime();
        settingsStore = settingsStore();
        settings = remembered(settingsStore);
        // the FX thread loads the theme while this thread waits for the database and builds the console
        ConsoleWindow.applyTheme(settings.dark);
        if (refusal != null) {
            failure = refusal;
            return;
        }
        if (opening == null) {
            try {
                opened(servicesFactory.apply(databaseFile, SchemaProgress.NONE), null, started, "in init");
            } catch (RuntimeException e) {
                opened(null, e, started, "in init");
            }
            buildWindowIfOperatorKnown();
            return;
        }
        try {
            opened(opening.get(OPENING_WINDOW_AFTER_MS, TimeUnit.MILLISECONDS), null, started, "in init");
            buildWindowIfOperatorKnown();
        } catch (TimeoutException e) {
            LOG.info("{} still opening {} ms after JVM start: the opening window shows it", named(databaseFile),
                    sinceJvmStart());
        } catch (ExecutionException e) {
            opened(null, e.getCause(), started, "in init");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            opened(null, e, started, "in init");
        }
    }

    /**
     * With the database open and the operator known without asking, builds the console here, on the launcher thread:
     * its models and main view, no scene and no window, as {@link Application#init()} allows. A first start, which
     * asks for the operator, builds it in {@link #start(Stage)}.
     */
    private void buildWindowIfOperatorKnown() {
        String operator = knownOperator();
        if (services == null || operator == null) {
            return;
        }
        long started = System.nanoTime();
        try {
            services = services.withActor(operator);
            window = new ConsoleWindow(services, settings, settingsStore);
            LOG.info("console built in {} ms, {} ms after JVM start", (System.nanoTime() - started) / 1_000_000,
                    sinceJvmStart());
        } catch (RuntimeException | Error e) {
            // reported as building it on the FX thread would be: start() throws it, and JavaFX ends the application
            windowFailure = e;
        }
    }

    /** The settings read beside the database's opening, or read now if they were not. */
    private static UiSettings remembered(UiSettingsStore store) {
        CompletableFuture<UiSettings> reading = settingsReading;
        settingsReading = null;
        if (reading != null) {
            try {
                return reading.join();
            } catch (CompletionException e) {
                LOG.warn("reading the console settings beside the database failed; reading them again", e.getCause());
            }
        }
        return store.load();
    }

    /** Keeps the opened services, or the reason they could not be opened. */
    private void opened(ConsoleServices opened, Throwable error, long started, String waitedWhere) {
        if (error == null) {
            services = opened;
            LOG.info("{} ready {} ms after JVM start (waited {} ms {})", named(databaseFile), sinceJvmStart(),
                    (System.nanoTime() - started) / 1_000_000, waitedWhere);
            return;
        }
        LOG.error("cannot open {}", named(databaseFile), error);
        failure = error instanceof RuntimeException r ? r : new IllegalStateException(error.getMessage(), error);
    }

    @Override
    public void start(Stage stage) {
        LOG.info("toolkit up {} ms after JVM start", sinceJvmStart());
        Thread.currentThread().setUncaughtExceptionHandler((t, e) -> LOG.error("uncaught on the FX thread", e));
        ConsoleWindow.applyTheme(settings.dark);
        if (services == null && failure == null) {
            long started = System.nanoTime();
            OpeningWindow waiting = OpeningWindow.show(databaseFile, openingProgress);
            opening.whenComplete((opened, error) -> Platform.runLater(() -> {
                if (stopped) {
                    // staff closed the opening window, which ended the application, before the database was open
                    if (opened != null) {
                        opened.close();
                    }
                    return;
                }
                opened(opened, error instanceof CompletionException c ? c.getCause() : error, started,
                        "with the opening window");
                try {
                    // the console's window (or the refusal) first: closing the only window would end the application
                    showConsole(stage);
                } catch (RuntimeException | Error e) {
                    // thrown here, out of an event, it would leave the opening window up and the application running
                    LOG.error("cannot build the console", e);
                    Dialogs.error(null, "ClaimDesk cannot start", "The console's window could not be built ("
                            + (e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName())
                            + "); the database was opened and nothing in it was changed. The log has the details.");
                    Platform.exit();
                } finally {
                    waiting.close();
                }
            }));
            return;
        }
        showConsole(stage);
    }

    private void showConsole(Stage stage) {
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
        if (windowFailure instanceof RuntimeException e) {
            throw e;
        }
        if (windowFailure instanceof Error e) {
            throw e;
        }
        long started = System.nanoTime();
        if (window == null) {
            services = services.withActor(operator());
            window = new ConsoleWindow(services, settings, settingsStore);
        }
        window.show(stage);
        windowShown = true;
        LOG.info("console window shown in {} ms, {} ms after JVM start", (System.nanoTime() - started) / 1_000_000,
                sinceJvmStart());
        onShown.accept(window);
    }

    /** The operator from {@code CLAIMDESK_OPERATOR} if set, else the one chosen before; null on a first start. */
    private String knownOperator() {
        String given = Operators.fromEnvironment();
        if (given != null) {
            return given;
        }
        if (settings.operator != null && !settings.operator.isBlank()) {
            return settings.operator;
        }
        return null;
    }

    /**
     * The operator: {@link #knownOperator()}, else asked now (first start), the OS user offered. A new choice is
     * audited, then kept in the settings, at once, off the FX thread: one the audit trail could not take is asked
     * for again at the next start.
     */
    private String operator() {
        String known = knownOperator();
        if (known != null) {
            return known;
        }
        String chosen = OperatorDialog.ask(Operators.osUser());
        ConsoleServices opened = services;
        Thread audit = new Thread(() -> {
            try {
                Operators.recordChoice(opened.database(), opened.clock(), chosen, null);
                // kept once audited, not before: in the file now, and in the settings the console saves as it closes
                auditedOperator = chosen;
                settingsStore.update(s -> s.operator = chosen);
            } catch (RuntimeException e) {
                LOG.error("cannot keep or audit the operator chosen at first start", e);
            }
        }, "claimdesk-save-operator");
        audit.setDaemon(true);
        audit.start();
        return chosen;
    }

    /**
     * The database as the log names it: "database" and its file, or the team database's name, server and role, as
     * the status bar names it (never a password).
     */
    private static String named(DatabaseLocation location) {
        return location instanceof DatabaseLocation.Postgres ? location.describe() : "database " + location.describe();
    }

    static long sinceJvmStart() {
        return System.currentTimeMillis() - java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime();
    }

    @Override
    public void stop() {
        stopped = true;
        if (window != null) {
            UiSettings captured = windowShown ? window.captureSettings() : null;
            window.close();
            if (captured != null) {
                if (captured.operator == null) {
                    captured.operator = auditedOperator;
                }
                settingsStore.save(captured);
            }
        }
        if (services != null) {
            services.close();
        }
        LOG.info("console closed");
    }
}
