package org.claimdesk.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.claimdesk.delivery.Drain;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.SubmissionPayload;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;

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
    static final int BASELINE_EVENTS_PER_TRANSACTION = 100;
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
                seed(db, events);
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
        double baselineSeconds = baselineRun(copy(seeded, dir.resolve("baseline.db")), events);
        double fullWorkSeconds = fullWorkRun(copy(seeded, dir.resolve("full.db")));
        Path file = copy(seeded, dir.resolve("worker.db"));
        double seconds = workerRun(file, events, latency, settings);
        long[] latencies = latencies(file);
        for (String name : new String[] {"baseline.db", "full.db", "worker.db"}) {
            deleteDatabase(dir.resolve(name));
        }
        double rate = events / seconds;
        double baselineRate = events / baselineSeconds;
        return new Measured(new Round(rate, baselineRate, rate / baselineRate, events / fullWorkSeconds), seconds,
                baselineSeconds, latencies);
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

    /** The yardstick: the same two updates per event, 100 events per transaction, no worker, no state. */
    private static double baselineRun(Path file, int events) {
        try (Database db = Database.open(file)) {
            return db.jdbi().withHandle(h -> {
                Connection c = h.getConnection();
                long started = System.nanoTime();
                try {
                    List<long[]> rows = new ArrayList<>(events);
                    try (PreparedStatement ps = c.prepareStatement(
                            "SELECT outbox_event_id, aggregate_id FROM outbox_event WHERE delivery_state = 'pending'"
                                    + " ORDER BY next_attempt_at, outbox_event_id");
                         ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            rows.add(new long[] {rs.getLong(1), rs.getLong(2)});
                        }
                    }
                    c.setAutoCommit(false);
                    try (PreparedStatement outbox = c.prepareStatement("""
                            UPDATE outbox_event SET delivery_state = 'sent', state_case_id = ?, sent_at = ?, attempts = 1,
                                lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
                            WHERE outbox_event_id = ?""");
                         PreparedStatement claim = c.prepareStatement("""
                            UPDATE claim SET status = 'SUBMITTED_TO_STATE', state_case_id = ?, version = version + 1,
                                updated_at = ?
                            WHERE claim_id = ?""")) {
                        int inTransaction = 0;
                        for (long[] row : rows) {
                            long now = System.currentTimeMillis();
                            String caseId = "CA-BENCH-" + row[0];
                            outbox.setString(1, caseId);
                            outbox.setLong(2, now);
                            outbox.setLong(3, now);
                            outbox.setLong(4, row[0]);
                            outbox.executeUpdate();
                            claim.setString(1, caseId);
                            claim.setLong(2, now);
                            claim.setLong(3, row[1]);
                            claim.executeUpdate();
                            if (++inTransaction == BASELINE_EVENTS_PER_TRANSACTION) {
                                c.commit();
                                inTransaction = 0;
                            }
                        }
                        c.commit();
                    } finally {
                        c.setAutoCommit(true);
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException("the baseline loop failed: " + e.getMessage(), e);
                }
                return (System.nanoTime() - started) / 1e9;
            });
        }
    }

    /**
     * Every write the worker makes per event, in a plain loop with no threads and no state: leases taken
     * 100 at a time, then per event the row, the claim, a history entry and an attempt; 100 events per
     * transaction.
     */
    private static double fullWorkRun(Path file) {
        try (Database db = Database.open(file)) {
            return db.jdbi().withHandle(h -> {
                Connection c = h.getConnection();
                long started = System.nanoTime();
                try {
                    c.setAutoCommit(false);
                    try (PreparedStatement lease = c.prepareStatement("""
                            UPDATE outbox_event SET lease_owner = 'loop', lease_expires_at = ?, updated_at = ?
                            WHERE outbox_event_id IN (SELECT outbox_event_id FROM outbox_event
                                WHERE delivery_state = 'pending' AND next_attempt_at <= ? AND lease_owner IS NULL
                                ORDER BY next_attempt_at, outbox_event_id LIMIT 100)
                            RETURNING outbox_event_id, aggregate_id, payload""");
                         PreparedStatement outbox = c.prepareStatement("""
                            UPDATE outbox_event SET delivery_state = 'sent', state_case_id = ?, sent_at = ?, attempts = 1,
                                lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
                            WHERE outbox_event_id = ? AND lease_owner = 'loop'""");
                         PreparedStatement claim = c.prepareStatement("""
                            UPDATE claim SET status = 'SUBMITTED_TO_STATE', state_case_id = ?,
                                decision_due_on = coalesce(decision_due_on, ?), version = version + 1, updated_at = ?
                            WHERE claim_id = ? AND status = 'SUBMITTING'""");
                         PreparedStatement history = c.prepareStatement("""
                            INSERT INTO claim_status_history (claim_id, from_status, to_status, actor, reason, at)
                            VALUES (?, 'SUBMITTING', 'SUBMITTED_TO_STATE', 'loop', ?, ?)""");
                         PreparedStatement attempt = c.prepareStatement("""
                            INSERT INTO delivery_attempt (outbox_event_id, attempt_no, started_at, duration_ms, outcome,
                                http_status, detail, worker_id) VALUES (?, 1, ?, 0, 'DELIVERED', 201, ?, 'loop')""")) {
                        while (true) {
                            long now = System.currentTimeMillis();
                            List<long[]> rows = new ArrayList<>();
                            lease.setLong(1, now + 60_000);
                            lease.setLong(2, now);
                            lease.setLong(3, now);
                            try (ResultSet rs = lease.executeQuery()) {
                                while (rs.next()) {
                                    rows.add(new long[] {rs.getLong(1), rs.getLong(2)});
                                    rs.getString(3);
                                }
                            }
                            if (rows.isEmpty()) {
                                break;
                            }
                            String dueOn = LocalDate.now().plusDays(180).toString();
                            for (long[] row : rows) {
                                String caseId = "CA-BENCH-" + row[0];
                                outbox.setString(1, caseId);
                                outbox.setLong(2, now);
                                outbox.setLong(3, now);
                                outbox.setLong(4, row[0]);
                                outbox.executeUpdate();
                                claim.setString(1, caseId);
                                claim.setString(2, dueOn);
                                claim.setLong(3, now);
                                claim.setLong(4, row[1]);
                                claim.executeUpdate();
                                history.setLong(1, row[1]);
                                history.setString(2, "state case id " + caseId);
                                history.setLong(3, now);
                                history.executeUpdate();
                                attempt.setLong(1, row[0]);
                                attempt.setLong(2, now);
                                attempt.setString(3, "201 accepted: case id " + caseId);
                                attempt.executeUpdate();
                            }
                            c.commit();
                        }
                    } finally {
                        c.setAutoCommit(true);
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException("the full-work loop failed: " + e.getMessage(), e);
                }
                return (System.nanoTime() - started) / 1e9;
            });
        }
    }

    /** N SUBMITTING claims and their pending submission rows, in one transaction. */
    static void seed(Database db, int events) {
        long now = System.currentTimeMillis();
        LocalDate filedOn = LocalDate.now().minusDays(30);
        db.useTransaction(h -> {
            Connection c = h.getConnection();
            try (PreparedStatement claim = c.prepareStatement("""
                    INSERT INTO claim (claim_id, claim_number, jurisdiction, state_property_id, holder_name, holder_id,
                        property_type, claim_type, claimant_name, tax_id, amount_cents, status, filed_on, version,
                        created_at, updated_at)
                    VALUES (?, ?, 'CA', ?, 'Wells Fargo Bank NA', 'HLD-100200', 'AC01', 'OWNER', ?, ?, 12345,
                        'SUBMITTING', ?, 1, ?, ?)""");
                 PreparedStatement outbox = c.prepareStatement("""
                    INSERT INTO outbox_event (aggregate_id, event_type, payload, delivery_state, attempts,
                        idempotency_key, next_attempt_at, created_at, updated_at)
                    VALUES (?, ?, ?, 'pending', 0, ?, ?, ?, ?)""")) {
                for (int i = 1; i <= events; i++) {
                    String number = String.format(Locale.ROOT, "UPC-BENCH-%07d", i);
                    String propertyId = Integer.toString(40_000_000 + i);
                    String claimant = "Bench Claimant " + i;
                    String key = "bench-" + i;
                    claim.setLong(1, i);
                    claim.setString(2, number);
                    claim.setString(3, propertyId);
                    claim.setString(4, claimant);
                    claim.setString(5, String.format(Locale.ROOT, "123-00-%04d", i % 10_000));
                    claim.setString(6, filedOn.toString());
                    claim.setLong(7, now);
                    claim.setLong(8, now);
                    claim.addBatch();
                    SubmissionPayload payload = new SubmissionPayload(i, key, number, "CA", propertyId,
                            "Wells Fargo Bank NA", "HLD-100200", "AC01", "OWNER", claimant,
                            String.format(Locale.ROOT, "%04d", i % 10_000), 12_345, filedOn.toString());
                    outbox.setLong(1, i);
                    outbox.setString(2, OutboxEvent.SUBMISSION_REQUESTED);
                    outbox.setString(3, Json.write(payload));
                    outbox.setString(4, key);
                    outbox.setLong(5, now);
                    outbox.setLong(6, now);
                    outbox.setLong(7, now);
                    outbox.addBatch();
                    if (i % 1_000 == 0 || i == events) {
                        claim.executeBatch();
                        outbox.executeBatch();
                    }
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot seed the benchmark database: " + e.getMessage(), e);
            }
        });
    }

    /** Milliseconds from each sent row's attempt start to the commit that recorded it, sorted. */
    private static long[] latencies(Path file) {
        try (Database db = Database.open(file)) {
            return db.read(h -> h.createQuery("""
                    SELECT o.sent_at - a.started_at FROM outbox_event o
                    JOIN delivery_attempt a ON a.outbox_event_id = o.outbox_event_id AND a.outcome = 'DELIVERED'
                    WHERE o.delivery_state = 'sent'""")
                    .mapTo(Long.class).stream().mapToLong(Long::longValue).sorted().toArray());
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
