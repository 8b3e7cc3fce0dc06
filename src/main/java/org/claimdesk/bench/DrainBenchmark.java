package org.claimdesk.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.claimdesk.app.TemporaryFolders;
import org.claimdesk.delivery.Drain;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.BenchmarkStore;
import org.claimdesk.store.Database;

/**
 * {@code claimdesk bench drain}: N SUBMITTING claims and their pending rows, drained by the delivery
 * worker against the simulated state; then, on an identical database, a plain JDBC loop doing the same
 * two updates per event (row sent, claim SUBMITTED_TO_STATE with the case id), 100 events per
 * transaction, as the yardstick. The database is seeded once and copied for every run, so each run
 * starts from the same file. The measured round is preceded by warm-up rounds of the same size, so that
 * both sides are measured with their code compiled: the worker's per-batch code runs a few hundred
 * times per 100,000 events and is still being compiled during its first full-size drain, while the
 * yardstick's two-statement loop is compiled within its first few thousand events.
 */
public final class DrainBenchmark {
    public static final int DEFAULT_WARMUP_ROUNDS = 2;
    public static final int MAX_WARMUP_ROUNDS = 10;

    /**
     * One round: the worker, the yardstick and the full-work loop, each on a fresh copy of the seeded
     * database.
     */
    public record Round(double eventsPerSecond, double baselineEventsPerSecond, double ratioToBaseline,
            double fullWorkEventsPerSecond) {
    }

    /**
     * The measured round's figures, and the warm-up rounds' for comparison.
     *
     * @param seconds wall time of the worker's drain, start to idle
     * @param p50Ms median time from an attempt's start to the commit that recorded it
     * @param baselineEventsPerSecond the plain JDBC loop's rate on the same data
     * @param ratioToBaseline eventsPerSecond / baselineEventsPerSecond
     * @param fullWorkEventsPerSecond a plain JDBC loop doing every write the worker does per event
     *        (lease, row, claim, history, attempt), 100 events per transaction: the pipeline's overhead
     *        is the gap between this and {@code eventsPerSecond}
     * @param idealEventsPerSecond concurrency / latency, when the latency is not zero
     * @param warmupRounds the rounds run before the measured one, first to last (the first is the cold one)
     */
    public record Result(int events, long latencyMs, int concurrency, double seconds, double eventsPerSecond,
            long p50Ms, long p99Ms, double baselineSeconds, double baselineEventsPerSecond, double ratioToBaseline,
            double fullWorkEventsPerSecond, Double idealEventsPerSecond, List<Round> warmupRounds) {
    }

    public Result run(int events, Duration latency, int concurrency) {
        return run(events, latency, concurrency, DEFAULT_WARMUP_ROUNDS);
    }

    public Result run(int events, Duration latency, int concurrency, int warmupRounds) {
        if (events < 1 || events > 2_000_000) {
            throw new ClaimDeskException("the benchmark needs between 1 and 2,000,000 events, got " + events);
        }
        if (warmupRounds < 0 || warmupRounds > MAX_WARMUP_ROUNDS) {
            throw new ClaimDeskException("the benchmark takes between 0 and " + MAX_WARMUP_ROUNDS
                    + " warm-up rounds, got " + warmupRounds);
        }
        WorkerSettings settings = WorkerSettings.defaults().withConcurrency(concurrency)
                .withInterval(Duration.ofMillis(50));
        Path dir = tempDir();
        try {
            Path seeded = dir.resolve("seeded.db");
            try (Database db = Database.open(seeded)) {
                BenchmarkStore.seedSubmitting(db, events);
            }
            List<Round> warmups = new ArrayList<>();
            for (int i = 0; i < warmupRounds; i++) {
                warmups.add(round(seeded, dir, latency, settings, events).round);
            }
            Measured last = round(seeded, dir, latency, settings, events);
            Double ideal = latency.isZero() ? null : concurrency * 1000.0 / latency.toMillis();
            return new Result(events, latency.toMillis(), concurrency, last.seconds, last.round.eventsPerSecond(),
                    percentile(last.latencies, 50), percentile(last.latencies, 99), last.baselineSeconds,
                    last.round.baselineEventsPerSecond(), last.round.ratioToBaseline(),
                    last.round.fullWorkEventsPerSecond(), ideal, List.copyOf(warmups));
        } finally {
            TemporaryFolders.deleteQuietly(dir);
        }
    }

    private record Measured(Round round, double seconds, double baselineSeconds, long[] latencies) {
    }

    private static Measured round(Path seeded, Path dir, Duration latency, WorkerSettings settings, int events) {
        double baselineSeconds = onCopy(seeded, dir.resolve("baseline.db"), BenchmarkStore::twoUpdateLoop);
        double fullWorkSeconds = onCopy(seeded, dir.resolve("full.db"), BenchmarkStore::fullWorkLoop);
        Path file = copy(seeded, dir.resolve("worker.db"));
        double seconds = workerRun(file, events, latency, settings);
        long[] latencies;
        try (Database db = Database.open(file)) {
            latencies = BenchmarkStore.deliveryLatencies(db);
        }
        for (String name : new String[] {"baseline.db", "full.db", "worker.db"}) {
            deleteDatabase(dir.resolve(name));
        }
        double rate = events / seconds;
        double baselineRate = events / baselineSeconds;
        return new Measured(new Round(rate, baselineRate, rate / baselineRate, events / fullWorkSeconds), seconds,
                baselineSeconds, latencies);
    }

    /** One plain loop on a fresh copy of the seeded database: its seconds. */
    private static double onCopy(Path seeded, Path target, ToDoubleFunction<Database> loop) {
        try (Database db = Database.open(copy(seeded, target))) {
            return loop.applyAsDouble(db);
        }
    }

    /** A copy of the seeded database (closed, so its log is already in the file). */
    private static Path copy(Path seeded, Path target) {
        try {
            if (Files.exists(seeded.resolveSibling(seeded.getFileName() + "-wal"))) {
                throw new IllegalStateException("the seeded benchmark database still has a write-ahead log");
            }
            return Files.copy(seeded, target);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the benchmark database", e);
        }
    }

    private static void deleteDatabase(Path file) {
        try {
            for (String suffix : new String[] {"", "-wal", "-shm"}) {
                Files.deleteIfExists(file.resolveSibling(file.getFileName() + suffix));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete a benchmark database", e);
        }
    }

    private static double workerRun(Path file, int events, Duration latency, WorkerSettings settings) {
        try (Database db = Database.open(file)) {
            SimulatedState state = new SimulatedState(SimulatedState.Config.reliable().withLatency(latency));
            Drain.Summary summary = Drain.run(db, new SimulatedStateAdapter(state), settings, Deadlines.statutory(),
                    Clock.systemUTC(), true, Duration.ofMinutes(30), null);
            if (summary.sent() != events) {
                throw new IllegalStateException("the benchmark drain sent " + summary.sent() + " of " + events
                        + " events (" + summary.ending() + ")");
            }
            return summary.seconds();
        }
    }

    static long percentile(long[] sorted, int p) {
        if (sorted.length == 0) {
            return 0;
        }
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("claimdesk-bench");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary folder for the benchmark", e);
        }
    }
}
