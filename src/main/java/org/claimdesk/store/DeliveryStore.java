package org.claimdesk.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.DeliveryAttempt;
import org.jdbi.v3.core.Handle;

/**
 * The delivery worker's SQL: leasing due rows and writing the outcomes of many deliveries in one
 * transaction. Plain prepared statements, reused across a batch, because this is the hot path.
 * Every write to a leased row is guarded by {@code lease_owner}, so a worker whose lease was taken
 * over after it expired changes nothing.
 */
public final class DeliveryStore {
    /** The actor written to claim history and the audit trail for deliveries. */
    public static final String ACTOR = "delivery-worker";

    private static final String LEASE = """
            UPDATE outbox_event SET lease_owner = ?, lease_expires_at = ?, updated_at = ?
            WHERE outbox_event_id IN (
                SELECT outbox_event_id FROM outbox_event
                WHERE delivery_state = 'pending' AND next_attempt_at <= ?
                  AND (lease_owner IS NULL OR lease_expires_at <= ?)
                ORDER BY next_attempt_at, outbox_event_id
                LIMIT ?)
            RETURNING outbox_event_id, aggregate_id, event_type, payload, idempotency_key, attempts, retry_count
            """;

    /** The delivery statements prepared once on {@code handle}'s connection, for a worker's many transactions. */
    public Session session(Handle handle) {
        try {
            return new Session(handle.getConnection());
        } catch (SQLException e) {
            throw new IllegalStateException("cannot prepare the delivery statements: " + e.getMessage(), e);
        }
    }

    /**
     * The worker's hot statements, prepared once on one connection and reused across transactions
     * (preparing them for every transaction cost about a tenth of the committer's time). Not
     * thread-safe: one writer at a time.
     */
    public static final class Session implements AutoCloseable {
        private final PreparedStatement lease;
        private final PreparedStatement sent;
        private final PreparedStatement retry;
        private final PreparedStatement failed;
        private final PreparedStatement release;
        private final PreparedStatement claim;
        private final PreparedStatement history;
        private final PreparedStatement audit;
        private final PreparedStatement attempt;
        private final PreparedStatement jurisdiction;

        Session(Connection c) throws SQLException {
            this.lease = c.prepareStatement(LEASE);
            this.sent = c.prepareStatement("""
                UPDATE outbox_event SET delivery_state = 'sent', state_case_id = ?, sent_at = ?, attempts = ?,
                    retry_count = ?, last_error = NULL, lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
                WHERE outbox_event_id = ? AND lease_owner = ? AND delivery_state = 'pending'""");
            this.retry = c.prepareStatement("""
                UPDATE outbox_event SET attempts = ?, retry_count = ?, last_error = ?, next_attempt_at = ?,
                    lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
                WHERE outbox_event_id = ? AND lease_owner = ? AND delivery_state = 'pending'""");
            this.failed = c.prepareStatement("""
                UPDATE outbox_event SET delivery_state = 'failed', attempts = ?, retry_count = ?, last_error = ?,
                    lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
                WHERE outbox_event_id = ? AND lease_owner = ? AND delivery_state = 'pending'""");
            this.release = c.prepareStatement("""
                UPDATE outbox_event SET lease_owner = NULL, lease_expires_at = NULL
                WHERE outbox_event_id = ? AND lease_owner = ?""");
            this.claim = c.prepareStatement("""
                UPDATE claim SET status = 'SUBMITTED_TO_STATE', state_case_id = ?,
                    decision_due_on = coalesce(decision_due_on, ?), version = version + 1, updated_at = ?
                WHERE claim_id = ? AND status = 'SUBMITTING'""");
            this.history = c.prepareStatement("""
                INSERT INTO claim_status_history (claim_id, from_status, to_status, actor, reason, at)
                VALUES (?, 'SUBMITTING', 'SUBMITTED_TO_STATE', ?, ?, ?)""");
            this.audit = c.prepareStatement("""
                INSERT INTO audit_log (at, actor, action, subject_type, subject_id, reason, details)
                VALUES (?, ?, ?, ?, ?, NULL, ?)""");
            this.attempt = c.prepareStatement("""
                INSERT INTO delivery_attempt (outbox_event_id, attempt_no, started_at, duration_ms, outcome,
                    http_status, detail, worker_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)""");
            this.jurisdiction = c.prepareStatement("SELECT jurisdiction FROM claim WHERE claim_id = ?");
        }

