package org.claimdesk.bench.ui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import org.claimdesk.Launcher;
import org.claimdesk.app.TemporaryFolders;
import org.claimdesk.ui.Console;
import org.claimdesk.ui.ConsoleServices;
import org.claimdesk.ui.ConsoleWindow;
import org.claimdesk.ui.main.Page;

/**
 * A start-up of the console that goes through every page and then closes, for the installer build: run
 * with {@code -XX:DumpLoadedClassList=FILE}, it lists the classes a start-up loads, from which the
 * installation writes its class-data sharing archive (see installer/README.md). Works headless (Monocle).
 * Arguments: a folder for the temporary database and settings, deleted afterwards; then, optionally,
 * {@code --db ADDRESS}: a team database with claims in it to go through instead of a new desk's file (the
 * build's second training, which adds a team start's classes to the list).
 */
public final class StartupTraining {
    /** Pulses to stay on each page, so that its rows, counts and details arrive and render. */
    private static final int PULSES_PER_PAGE = 30;
    /** A tour that has not ended by then has gone wrong: the build stops instead of waiting for ever. */
    private static final long LIMIT_SECONDS = 120;

    private static volatile boolean toured;

    private StartupTraining() {
    }

    public static void main(String[] args) throws IOException {
        Path parent = Path.of(args.length > 0 ? args[0] : System.getProperty("java.io.tmpdir"));
        Files.createDirectories(parent);
        Path dir = Files.createTempDirectory(parent, "claimdesk-training");
        // by default an empty file: the console fills it with demo data, as on a first start
        String db = args.length > 2 && args[1].equals("--db") ? args[2] : dir.resolve("training.db").toString();
        System.setProperty("claimdesk.operator", "installer-build");
        Thread limit = new Thread(() -> {
            try {
                Thread.sleep(LIMIT_SECONDS * 1_000);
            } catch (InterruptedException e) {
                return;
            }
            System.err.println("StartupTraining: the console did not go through its pages within " + LIMIT_SECONDS
                    + " s");
            Runtime.getRuntime().halt(1);
        }, "claimdesk-training-limit");
        limit.setDaemon(true);
        limit.start();
        // through the launcher's command line, so that the classes it loads are in the list too
        Launcher.run(location -> Console.open(location, ConsoleServices::open, dir, StartupTraining::tour),
                "--db", db);
        TemporaryFolders.deleteQuietly(dir);
        if (!toured) {
            System.err.println("StartupTraining: the console closed before it had shown every page");
        }
        System.exit(toured ? 0 : 1);
    }

    /** On the FX thread once the window is up: waits for the first claims, then shows each page in turn. */
    private static void tour(ConsoleWindow window) {
        Deque<Page> pages = new ArrayDeque<>(List.of(Page.OUTBOX, Page.WORKER, Page.AUDIT, Page.CLAIMS));
        new AnimationTimer() {
            private int pulses;

            @Override
            public void handle(long now) {
                if (window.claimsModel().rows().isEmpty() || ++pulses < PULSES_PER_PAGE) {
                    return;
                }
                pulses = 0;
                if (pages.isEmpty()) {
                    stop();
                    toured = true;
                    Platform.exit();
                    return;
                }
                window.mainModel().show(pages.poll());
            }
        }.start();
    }
}
