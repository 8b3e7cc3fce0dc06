package org.claimdesk.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.claimdesk.app.DataDirectory;
import org.claimdesk.cli.ClaimDeskCommand;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.Json;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code claimdesk bench drain|ui|import}: the benchmarks, added to the CLI by the launcher beside the product's own
 * commands. Their refusals reach the CLI's handler like any command's (exit 1, one line on standard error).
 */
@Command(name = "bench", description = "Measurements on temporary databases.", subcommands = {BenchCommand.BenchDrain.class, BenchCommand.BenchUi.class,
    BenchCommand.BenchImport.class, BenchCommand.BenchLive.class})
public final class BenchCommand {
    private final ConsoleBench consoleBench;

    /** The benchmarks as the launcher runs them: {@code bench ui} measures the real console. */
    public BenchCommand() {
        this(ConsoleBenchmark::run);
    }

    /** With another console measurement behind {@code bench ui}. */
    public BenchCommand(ConsoleBench consoleBench) {
        this.consoleBench = consoleBench;
    }

    /** What both subcommands print through: the command line's own writer, text or JSON. */
    abstract static class Output {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        PrintWriter out() {
            return spec.commandLine().getOut();
        }

        void printJson(Object value) {
            try {
                out().println(Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(value));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("cannot write JSON", e);
            }
            out().flush();
        }

        /** A bench's figures as JSON, or one "name value" line each. */
        void print(Map<String, Object> result, boolean json) {
            if (json) {
                printJson(result);
            } else {
                result.forEach((name, value) -> out().printf(Locale.ROOT, "%-16s %s%n", name, value));
                out().flush();
            }
        }
    }

    @Command(name = "drain", description = {
        "Measure the delivery worker's rate against a plain JDBC loop.",
        "Drain N pending rows against the simulated state on a temporary database, and run a plain JDBC loop doing",
        "the same two updates per event (100 per transaction) on an identical one, for comparison. Warm-up rounds",
        "of the same size come first; the last round is the one reported.",
        "",
        "With --db postgresql://… (an empty team database): seed N claims into it and drain them with one worker,",
        "then, from a fresh seed, with --workers workers, each in a JVM of its own with the launcher's options, all",
        "against one simulated state over HTTP on 127.0.0.1; report both rates and the ratio of the second to",
        "workers x the first, and check that every claim was accepted once under one key and nothing is pending",
        "(exit 1 when not). The database is emptied again afterwards."})
    static final class BenchDrain extends Output implements Callable<Integer> {
        static final int DEFAULT_WORKERS = 4;

        @Option(names = "--events", required = true, paramLabel = "N", description = "How many SUBMITTING claims to deliver.")
        int events;

        @Option(names = "--latency-ms", defaultValue = "0", paramLabel = "L", description = "Simulated state latency (default ${DEFAULT-VALUE}).")
        long latencyMs;

        @Option(names = "--concurrency", defaultValue = "8", paramLabel = "C", description = "Deliveries in flight (default ${DEFAULT-VALUE}).")
        int concurrency;

        @Option(names = "--warmup-rounds", paramLabel = "W", description = "Full-size rounds run before the measured"
                + " one (default " + DrainBenchmark.DEFAULT_WARMUP_ROUNDS + "; not with --db).")
        Integer warmupRounds;

        @Option(names = "--workers", paramLabel = "N", description = "With --db: workers draining at once, each in a"
                + " JVM of its own (default " + DEFAULT_WORKERS + ").")
        Integer workers;

        @Option(names = "--json", description = "Print the result as JSON.")
        boolean json;

