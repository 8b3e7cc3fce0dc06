package org.claimdesk.bench.ui;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import javafx.application.Platform;
import org.claimdesk.Launcher;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.claimdesk.ui.Console;
import org.claimdesk.ui.ConsoleServices;

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

    /** The {@code CLAIMDESK_DB} that names {@code database}: a file path, or a server address (never with a password). */
    public static String databaseSetting(DatabaseLocation database) {
        return database instanceof DatabaseLocation.Postgres server
                ? server.jdbcUrl() + (server.parameters().isEmpty() ? "?" : "&") + "user="
                        + URLEncoder.encode(server.role(), StandardCharsets.UTF_8)
                : ((DatabaseLocation.SqliteFile) database).file().toString();
    }

    /**
     * Arguments: rows to drain, settings folder (written beforehand, with the worker left off: the probe starts it
     * when it measures the drain). The database is {@code CLAIMDESK_DB} ({@link #databaseSetting}), and the console
     * starts through the launcher with no argument, as the desktop starts it.
     */
    public static void main(String[] args) {
        int drain = Integer.parseInt(args[0]);
        Path settings = Path.of(args[1]);
        int code = Launcher.run(db -> Console.open(db, location -> ConsoleServices.on(Database.open(location),
                new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable().withLatency(LATENCY)
                        .withTransientRate(0.02))),
                WorkerSettings.defaults().withConcurrency(CONCURRENCY).withInterval(Duration.ofMillis(500))),
                settings, window -> new BenchProbe(window, drain, result -> {
                    System.out.println(MARKER + Json.write(result));
                    System.out.flush();
                    Platform.exit();
                }).start()));
        System.exit(code);
    }
}