        /**
         * Leases up to {@code limit} due rows (pending, due, not leased or lease expired) to
         * {@code owner} until {@code until}, in the caller's write transaction.
         */
        public List<LeasedRow> lease(String owner, Instant now, Instant until, int limit) {
            List<LeasedRow> rows = new ArrayList<>();
            try {
                lease.setString(1, owner);
                lease.setLong(2, until.toEpochMilli());
                lease.setLong(3, now.toEpochMilli());
                lease.setLong(4, now.toEpochMilli());
                lease.setLong(5, now.toEpochMilli());
                lease.setInt(6, limit);
                List<Object[]> raw = new ArrayList<>();
                try (ResultSet rs = lease.executeQuery()) {
                    while (rs.next()) {
                        raw.add(new Object[] {rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getInt(6), rs.getInt(7)});
                    }
                }
                Map<Long, String> jurisdictions = new HashMap<>();
                for (Object[] r : raw) {
                    long claimId = (Long) r[1];
                    rows.add(new LeasedRow((Long) r[0], claimId, (String) r[2], (String) r[3], (String) r[4],
                            (Integer) r[5], (Integer) r[6], until,
                            jurisdictions.computeIfAbsent(claimId, this::jurisdictionOf)));
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot lease outbox rows: " + e.getMessage(), e);
            }
            rows.sort((a, b) -> Long.compare(a.outboxEventId(), b.outboxEventId()));
            return rows;
        }

        private String jurisdictionOf(long claimId) {
            try {
                jurisdiction.setLong(1, claimId);
                try (ResultSet rs = jurisdiction.executeQuery()) {
                    return rs.next() ? rs.getString(1) : null;
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot read claim " + claimId + ": " + e.getMessage(), e);
            }
        }

        /**
         * Writes the outcome of each record (the caller's transaction). Returns, per record, whether
         * this owner still held the row's lease; when it did not, the row and its claim are left as they
         * are (another worker took the row over) and only the attempt is recorded.
         */
        public boolean[] complete(String owner, List<DeliveryRecord> records, Instant now) {
            boolean[] applied = new boolean[records.size()];
            long at = now.toEpochMilli();
            try {
                for (int i = 0; i < records.size(); i++) {
                    DeliveryRecord r = records.get(i);
                    int changed;
                    switch (r.kind()) {
                        case SENT -> {
                            sent.setString(1, r.caseId());
                            sent.setLong(2, at);
                            sent.setInt(3, r.attempts());
                            sent.setInt(4, r.retryCount());
                            sent.setLong(5, at);
                            sent.setLong(6, r.outboxEventId());
                            sent.setString(7, owner);
                            changed = sent.executeUpdate();
                            if (changed == 1) {
                                markClaimSubmitted(r, owner, at);
                            }
                        }
                        case RETRY -> {
                            retry.setInt(1, r.attempts());
                            retry.setInt(2, r.retryCount());
                            retry.setString(3, DeliveryAttempt.truncate(r.lastError()));
                            retry.setLong(4, r.nextAttemptAt().toEpochMilli());
                            retry.setLong(5, at);
                            retry.setLong(6, r.outboxEventId());
                            retry.setString(7, owner);
                            changed = retry.executeUpdate();
                        }
                        case FAILED -> {
                            failed.setInt(1, r.attempts());
                            failed.setInt(2, r.retryCount());
                            failed.setString(3, DeliveryAttempt.truncate(r.lastError()));
                            failed.setLong(4, at);
                            failed.setLong(5, r.outboxEventId());
                            failed.setString(6, owner);
                            changed = failed.executeUpdate();
                        }
                        case RELEASE -> {
                            release.setLong(1, r.outboxEventId());
                            release.setString(2, owner);
                            changed = release.executeUpdate();
                        }
                        default -> throw new IllegalStateException("unknown record kind " + r.kind());
                    }
                    applied[i] = changed == 1;
                    if (r.hasAttempt()) {
                        attempt.setLong(1, r.outboxEventId());
                        attempt.setInt(2, r.attempts());
                        attempt.setLong(3, r.startedAt().toEpochMilli());
                        attempt.setLong(4, r.durationMs());
                        attempt.setString(5, r.outcome().name());
                        if (r.httpStatus() == null) {
                            attempt.setNull(6, Types.INTEGER);
                        } else {
                            attempt.setInt(6, r.httpStatus());
                        }
                        String detail = applied[i] ? r.detail()
                                : "[lease lost: another worker had taken this row over; outcome not applied] " + r.detail();
                        attempt.setString(7, DeliveryAttempt.truncate(detail));
                        attempt.setString(8, owner);
                        attempt.executeUpdate();
                    }
                }
                return applied;
            } catch (SQLException e) {
                throw new IllegalStateException("cannot record delivery outcomes: " + e.getMessage(), e);
            }
        }

        /** SUBMITTING to SUBMITTED_TO_STATE; a claim already past SUBMITTING is left alone (idempotent success). */
        private void markClaimSubmitted(DeliveryRecord r, String owner, long at) throws SQLException {
            claim.setString(1, r.caseId());
            claim.setString(2, r.decisionDueOn() == null ? null : r.decisionDueOn().toString());
            claim.setLong(3, at);
            claim.setLong(4, r.claimId());
            if (claim.executeUpdate() != 1) {
                return;
            }
            history.setLong(1, r.claimId());
            history.setString(2, ACTOR);
            history.setString(3, "state case id " + r.caseId());
            history.setLong(4, at);
            history.executeUpdate();
            audit.setLong(1, at);
            audit.setString(2, ACTOR);
            audit.setString(3, AuditActions.CLAIM_DELIVERED);
            audit.setString(4, AuditActions.SUBJECT_CLAIM);
            audit.setString(5, Long.toString(r.claimId()));
            audit.setString(6, "{\"caseId\":" + Json.write(r.caseId()) + ",\"outboxEventId\":" + r.outboxEventId()
                    + ",\"idempotencyKey\":" + Json.write(r.idempotencyKey()) + ",\"worker\":" + Json.write(owner) + "}");
            audit.executeUpdate();
        }

        @Override
        public void close() {
            for (PreparedStatement ps : new PreparedStatement[] {lease, sent, retry, failed, release, claim, history,
                audit, attempt, jurisdiction}) {
                try {
                    ps.close();
                } catch (SQLException e) {
                    // closing a statement of a connection that is going away anyway
                }
            }
        }
    }

    /** Gives back every pending row {@code owner} still holds. */
    public int releaseAll(Handle handle, String owner) {
        return handle.createUpdate("""
                UPDATE outbox_event SET lease_owner = NULL, lease_expires_at = NULL
                WHERE delivery_state = 'pending' AND lease_owner = :owner""")
                .bind("owner", owner).execute();
    }

    /** Row counts for the worker's snapshot. */
    public record Counts(long pending, long due, long failed) {
    }

    public Counts counts(Handle handle, Instant now) {
        return handle.createQuery("""
                SELECT (SELECT count(*) FROM outbox_event WHERE delivery_state = 'pending'),
                       (SELECT count(*) FROM outbox_event WHERE delivery_state = 'pending' AND next_attempt_at <= :now),
                       (SELECT count(*) FROM outbox_event WHERE delivery_state = 'failed')""")
                .bind("now", now.toEpochMilli())
                .map((rs, ctx) -> new Counts(rs.getLong(1), rs.getLong(2), rs.getLong(3)))
                .one();
    }

    public long countSent(Handle handle) {
        return handle.createQuery("SELECT count(*) FROM outbox_event WHERE delivery_state = 'sent'")
                .mapTo(Long.class).one();
    }
}