        @Override
        public Integer call() {
            if (latencyMs < 0) {
                throw new org.claimdesk.cli.UsageException("--latency-ms must not be negative");
            }
            if (concurrency < 1 || concurrency > 256) {
                throw new org.claimdesk.cli.UsageException("concurrency must be between 1 and 256, got " + concurrency);
            }
            // --db is the command line's own option (every command takes it): here a team database to measure on
            String db = spec.root().findOption("--db").getValue();
            if (db != null && !db.isBlank()) {
                return team(db);
            }
            if (workers != null) {
                throw new org.claimdesk.cli.UsageException("--workers needs --db postgresql://…: several workstations' workers share"
                        + " a team database; without --db bench drain measures one worker on a temporary SQLite file");
            }
            DrainBenchmark.Result r = new DrainBenchmark().run(events, Duration.ofMillis(latencyMs), concurrency,
                    warmupRounds == null ? DrainBenchmark.DEFAULT_WARMUP_ROUNDS : warmupRounds);
            if (json) {
                printJson(r);
                return ClaimDeskCommand.EXIT_OK;
            }
            out().printf(Locale.ROOT, "simulated state, latency %d ms, concurrency %d%n", r.latencyMs(), r.concurrency());
            out().printf(Locale.ROOT, "worker:   %d events in %.3f s = %.0f events/s (p50 %d ms, p99 %d ms)%n", r.events(),
                    r.seconds(), r.eventsPerSecond(), r.p50Ms(), r.p99Ms());
            out().printf(Locale.ROOT, "baseline: %d events in %.3f s = %.0f events/s (plain JDBC, 2 updates per event, 100 per transaction)%n",
                    r.events(), r.baselineSeconds(), r.baselineEventsPerSecond());
            out().printf(Locale.ROOT, "full-work loop: %.0f events/s (plain JDBC, every write the worker makes per event, 100 per transaction)%n",
                    r.fullWorkEventsPerSecond());
            for (int i = 0; i < r.warmupRounds().size(); i++) {
                DrainBenchmark.Round w = r.warmupRounds().get(i);
                out().printf(Locale.ROOT, "warm-up round %d: worker %.0f, baseline %.0f events/s, ratio %.2f%n", i + 1,
                        w.eventsPerSecond(), w.baselineEventsPerSecond(), w.ratioToBaseline());
            }
            out().printf(Locale.ROOT, "ratio to baseline %.2f%s%n", r.ratioToBaseline(), r.idealEventsPerSecond() == null ? ""
                    : String.format(Locale.ROOT, "; ideal %.0f events/s (concurrency / latency), reached %.0f%%",
                            r.idealEventsPerSecond(), 100 * r.eventsPerSecond() / r.idealEventsPerSecond()));
            out().flush();
            return ClaimDeskCommand.EXIT_OK;
        }

        /** Several workers on the team database at {@code db}: {@link TeamDrainBenchmark}. */
        private int team(String db) {
            if (!(DatabaseLocation.parse(db) instanceof DatabaseLocation.Postgres server)) {
                throw new ClaimDeskException("bench drain --db takes an empty team database (postgresql://user@host:port/db);"
                        + " without --db it measures one worker on a temporary SQLite file");
            }
            if (warmupRounds != null) {
                throw new org.claimdesk.cli.UsageException("--warmup-rounds is for the temporary SQLite database; with --db each run"
                        + " starts fresh JVMs");
            }
            int n = workers == null ? DEFAULT_WORKERS : workers;
            TeamDrainBenchmark.Result r = new TeamDrainBenchmark(server, db, LauncherJavaOptions.current())
                    .run(events, Duration.ofMillis(latencyMs), concurrency, n);
            if (json) {
                printJson(r);
            } else {
                out().printf(Locale.ROOT, "%s, simulated state over HTTP, latency %d ms, concurrency %d per worker, %d events%n",
                        r.database(), r.latencyMs(), r.concurrency(), r.events());
                for (TeamDrainBenchmark.Run run : List.of(r.one(), r.many())) {
                    out().printf(Locale.ROOT, "%d worker(s): %.3f s = %.1f events/s; steady (10th-90th percentile)"
                            + " %.1f events/s; call p50 %d ms, p99 %d ms; sent per worker %s%n", run.workers(),
                            run.seconds(), run.eventsPerSecond(), run.steadyEventsPerSecond(), run.callMsP50(),
                            run.callMsP99(), run.perWorker().stream().map(TeamDrainBenchmark.Worker::sent).toList());
                }
                out().printf(Locale.ROOT, "ratio %.3f = %.1f / (%d x %.1f); steady ratio %.3f%n", r.ratio(),
                        r.many().eventsPerSecond(), r.workers(), r.one().eventsPerSecond(), r.steadyRatio());
                out().println(r.problems().isEmpty()
                        ? "checked: every claim accepted once by the state under one key, nothing pending"
                        : "CHECK FAILED (rows left in the database): " + String.join("; ", r.problems()));
                out().flush();
            }
            return r.problems().isEmpty() ? ClaimDeskCommand.EXIT_OK : ClaimDeskCommand.EXIT_REFUSED;
        }
    }

