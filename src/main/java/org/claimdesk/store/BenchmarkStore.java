package org.claimdesk.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.SubmissionPayload;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * The SQL the benchmarks ({@code org.claimdesk.bench}) run themselves, on temporary databases only: seeding
 * rows in bulk, the plain JDBC loops that {@code bench drain} measures the worker against, and the figures
 * read back afterwards. Nothing in the product calls it.
 */
public final class BenchmarkStore {
    /** Events per transaction in the plain JDBC loops. */
    public static final int LOOP_EVENTS_PER_TRANSACTION = 100;

    private BenchmarkStore() {
    }

    /** {@code events} SUBMITTING claims (ids 1..N) and their pending submission rows, due now, in one transaction. */
    public static void seedSubmitting(Database db, int events) {
        long now = System.currentTimeMillis();
        LocalDate filedOn = LocalDate.now().minusDays(30);
        db.useTransaction(h -> {
            Dialect.of(h).requireExplicitIds(h, "claim", "claim_id", "seed a benchmark");
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
            Dialect.of(h).afterExplicitIds(h, "claim", "claim_id");
        });
    }

    /**
     * The yardstick: for every pending row, the same two updates a delivery makes (row sent, claim
     * SUBMITTED_TO_STATE with the case id), {@value #LOOP_EVENTS_PER_TRANSACTION} events per transaction, no
     * worker, no state. Returns its seconds.
     */
    public static double twoUpdateLoop(Database db) {
        return db.jdbi().withHandle(h -> {
            Connection c = h.getConnection();
            long started = System.nanoTime();
            try {
                List<long[]> rows = new ArrayList<>();
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
                        if (++inTransaction == LOOP_EVENTS_PER_TRANSACTION) {
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

    /**
     * Every write the worker makes per event, in a plain loop with no threads and no state: leases taken
     * 100 at a time, then per event the row, the claim, a history entry and an attempt;
     * {@value #LOOP_EVENTS_PER_TRANSACTION} events per transaction. Returns its seconds.
     */
    public static double fullWorkLoop(Database db) {
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

    /** Milliseconds from each sent row's delivered attempt start to the commit that recorded it, sorted. */
    public static long[] deliveryLatencies(Database db) {
        return db.read(h -> h.createQuery("""
                SELECT o.sent_at - a.started_at FROM outbox_event o
                JOIN delivery_attempt a ON a.outbox_event_id = o.outbox_event_id AND a.outcome = 'DELIVERED'
                WHERE o.delivery_state = 'sent'""")
                .mapTo(Long.class).stream().mapToLong(Long::longValue).sorted().toArray());
    }

    public static int claimCount(Database db) {
        return db.read(h -> h.createQuery("SELECT count(*) FROM claim").mapTo(Integer.class).one());
    }

    public static int outboxRowCount(Database db) {
        return db.read(h -> h.createQuery("SELECT count(*) FROM outbox_event").mapTo(Integer.class).one());
    }

    /** Claims read and sent rows written per transaction by {@link #addSentSubmissions}. */
    static final int SENT_ROWS_PER_TRANSACTION = 5_000;

    /**
     * {@code extra} sent submission rows, dated a month back: for claims that have no outbox row (in claim order,
     * from the first again when there are fewer than {@code extra}), or the first 10,000 claims when every claim has
     * one. Written {@value #SENT_ROWS_PER_TRANSACTION} at a time: only the claims' ids are held, not the claims.
     */
    public static void addSentSubmissions(Database db, int extra) {
        if (extra <= 0) {
            return;
        }
        long[] without = db.read(h -> h.createQuery("""
                SELECT claim_id FROM claim c WHERE NOT EXISTS (SELECT 1 FROM outbox_event o WHERE o.aggregate_id = c.claim_id)
                ORDER BY claim_id""").mapTo(Long.class).stream().mapToLong(Long::longValue).toArray());
        long[] ids = without.length > 0 ? without : db.read(h -> h.createQuery(
                "SELECT claim_id FROM claim ORDER BY claim_id LIMIT 10000").mapTo(Long.class).stream()
                .mapToLong(Long::longValue).toArray());
        long at = Instant.now().minusSeconds(86_400L * 30).toEpochMilli();
        for (int from = 0; from < extra; from += SENT_ROWS_PER_TRANSACTION) {
            int first = from;
            int to = Math.min(extra, from + SENT_ROWS_PER_TRANSACTION);
            db.useTransaction(h -> {
                StringBuilder list = new StringBuilder("[");
                for (int i = first; i < to; i++) {
                    list.append(i == first ? "" : ",").append(ids[i % ids.length]);
                }
                Map<Long, Claim> claims = new HashMap<>();
                h.createQuery("SELECT * FROM claim WHERE " + Dialect.of(h).inList("claim_id", "ids", true))
                        .bind("ids", list.append(']').toString()).map(Rows.CLAIM)
                        .forEach(c -> claims.put(c.claimId(), c));
                PreparedBatch batch = h.prepareBatch("""
                        INSERT INTO outbox_event (aggregate_id, event_type, payload, delivery_state, attempts, idempotency_key,
                            next_attempt_at, created_at, sent_at, state_case_id, updated_at)
                        VALUES (:claim, :type, :payload, 'sent', 1, :key, :at, :at, :sent, :caseId, :sent)""");
                for (int i = first; i < to; i++) {
                    Claim c = claims.get(ids[i % ids.length]);
                    String key = "bench-sub-" + i;
                    batch.bind("claim", c.claimId()).bind("type", OutboxEvent.SUBMISSION_REQUESTED)
                            .bind("payload", Json.write(SubmissionPayload.of(c, key))).bind("key", key)
                            .bind("at", at + i).bind("sent", at + i + 400).bind("caseId", c.jurisdiction() + "-B-" + i)
                            .add();
                }
                batch.execute();
            });
        }
    }

    /**
     * The newest row of each of {@code claims} claims (the highest row ids first) becomes pending and due now;
     * its claim goes to SUBMITTING. Returns the rows made due.
     */
    public static int makeNewestRowsDue(Database db, int claims) {
        if (claims <= 0) {
            return 0;
        }
        return db.inTransaction(h -> {
            h.execute("CREATE TEMP TABLE bench_due AS SELECT max(outbox_event_id) AS id FROM outbox_event"
                    + " GROUP BY aggregate_id ORDER BY 1 DESC LIMIT " + claims);
            int rows = h.execute("""
                    UPDATE outbox_event SET delivery_state = 'pending', next_attempt_at = 0, sent_at = NULL,
                        state_case_id = NULL, last_error = NULL, lease_owner = NULL, lease_expires_at = NULL,
                        retry_count = 0
                    WHERE outbox_event_id IN (SELECT id FROM bench_due)""");
            h.execute("""
                    UPDATE claim SET status = 'SUBMITTING', state_case_id = NULL, decision_due_on = NULL,
                        version = version + 1
                    WHERE claim_id IN (SELECT aggregate_id FROM outbox_event WHERE outbox_event_id IN (SELECT id FROM bench_due))""");
            h.execute("DROP TABLE bench_due");
            return rows;
        });
    }
}
