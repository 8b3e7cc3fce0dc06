package org.claimdesk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.claimdesk.cli.ClaimDeskCommand;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.store.BenchmarkStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.DatabaseMove;
import org.claimdesk.testing.TestClaims;
import org.claimdesk.store.Json;
import org.claimdesk.testing.Sql;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The bench commands as the launcher adds them to the CLI: exit codes, output, refusals. */
class BenchCommandTest {

    record Run(int exit, String out, String err) {
        JsonNode json() throws Exception {
            return Json.mapper().readTree(out);
        }
    }

    static Run run(BenchCommand bench, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = ClaimDeskCommand.commandLine(null, List.of(bench));
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void benchUiRunsTheConsoleMeasurementAndPrintsItsFigures() throws Exception {
        List<int[]> calls = new ArrayList<>();
        BenchCommand bench = new BenchCommand((claims, outbox, drain, database) -> {
            calls.add(new int[] {claims, outbox, drain});
            assertThat(database).as("without --db the data goes into a temporary file").isNull();
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("firstFrameMs", 900);
            r.put("filterMs", 40);
            return r;
        });

        Run run = run(bench, "bench", "ui", "--claims", "1000", "--outbox", "800", "--drain", "100", "--json");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(calls).singleElement().satisfies(c -> assertThat(c).containsExactly(1000, 800, 100));
        assertThat(run.json().get("firstFrameMs").asInt()).isEqualTo(900);
        assertThat(run.json().get("filterMs").asInt()).isEqualTo(40);
    }

    @Test
    void benchUiRefusesBadSizesWithTheReason() {
        Run run = run(new BenchCommand((a, b, c, d) -> Map.of()), "bench", "ui", "--outbox", "5", "--drain", "6");

        assertThat(run.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(run.err()).contains("0 <= --drain <= --outbox");
        Run latency = run(new BenchCommand(), "bench", "drain", "--events", "10", "--latency-ms", "-1");
        assertThat(latency.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(latency.err()).isEqualTo("claimdesk: --latency-ms must not be negative\n");
    }

    @Test
    void benchUiSeedsTheDatabaseGivenWithDb(@TempDir Path dir) {
        List<DatabaseLocation> given = new ArrayList<>();
        BenchCommand bench = new BenchCommand((claims, outbox, drain, database) -> {
            given.add(database);
            return Map.of();
        });
        Path file = dir.resolve("kept.db");

        Run onFile = run(bench, "bench", "ui", "--db", file.toString(), "--claims", "10", "--outbox", "10", "--drain", "0");
        Run onServer = run(bench, "bench", "ui", "--db", "postgresql://bench@db.example:5433/claims", "--claims", "10",
                "--outbox", "10", "--drain", "0");

        assertThat(onFile.exit()).as(onFile.err()).isZero();
        assertThat(onServer.exit()).as(onServer.err()).isZero();
        assertThat(given).containsExactly(new DatabaseLocation.SqliteFile(file),
                new DatabaseLocation.Postgres("db.example", 5433, "claims", "bench", Map.of()));
    }

    @Test
    void benchUiRefusesADatabaseThatHoldsDataWithOneLineAndWritesNothing(@TempDir Path dir) {
        Path file = dir.resolve("busy.db");
        try (Database db = Database.open(file)) {
            TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
        }

        Run run = run(new BenchCommand(), "bench", "ui", "--db", file.toString(), "--claims", "10", "--outbox", "10",
                "--drain", "0");

        assertThat(run.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(run.err().strip()).doesNotContain("\n").contains("already holds claims")
                .contains("bench ui seeds an empty database");
        try (Database db = Database.open(file)) {
            assertThat(Sql.count(db, "claim")).isEqualTo(1);
            assertThat(Sql.count(db, "outbox_event")).isZero();
        }
    }

    @Test
    void theProductCliAloneHasNoBenchCommand() {
        StringWriter err = new StringWriter();
        int exit = ClaimDeskCommand.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), "bench", "ui");

        assertThat(exit).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(err.toString()).contains("Unmatched arguments").contains("'bench'");
    }

    @Test
    void benchDrainReportsThroughputLatencyAndTheBaselineSideBySide() throws Exception {
        Run run = run(new BenchCommand(), "bench", "drain", "--events", "300", "--latency-ms", "0", "--concurrency", "4",
                "--warmup-rounds", "1", "--json");

        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode json = run.json();
        assertThat(json.get("events").asInt()).isEqualTo(300);
        assertThat(json.get("warmupRounds")).hasSize(1);
        assertThat(json.get("warmupRounds").get(0).get("ratioToBaseline").asDouble()).isPositive();
        assertThat(json.get("seconds").asDouble()).isPositive();
        assertThat(json.get("eventsPerSecond").asDouble()).isPositive();
        assertThat(json.get("p99Ms").asLong()).isGreaterThanOrEqualTo(json.get("p50Ms").asLong());
        assertThat(json.get("baselineEventsPerSecond").asDouble()).isPositive();
        assertThat(json.get("fullWorkEventsPerSecond").asDouble()).isPositive();
        assertThat(json.get("ratioToBaseline").asDouble())
                .isCloseTo(json.get("eventsPerSecond").asDouble() / json.get("baselineEventsPerSecond").asDouble(),
                        org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void benchDrainRefusesAWarmUpItCannotRun() {
        Run tooMany = run(new BenchCommand(), "bench", "drain", "--events", "10", "--warmup-rounds", "11");

        assertThat(tooMany.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(tooMany.err()).contains("the benchmark takes between 0 and 10 warm-up rounds, got 11");
    }

    /** The measured console finds its database in CLAIMDESK_DB, as the desktop's start does: a file or a server. */
    @Test
    void theMeasuredConsolesDatabaseSettingNamesTheSameDatabase(@TempDir Path dir) {
        DatabaseLocation file = new DatabaseLocation.SqliteFile(dir.resolve("bench.db"));
        DatabaseLocation server = new DatabaseLocation.Postgres("127.0.0.1", 5433, "bench1m", "bench",
                Map.of("sslmode", "disable"));
        for (DatabaseLocation db : List.of(file, server)) {
            // CLAIMDESK_DB is read as --db is
            assertThat(org.claimdesk.app.DataDirectory.database(org.claimdesk.bench.ui.ConsoleBenchRun.databaseSetting(db)))
                    .isEqualTo(db);
        }
    }

    /**
     * The real console in a child JVM (headless Monocle from the test class path), on a small database: the
     * report names the options the console ran with, and the console's JVM did run with them (its heap is
     * bounded by the launcher's -Xmx).
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void benchUiMeasuresTheConsoleWithTheLaunchersOptionsAndReportsThem() throws Exception {
        LauncherJavaOptions launcher = LauncherJavaOptions.choose(null, null);
        assertThat(launcher.options()).contains("-Xmx192m");
        BenchCommand bench = new BenchCommand((claims, outbox, drain, database) -> ConsoleBenchmark.run(claims, outbox,
                drain, database, launcher));

        long started = System.nanoTime();
        Run run = run(bench, "bench", "ui", "--claims", "300", "--outbox", "300", "--drain", "20", "--json");

        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode json = run.json();
        List<String> options = new ArrayList<>();
        json.get("javaOptions").forEach(o -> options.add(o.asText()));
        assertThat(options).isEqualTo(launcher.options());
        assertThat(json.get("javaOptionsFrom").asText()).isEqualTo(launcher.source());
        // the environment the menu entry starts the console with
        assertThat(json.get("environment").get("GDK_GL").asText()).isEqualTo("disable");
        assertThat(json.get("maxHeapMb").asLong()).isBetween(1L, 192L);
        // measured, not "not measured: …"
        assertThat(json.get("firstFrameMs").isNumber()).as("firstFrameMs: %s", json.get("firstFrameMs")).isTrue();
        assertThat(json.get("firstFrameMs").asLong()).isPositive()
                .isLessThan(Duration.ofNanos(System.nanoTime() - started).toMillis());
        // the first frame is on screen once the renderer has painted it, after its pulse began
        assertThat(json.get("firstPulseMs").asLong()).isPositive()
                .isLessThan(json.get("firstFrameMs").asLong());
        // the first rows are laid out in the Claims page, which is built after the first frame's layout
        assertThat(json.get("firstRowsMs").asLong()).isGreaterThan(json.get("firstPulseMs").asLong());
        // each of the Outbox page's filters measured, the worst of them reported
        JsonNode outboxFilters = json.get("outboxFilterEachMs");
        List<String> measured = new ArrayList<>();
        outboxFilters.fieldNames().forEachRemaining(measured::add);
        assertThat(measured).containsExactly("sent / NY", "failed / CA", "any state / CA", "pending / any", "sent / any",
                "any state / any / \"no such answer\"", "sent / any / \"503\"");
        long worst = 0;
        for (String filter : measured) {
            long shown = outboxFilters.get(filter).asLong();
            assertThat(shown).as(filter).isPositive();
            worst = Math.max(worst, shown);
            // its parts: the rows in the table's list, then laid out, then the pulse after; the FX thread's time within
            long rows = json.get("outboxFilterRowsEachMs").get(filter).asLong();
            long laidOut = json.get("outboxFilterLaidOutEachMs").get(filter).asLong();
            assertThat(rows).as(filter).isNotNegative().isLessThanOrEqualTo(laidOut);
            assertThat(laidOut).as(filter).isLessThanOrEqualTo(shown);
            assertThat(json.get("outboxFilterFxCpuEachMs").get(filter).asLong()).as(filter)
                    .isNotNegative().isLessThanOrEqualTo(laidOut);
        }
        assertThat(json.get("outboxFilterMs").asLong()).isEqualTo(worst);
        // the first claim selected shows its detail, measured before the drain
        assertThat(json.get("firstDetailMs").isNumber()).as("firstDetailMs: %s", json.get("firstDetailMs")).isTrue();
        assertThat(json.get("firstDetailMs").asLong()).isPositive();
        assertThat(json.get("drainTimedOut").asBoolean()).isFalse();
        assertThat(json.get("drainRows").asInt()).isEqualTo(20);
    }

    /**
     * The real import in a child JVM with the launcher's options, on 2,000 generated rows into a kept database: the
     * report's counts match the file (one row in 200 invalid) and the database, and the child's memory figures come
     * from a JVM bounded by the launcher's -Xmx.
     */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void benchImportRunsTheImportInAChildJvmWithTheLaunchersOptionsAndReportsItsFigures(@TempDir Path dir)
            throws Exception {
        LauncherJavaOptions launcher = LauncherJavaOptions.current();
        Path db = dir.resolve("imported.db");

        Run run = run(new BenchCommand(), "bench", "import", "--rows", "2000", "--db", db.toString(), "--json");

        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode json = run.json();
        assertThat(json.get("rows").asInt()).isEqualTo(2000);
        assertThat(json.get("invalidRows").asInt()).isEqualTo(10);
        assertThat(json.get("imported").asInt()).isEqualTo(1990);
        assertThat(json.get("rejectedRows").asInt()).isEqualTo(10);
        assertThat(json.get("seconds").asDouble()).isPositive()
                .isLessThan(json.get("childSeconds").asDouble());
        assertThat(json.get("rowsPerSecond").asLong()).isPositive();
        assertThat(json.get("peakRssMb").asLong()).isPositive()
                .isGreaterThanOrEqualTo(json.get("rssMb").asLong());
        List<String> options = new ArrayList<>();
        json.get("javaOptions").forEach(o -> options.add(o.asText()));
        assertThat(options).isEqualTo(launcher.options());
        assertThat(json.get("javaOptionsFrom").asText()).isEqualTo(launcher.source());
        if (options.contains("-Xmx192m")) {
            assertThat(json.get("maxHeapMb").asLong()).isBetween(1L, 192L);
        }
        assertThat(json.get("database").asText()).isEqualTo(db.toString());
        try (Database imported = Database.open(db)) {
            assertThat(Sql.count(imported, "claim")).isEqualTo(1990);
            assertThat(Sql.count(imported, "audit_log")).isEqualTo(1);
        }
    }

    @Test
    void benchImportRefusesADatabaseThatExists(@TempDir Path dir) throws Exception {
        Path db = Files.createFile(dir.resolve("present.db"));

        Run run = run(new BenchCommand(), "bench", "import", "--rows", "10", "--db", db.toString());

        assertThat(run.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(run.err()).contains("imports into a new database").contains("exists");
    }

    /**
     * Several workers on a team database (the embedded PostgreSQL server), each in a JVM of its own started with the
     * launcher's options: both runs drain every seeded claim, the checks find every claim accepted once under one
     * key and nothing pending, the ratio is the one the rates give, and the database is left empty.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void benchDrainOnATeamDatabaseDrainsWithWorkersInTheirOwnJvmsAndChecksEveryClaimWasAcceptedOnce()
            throws Exception {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();

        Run run = run(new BenchCommand(), "bench", "drain", "--db", TestDatabase.url(location), "--workers", "2",
                "--events", "200", "--latency-ms", "5", "--concurrency", "4", "--json");

        assertThat(run.exit()).as(run.err() + run.out()).isZero();
        JsonNode json = run.json();
        assertThat(json.get("problems")).isEmpty();
        assertThat(json.get("events").asInt()).isEqualTo(200);
        assertThat(json.get("workers").asInt()).isEqualTo(2);
        JsonNode one = json.get("one");
        JsonNode many = json.get("many");
        assertThat(one.get("perWorker")).hasSize(1);
        assertThat(one.get("perWorker").get(0).get("sent").asLong()).isEqualTo(200);
        assertThat(many.get("perWorker")).hasSize(2);
        assertThat(many.get("perWorker").get(0).get("sent").asLong() + many.get("perWorker").get(1).get("sent").asLong())
                .isEqualTo(200);
        for (JsonNode r : List.of(one, many)) {
            assertThat(r.get("problems")).isEmpty();
            assertThat(r.get("statePosts").asLong()).isEqualTo(200);
            assertThat(r.get("attempts").asLong()).isEqualTo(200);
            assertThat(r.get("eventsPerSecond").asDouble()).isPositive();
            assertThat(r.get("steadyEventsPerSecond").asDouble()).isPositive();
            assertThat(r.get("callMsP99").asLong()).isGreaterThanOrEqualTo(r.get("callMsP50").asLong())
                    .isGreaterThanOrEqualTo(5);
        }
        assertThat(json.get("steadyRatio").asDouble()).isPositive();
        assertThat(json.get("ratio").asDouble()).isPositive().isCloseTo(
                many.get("eventsPerSecond").asDouble() / (2 * one.get("eventsPerSecond").asDouble()),
                org.assertj.core.data.Offset.offset(0.001));
        List<String> options = new ArrayList<>();
        json.get("javaOptions").forEach(o -> options.add(o.asText()));
        assertThat(options).isEqualTo(LauncherJavaOptions.current().options());
        try (Database db = Database.open(location)) {
            assertThat(DatabaseMove.isEmpty(db)).as("the bench empties the database it was given").isTrue();
        }
    }

    @Test
    void benchDrainRefusesATeamDatabaseThatHoldsClaims() {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();
        try (Database db = Database.open(location)) {
            BenchmarkStore.seedSubmitting(db, 1);
        }

        Run run = run(new BenchCommand(), "bench", "drain", "--db", TestDatabase.url(location), "--events", "10");

        assertThat(run.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(run.err().strip()).doesNotContain("\n").contains("needs an empty team database")
                .contains(location.database());
        assertThat(run.out()).isEmpty();
    }

    @Test
    void benchDrainRefusesWorkersWithoutATeamDatabaseAndAFileAsOne(@TempDir Path dir) {
        Run workers = run(new BenchCommand(), "bench", "drain", "--events", "10", "--workers", "2");
        Run file = run(new BenchCommand(), "bench", "drain", "--events", "10", "--db", dir.resolve("x.db").toString());

        assertThat(workers.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(workers.err()).contains("--workers needs --db postgresql://");
        assertThat(file.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(file.err()).contains("takes an empty team database");
        assertThat(dir.resolve("x.db")).doesNotExist();
    }
}
