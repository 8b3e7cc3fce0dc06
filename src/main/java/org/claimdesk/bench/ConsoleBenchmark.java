package org.claimdesk.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.claimdesk.app.DataDirectory;
import org.claimdesk.app.TemporaryFolders;
import org.claimdesk.bench.ui.ConsoleBenchRun;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.Json;
import org.claimdesk.ui.common.UiSettingsStore;

/**
 * {@code claimdesk bench ui}: prepares a temporary database, runs the real console on it in a child JVM
 * (under the X display in {@code $DISPLAY}, else headless Monocle when it is on the class path) with the
 * launcher's JVM options ({@link LauncherJavaOptions}) and returns what the child measured, with the set-up
 * figures and the options it ran with.
 */
public final class ConsoleBenchmark {
    static final long CHILD_LIMIT_MINUTES = 15;
    /**
     * When set (to anything), the measured console's output is copied to this process's standard error:
     * for diagnostics such as {@code -Djavafx.pulseLogger=true} passed through
     * {@value LauncherJavaOptions#OVERRIDE_ENV}.
     */
    public static final String ECHO_ENV = "CLAIMDESK_BENCH_ECHO";
    /**
     * The environment the installed menu entry starts the console with (installer/linux/ClaimDesk.desktop, whose
     * {@code Exec} line sets the same): the measured console gets it too. {@code GDK_GL=disable} keeps GTK from
     * probing OpenGL when it opens the display, which JavaFX does not need from it (the software pipeline draws
     * without OpenGL, the hardware one sets up its own): on a machine without a graphics card the probe loads
     * Mesa's software OpenGL and LLVM on the FX thread at every start.
     */
    static final Map<String, String> DESKTOP_ENVIRONMENT = Map.of("GDK_GL", "disable");

    private ConsoleBenchmark() {
    }

    /**
     * @param database the empty database to seed and measure on, which is kept; null for a temporary file
     */
    public static Map<String, Object> run(int claims, int outbox, int drain, DatabaseLocation database) {
        return run(claims, outbox, drain, database, LauncherJavaOptions.current());
    }

    static Map<String, Object> run(int claims, int outbox, int drain, DatabaseLocation database,
            LauncherJavaOptions javaOptions) {
        Path dir;
        try {
            dir = Files.createTempDirectory("claimdesk-bench-ui");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary folder: " + e.getMessage(), e);
        }
        try {
            DatabaseLocation db = database != null ? database : new DatabaseLocation.SqliteFile(dir.resolve("bench.db"));
            BenchData.Summary data = BenchData.prepare(db, claims, outbox, drain);
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("database", db instanceof DatabaseLocation.Postgres ? "PostgreSQL, " + db.describe()
                    : database != null ? "SQLite, " + db.describe() : "SQLite, a temporary file");
            result.put("claims", data.claims());
            result.put("outboxRows", data.outboxRows());
            result.put("drainRows", data.drainRows());
            result.put("prepareMs", data.millis());
            String display = System.getenv("DISPLAY");
            boolean monocle = display == null || display.isBlank();
            if (monocle && !monocleAvailable()) {
                throw new ClaimDeskException("bench ui needs a display: run it under xvfb-run (or with Monocle on the"
                        + " class path)");
            }
            result.put("display", monocle ? "Monocle headless" : "X display " + display);
            result.put("javaOptions", javaOptions.options());
            result.put("environment", new TreeMap<>(DESKTOP_ENVIRONMENT));
            result.put("javaOptionsFrom", javaOptions.source());
            result.put("concurrency", ConsoleBenchRun.CONCURRENCY);
            result.put("stateLatencyMs", ConsoleBenchRun.LATENCY.toMillis());
            result.putAll(child(dir, db, drain, monocle, javaOptions.options()));
            return result;
        } finally {
            TemporaryFolders.deleteQuietly(dir);
        }
    }

    static boolean monocleAvailable() {
        try {
            Class.forName("com.sun.glass.ui.monocle.MonoclePlatformFactory", false, ConsoleBenchmark.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> child(Path dir, DatabaseLocation db, int drain, boolean monocle, List<String> javaOptions) {
        String java = LauncherJavaOptions.java();
        List<String> command = new ArrayList<>(List.of(java, "-Dprism.order=sw", "-Dclaimdesk.operator=bench"));
        command.addAll(javaOptions);
        if (ModuleLayer.boot().findModule("javafx.graphics").isPresent()) {
            // the probe learns when a frame is painted from JavaFX's scene tracker, which the runtime's module does
            // not export (from a class path JavaFX is not a module and nothing needs opening)
            command.add("--add-exports=javafx.graphics/com.sun.javafx.perf=ALL-UNNAMED");
        }
        if (monocle) {
            command.addAll(List.of("-Dglass.platform=Monocle", "-Dmonocle.platform=Headless",
                    "-Dheadless.geometry=1600x1000-32", "-Dprism.text=t2k"));
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ConsoleBenchRun.class.getName(),
                Integer.toString(drain), dir.toString()));
        // the console's settings: the worker left off, the probe starts it when it measures the drain
        new UiSettingsStore(dir).update(kept -> kept.startWorker = false);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(DESKTOP_ENVIRONMENT);
        builder.environment().put("CLAIMDESK_HOME", dir.toString());
        builder.environment().put(DataDirectory.DB_ENV, ConsoleBenchRun.databaseSetting(db));
        try {
            Process process = builder.start();
            boolean echo = System.getenv(ECHO_ENV) != null;
            String json = null;
            List<String> tail = new ArrayList<>();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.startsWith(ConsoleBenchRun.MARKER)) {
                        json = line.substring(ConsoleBenchRun.MARKER.length());
                    } else {
                        if (echo) {
                            System.err.println(line);
                        }
                        tail.add(line);
                        if (tail.size() > 20) {
                            tail.remove(0);
                        }
                    }
                }
            }
            if (!process.waitFor(CHILD_LIMIT_MINUTES, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new ClaimDeskException("the console did not finish within " + CHILD_LIMIT_MINUTES + " minutes");
            }
            if (json == null) {
                throw new ClaimDeskException("the console ended (exit " + process.exitValue() + ") without a result: "
                        + String.join(" | ", tail));
            }
            return Json.mapper().readValue(json, LinkedHashMap.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run the console: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClaimDeskException("interrupted while the console ran");
        }
    }
}
