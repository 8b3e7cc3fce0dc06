package org.claimdesk.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.claimdesk.domain.DeliveryState;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;

/**
 * The reads behind {@code doctor}: SQLite's own checks and counts of rows in states that need a look, on either
 * engine (a server's own findings are {@link ServerHealthStore}'s). Reads only.
 */
public final class HealthStore {

    /** SQLite's integrity check, at most {@code max} problems; {@code ["ok"]} for a sound file. */
    public List<String> integrityProblems(Handle handle, int max) {
        return handle.createQuery("PRAGMA integrity_check(" + Math.max(1, max) + ")").mapTo(String.class).list();
    }

    public int userVersion(Handle handle) {
        if (Dialect.of(handle) != Dialect.SQLITE) {
            return handle.createQuery("SELECT coalesce(max(CAST(version AS integer)), 0) FROM flyway_schema_history"
                    + " WHERE success AND version IS NOT NULL").mapTo(Integer.class).one();
        }
        return Migrations.pragmaInt(handle, "user_version");
    }

    /** A delivery state whose rows the team database's tally counts differently from the outbox itself. */
    public record TallyDifference(DeliveryState state, long tallied, long rows) {
    }

    /**
     * On a team database, the delivery states whose tally (schema version 12, what staff's counts show) differs
     * from a count of the outbox's rows, both read in one snapshot; empty when they agree, and on a file, which
     * keeps no tally.
     */
    public List<TallyDifference> tallyDifferences(Handle handle) {
        if (Dialect.of(handle) != Dialect.POSTGRESQL) {
            return List.of();
        }
        return handle.inTransaction(TransactionIsolationLevel.REPEATABLE_READ, tx -> {
            // read only: the counts function does not fold the tally, and both reads see one moment
            tx.execute("SET TRANSACTION READ ONLY");
            Map<DeliveryState, Long> tallied = perState(tx, Dialect.POSTGRESQL.outboxCountsQuery());
            Map<DeliveryState, Long> rows = perState(tx, Dialect.OUTBOX_ROWS_PER_STATE);
            List<TallyDifference> differences = new ArrayList<>();
            for (DeliveryState state : DeliveryState.values()) {
                long inTally = tallied.getOrDefault(state, 0L);
                long counted = rows.getOrDefault(state, 0L);
                if (inTally != counted) {
                    differences.add(new TallyDifference(state, inTally, counted));
                }
            }
            return differences;
        });
    }

    private static Map<DeliveryState, Long> perState(Handle handle, String query) {
        Map<DeliveryState, Long> counts = new EnumMap<>(DeliveryState.class);
        handle.createQuery(query).map((rs, ctx) -> Map.entry(DeliveryState.fromDb(rs.getString(1)), rs.getLong(2)))
                .forEach(e -> counts.put(e.getKey(), e.getValue()));
        return counts;
    }

    /** One "table -> parent" line per row whose foreign key names a missing parent. */
    public List<String> orphans(Handle handle) {
        if (Dialect.of(handle) != Dialect.SQLITE) {
            // PostgreSQL's foreign keys cannot be switched off, so no row can name a missing parent
            return List.of();
        }
        return handle.createQuery("SELECT \"table\" || ' -> ' || parent FROM pragma_foreign_key_check")
                .mapTo(String.class).list();
    }

    /** Pending rows one worker leased whose lease has expired, and when the first of those leases expired. */
    public record ExpiredLeases(String worker, int rows, Instant firstExpired) {
    }

    /** Pending rows whose lease expired before {@code now} (a worker stopped mid-delivery), per worker. */
    public List<ExpiredLeases> expiredLeases(Handle handle, Instant now) {
        return handle.createQuery("""
                SELECT lease_owner, count(*) AS rows_held, min(lease_expires_at) AS first_expired FROM outbox_event
                WHERE delivery_state = 'pending' AND lease_owner IS NOT NULL AND lease_expires_at < :now
                GROUP BY lease_owner ORDER BY first_expired, lease_owner""")
                .bind("now", now.toEpochMilli())
                .map((rs, ctx) -> new ExpiredLeases(rs.getString("lease_owner"), rs.getInt("rows_held"),
                        Instant.ofEpochMilli(rs.getLong("first_expired"))))
                .list();
    }

    /** Pending rows queued before {@code cutoff}. */
    public int pendingQueuedBefore(Handle handle, Instant cutoff) {
        return handle.createQuery("""
                SELECT count(*) FROM outbox_event WHERE delivery_state = 'pending' AND created_at < :cutoff""")
                .bind("cutoff", cutoff.toEpochMilli()).mapTo(Integer.class).one();
    }

    /** SUBMITTING claims with no pending or failed outbox row: nothing will ever move them on. */
    public int submittingWithoutOpenRow(Handle handle) {
        return handle.createQuery("""
                SELECT count(*) FROM claim c WHERE c.status = 'SUBMITTING' AND NOT EXISTS (
                    SELECT 1 FROM outbox_event o WHERE o.aggregate_id = c.claim_id
                    AND o.delivery_state IN ('pending', 'failed'))""").mapTo(Integer.class).one();
    }

    /** Claims whose newest outbox row was sent while they are still SUBMITTING or READY_FOR_SUBMISSION. */
    public int sentButNotSubmitted(Handle handle) {
        return handle.createQuery("""
                SELECT count(*) FROM outbox_event o JOIN claim c ON c.claim_id = o.aggregate_id
                WHERE o.delivery_state = 'sent' AND c.status IN ('SUBMITTING', 'READY_FOR_SUBMISSION')
                AND NOT EXISTS (SELECT 1 FROM outbox_event o2 WHERE o2.aggregate_id = c.claim_id
                    AND o2.outbox_event_id > o.outbox_event_id)""").mapTo(Integer.class).one();
    }
}
