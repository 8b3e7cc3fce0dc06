package org.claimdesk.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.claimdesk.app.TemporaryFolders;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;

/**
 * {@code claimdesk bench import}: writes a claims file of N rows ({@link ImportBenchData}) to a temporary folder,
 * creates a new database, and runs {@code claims import} on them in a child JVM started with the launcher's JVM
 * options ({@link LauncherJavaOptions}), so that time and memory are those of the import staff run, under its real
 * heap limit. The import's seconds exclude writing the file and the child JVM's start.
 */
public final class ImportBenchmark {
    public static final int MAX_ROWS = 5_000_000;
    static final long CHILD_LIMIT_MINUTES = 30;

    private ImportBenchmark() {
    }

    /** Into a temporary database, or into {@code database} (which must not exist; it is kept) when not null. */
    public static Map<String, Object> run(int rows, Path database) {
        return run(rows, database, LauncherJavaOptions.current());
    }

    static Map<String, Object> run(int rows, Path database, LauncherJavaOptions javaOptions) {
        if (rows < 1 || rows > MAX_ROWS) {
            throw new ClaimDeskException("bench import takes between 1 and " + MAX_ROWS + " rows, got " + rows);
        }
        if (database != null && Files.exists(database)) {
            throw new ClaimDeskException("bench import imports into a new database: " + database + " exists");
        }
        Path dir;
        try {
            dir = Files.createTempDirectory("claimdesk-bench-import");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary folder: " + e.getMessage(), e);
        }
        try {
            Path file = dir.resolve("claims.csv");
            Path db = database == null ? dir.resolve("bench.db") : database;
            long started = System.nanoTime();
            ImportBenchData.Summary data = ImportBenchData.write(file, rows, LocalDate.now(ZoneId.systemDefault()));
            double generateSeconds = (System.nanoTime() - started) / 1e9;
            try (Database created = Database.open(db)) {
                created.schemaVersion();
            }
            Map<String, Object> child = child(dir, db, file, javaOptions.options());
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("rows", data.rows());
            result.put("invalidRows", data.invalidRows());
            result.put("fileMb", round(data.bytes() / 1048576.0));
            result.put("generateSeconds", round(generateSeconds));
            result.putAll(outcome(child, data));
            result.put("javaOptions", javaOptions.options());
            result.put("javaOptionsFrom", javaOptions.source());
            result.put("databaseMb", round(databaseBytes(db) / 1048576.0));
            result.put("database", database == null ? null : db.toString());
            return result;
        } finally {
            TemporaryFolders.deleteQuietly(dir);
        }
    }

    /** The child's figures, checked: an import that failed or imported other rows than the file's is no measurement. */
    private static Map<String, Object> outcome(Map<String, Object> child, ImportBenchData.Summary data) {
        @SuppressWarnings("unchecked")
        Map<String, Object> report = (Map<String, Object>) child.get("report");
        if (report == null) {
            throw new ClaimDeskException("the import failed (exit " + child.get("exit") + "): " + child.get("error"));
        }
        long imported = number(report.get("imported"));
        long rejectedRows = number(report.get("rejectedRows"));
        if (imported != data.rows() - data.invalidRows() || rejectedRows != data.invalidRows()) {
            throw new ClaimDeskException("the import took " + imported + " row(s) and rejected " + rejectedRows
                    + " of " + data.rows() + ", of which " + data.invalidRows() + " are invalid: no measurement");
        }
        double seconds = ((Number) child.get("seconds")).doubleValue();
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("imported", imported);
        result.put("rejectedRows", rejectedRows);
        result.put("seconds", round(seconds));
        result.put("rowsPerSecond", Math.round(data.rows() / seconds));
        result.put("peakRssMb", child.get("peakRssMb"));
        result.put("rssMb", child.get("rssMb"));
        result.put("maxHeapMb", child.get("maxHeapMb"));
        result.put("childSeconds", child.get("childSeconds"));
        return result;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> child(Path dir, Path db, Path file, List<String> javaOptions) {
        String java = LauncherJavaOptions.java();
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(javaOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ImportBenchRun.class.getName(),
                db.toString(), file.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("CLAIMDESK_HOME", dir.resolve("home").toString());
        builder.environment().remove("CLAIMDESK_DB");
        long started = System.nanoTime();
        try {
            Process process = builder.start();
            String json = null;
            List<String> tail = new ArrayList<>();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.startsWith(ImportBenchRun.MARKER)) {
                        json = line.substring(ImportBenchRun.MARKER.length());
                    } else {
                        tail.add(line);
                        if (tail.size() > 20) {
                            tail.remove(0);
                        }
                    }
                }
            }
            if (!process.waitFor(CHILD_LIMIT_MINUTES, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new ClaimDeskException("the import did not finish within " + CHILD_LIMIT_MINUTES + " minutes");
            }
            if (json == null) {
                throw new ClaimDeskException("the import ended (exit " + process.exitValue() + ") without a result: "
                        + String.join(" | ", tail));
            }
            Map<String, Object> result = Json.mapper().readValue(json, LinkedHashMap.class);
            result.put("childSeconds", round((System.nanoTime() - started) / 1e9));
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run the import: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClaimDeskException("interrupted while the import ran");
        }
    }

    private static long databaseBytes(Path db) {
        long bytes = 0;
        for (String suffix : new String[] {"", "-wal"}) {
            Path p = db.resolveSibling(db.getFileName() + suffix);
            try {
                bytes += Files.exists(p) ? Files.size(p) : 0;
            } catch (IOException e) {
                // a log removed meanwhile
            }
        }
        return bytes;
    }

    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : -1;
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