    @Command(name = "ui", description = {
        "Measure the console's start, filters, page switches and stalls during a drain.",
        "Run the real console (headless Monocle, or the X display in $DISPLAY) on a temporary database with",
        "the given claims and outbox rows, drain rows with live refresh, and report firstFrameMs, maxFxStallMs,",
        "filterMs (the Claims page), outboxFilterMs (the Outbox page) and rssMb. The console's JVM gets the",
        "launcher's options (javaOptions in the report): those of",
        "the installed launcher's .cfg, or the installer's list from a development jar; set",
        "CLAIMDESK_BENCH_JAVA_OPTIONS to give others (empty for the JVM's defaults). With --db FILE or",
        "--db postgresql://… the data is seeded into that database, which must be empty and is kept; without it",
        "into a temporary file."})
    static final class BenchUi extends Output implements Callable<Integer> {
        @ParentCommand
        BenchCommand parent;

        @Option(names = "--claims", defaultValue = "100000", paramLabel = "N", description = "Claims (default ${DEFAULT-VALUE}).")
        int claims;

        @Option(names = "--outbox", defaultValue = "100000", paramLabel = "N", description = "Outbox rows (default ${DEFAULT-VALUE}).")
        int outbox;

        @Option(names = "--drain", defaultValue = "20000", paramLabel = "N", description = "Rows the worker drains while the console refreshes (default ${DEFAULT-VALUE}).")
        int drain;

        @Option(names = "--json", description = "Print the result as JSON.")
        boolean json;

        @Override
        public Integer call() {
            if (claims < 1 || outbox < 0 || drain < 0 || drain > outbox) {
                throw new org.claimdesk.cli.UsageException("need --claims >= 1 and 0 <= --drain <= --outbox");
            }
            // --db is the command line's own option (every command takes it): here an empty database to seed
            String db = spec.root().findOption("--db").getValue();
            Map<String, Object> result = parent.consoleBench.run(claims, outbox, drain,
                    db == null || db.isBlank() ? null : DataDirectory.database(db));
            print(result, json);
            return ClaimDeskCommand.EXIT_OK;
        }
    }

    @Command(name = "live", description = {
        "Measure how soon a change on one workstation shows on another (team database).",
        "On the empty team database --db names (postgresql://…): add demo claims, then edit claims as one workstation",
        "while another hears each change through its live updates and reads the Claims page again. Reports the time",
        "from the start of each save to the change being heard (heard*) and to the page read again (pageRead*)."})
    static final class BenchLive extends Output implements Callable<Integer> {
        @Option(names = "--changes", defaultValue = "200", paramLabel = "N", description = "Edits to time (default ${DEFAULT-VALUE}).")
        int changes;

        @Option(names = "--json", description = "Print the result as JSON.")
        boolean json;

        @Override
        public Integer call() throws InterruptedException {
            String db = spec.root().findOption("--db").getValue();
            if (!(org.claimdesk.app.DataDirectory.database(db) instanceof org.claimdesk.store.DatabaseLocation.Postgres server)) {
                throw new IllegalArgumentException("bench live measures a team database: give --db postgresql://…");
            }
            if (changes < 1) {
                throw new org.claimdesk.cli.UsageException("--changes must be at least 1");
            }
            print(LiveBenchmark.run(server, changes), json);
            return ClaimDeskCommand.EXIT_OK;
        }
    }

    @Command(name = "import", description = {
        "Measure claims import: its time and peak memory over a generated file.",
        "Write a claims file of N rows (names in many scripts, quoted fields with commas, one row in 200 invalid) to a",
        "temporary folder and run claims import on it into a new database, in a child JVM with the launcher's options",
        "(javaOptions in the report; CLAIMDESK_BENCH_JAVA_OPTIONS gives others). Reports the import's seconds (writing",
        "the file and the JVM's start excluded), rows/s and the child's peak resident set (peakRssMb). With --db FILE the",
        "import goes into that new database, which is kept; without it into a temporary one."})
    static final class BenchImport extends Output implements Callable<Integer> {
        @Option(names = "--rows", required = true, paramLabel = "N", description = "Rows in the claims file.")
        int rows;

        @Option(names = "--json", description = "Print the result as JSON.")
        boolean json;

        @Override
        public Integer call() {
            // --db is the command line's own option (every command takes it): here a new database to keep
            String db = spec.root().findOption("--db").getValue();
            Map<String, Object> result = ImportBenchmark.run(rows, db == null || db.isBlank() ? null : Path.of(db));
            print(result, json);
            return ClaimDeskCommand.EXIT_OK;
        }
    }
}
