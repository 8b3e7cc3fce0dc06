package org.claimdesk.bench.ui;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import javafx.application.Platform;
import org.claimdesk.app.DataDirectory;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.claimdesk.ui.Console;
import org.claimdesk.ui.ConsoleServices;
import org.claimdesk.ui.common.UiSettingsStore;

/**
 * The measured side of {@code claimdesk bench ui}, in a JVM of its own so that {@code firstFrameMs} counts
 * from that JVM's start: opens the real console on the prepared database and prints one line,
 * {@code CONSOLE-BENCH <json>}, when the probe is done.
 */
public final class ConsoleBenchRun {
    public static final String MARKER = "CONSOLE-BENCH ";
    public static final int CONCURRENCY = 16;
    public static final Duration LATENCY = Duration.ofMillis(20);

    private ConsoleBenchRun() {
    }

    /** The first argument that names {@code database}: a file path, or a server address (never with a password). */
    public static String argument(DatabaseLocation database) {
        return database instanceof DatabaseLocation.Postgres server
                ? server.jdbcUrl() + (server.parameters().isEmpty() ? "?" : "&") + "user="
                        + URLEncoder.encode(server.role(), StandardCharsets.UTF_8)
                : ((DatabaseLocation.SqliteFile) database).file().toString();
    }

    /** Arguments: database ({@link #argument}), rows to drain, settings folder. */
    public static void main(String[] args) {
        DatabaseLocation db = DataDirectory.database(args[0]);
        int drain = Integer.parseInt(args[1]);
        Path settings = Path.of(args[2]);
        // the probe starts the worker itself, when it starts measuring the drain
        new UiSettingsStore(settings).update(kept -> kept.startWorker = false);
        Console.open(db, location -> ConsoleServices.on(Database.open(location),
                new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable().withLatency(LATENCY)
                        .withTransientRate(0.02))),
                WorkerSettings.defaults().withConcurrency(CONCURRENCY).withInterval(Duration.ofMillis(500))),
                settings, window -> new BenchProbe(window, drain, result -> {
                    System.out.println(MARKER + Json.write(result));
                    System.out.flush();
                    Platform.exit();
                }).start());
        System.exit(0);
    }
}
