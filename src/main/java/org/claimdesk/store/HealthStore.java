package org.claimdesk.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
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

    /**
     * A value whose rows the database's tally counts differently from the table itself: a delivery state of the
     * outbox or a claim status, as the database writes it.
     */
    public record TallyDifference(String value, long tallied, long rows) {
    }

    /** What {@link #tallyDifferences} found, for each table with a tally; both empty when they agree. */
    public record Tallies(List<TallyDifference> outbox, List<TallyDifference> claims) {
        public boolean agree() {
            return outbox.isEmpty() && claims.isEmpty();
        }
    }

    /**
     * The outbox's delivery states and the claims' statuses whose tally, which staff's counts show, differs from a
     * count of the rows, all read by one statement (one snapshot); empty when they agree. The tallies are schema
     * version 12's and 13's on a team database, 16's on a file. Nothing is written: on a file the statement runs
     * outside a transaction, which would take the file's write lock, and on a team database in a read-only one, in
     * which the counts functions do not fold the tallies.
     */
    public Tallies tallyDifferences(Handle handle) {
        Dialect dialect = Dialect.of(handle);
        String query = comparison("outbox", "delivery_state", dialect.outboxCountsQuery(), Dialect.OUTBOX_ROWS_PER_STATE)
                + " UNION ALL " + comparison("claims", "status", dialect.claimCountsQuery(), Dialect.CLAIMS_PER_STATUS);
        HandleCallback<Tallies, RuntimeException> compare = h -> {
            Map<String, SortedMap<String, TallyDifference>> found = Map.of("outbox", new TreeMap<>(),
                    "claims", new TreeMap<>());
            h.createQuery(query).map((rs, ctx) -> Map.entry(rs.getString("tally"), new TallyDifference(
                    rs.getString("value"), rs.getLong("tallied"), rs.getLong("counted"))))
                    .forEach(e -> found.get(e.getKey()).put(e.getValue().value(), e.getValue()));
            return new Tallies(List.copyOf(found.get("outbox").values()), List.copyOf(found.get("claims").values()));
        };
        if (dialect == Dialect.SQLITE) {
            return compare.withHandle(handle);
        }
        return handle.inTransaction(TransactionIsolationLevel.REPEATABLE_READ, tx -> {
            tx.execute("SET TRANSACTION READ ONLY");
            return compare.withHandle(tx);
        });
    }

    /**
     * The rows of one tally ({@code name}) whose count differs from the rows': the tally's query and the rows' (each
     * with the value in {@code column} and its count in {@code n}) side by side, per value.
     */
    private static String comparison(String name, String column, String tallyQuery, String rowsQuery) {
        return "SELECT '" + name + "' AS tally, value, sum(tallied) AS tallied, sum(counted) AS counted FROM ("
                + "SELECT " + column + " AS value, n AS tallied, 0 AS counted FROM (" + tallyQuery + ") t"
                + " UNION ALL SELECT " + column + ", 0, n FROM (" + rowsQuery + ") r) c"
                + " GROUP BY value HAVING sum(tallied) <> sum(counted)";
    }

    /** A trigger the schema relies on, with the migration script that creates it. */
    public record Trigger(String name, String script) {
    }

    /**
     * What {@link #triggers} found: how many triggers the schema relies on, those missing and those present that do
     * not fire (a team database's owner can disable one).
     */
    public record Triggers(int expected, List<Trigger> missing, List<Trigger> notFiring) {
        public boolean inPlace() {
            return missing.isEmpty() && notFiring.isEmpty();
        }
    }

    /**
     * The triggers the migration scripts the database ran leave in place (the audit trail kept append-only, the
     * tallies, the search indexes, a team database's change feed) against the database's own.
     */
    public Triggers triggers(Handle handle) {
        return SchemaTriggers.compare(SchemaTriggers.created(SchemaTriggers.applied(handle)),
                SchemaTriggers.present(handle));
    }

    /** Rows of {@code table} whose foreign key names a missing row of {@code parent}. */
    public record Orphans(String table, String parent, long rows) {
    }

    /**
     * Rows whose foreign key names a missing parent, per table and parent. A file's foreign keys can be switched off
     * (another tool, an old version); a team database's can be bypassed too (a restore with {@code
     * --disable-triggers}, {@code session_replication_role = replica}), so there every single-column foreign key of
     * the schema is checked against its parent table.
     */
    public List<Orphans> orphans(Handle handle) {
        if (Dialect.of(handle) == Dialect.SQLITE) {
            return handle.createQuery("SELECT \"table\" AS child, parent, count(*) AS n FROM pragma_foreign_key_check"
                    + " GROUP BY \"table\", parent ORDER BY \"table\", parent")
                    .map((rs, ctx) -> new Orphans(rs.getString("child"), rs.getString("parent"), rs.getLong("n")))
                    .list();
        }
        List<Map<String, Object>> keys = handle.createQuery("""
                SELECT c.conrelid::regclass::text AS child, a.attname AS child_column,
                       c.confrelid::regclass::text AS parent, p.attname AS parent_column
                FROM pg_constraint c
                JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
                JOIN pg_attribute p ON p.attrelid = c.confrelid AND p.attnum = c.confkey[1]
                WHERE c.contype = 'f' AND cardinality(c.conkey) = 1
                  AND c.connamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
                ORDER BY 1, 3""").mapToMap().list();
        List<Orphans> found = new ArrayList<>();
        for (Map<String, Object> key : keys) {
            String child = (String) key.get("child");
            String parent = (String) key.get("parent");
            String column = quoted((String) key.get("child_column"));
            long rows = handle.createQuery("SELECT count(*) FROM " + child + " x WHERE x." + column + " IS NOT NULL"
                    + " AND NOT EXISTS (SELECT 1 FROM " + parent + " p WHERE p." + quoted((String) key.get(
                            "parent_column")) + " = x." + column + ")").mapTo(Long.class).one();
            if (rows > 0) {
                found.add(new Orphans(child, parent, rows));
            }
        }
        return found;
    }

    private static String quoted(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
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

    /**
     * Pending rows due since before {@code cutoff} that no worker holds now: due rows are taken at once by a running
     * worker (a failed attempt sets the next due time ahead, a re-queue makes the row due now), so these wait for a
     * worker that does not run or is paused. Rows waiting out their backoff are not counted.
     */
    public int pendingDueBefore(Handle handle, Instant cutoff, Instant now) {
        return handle.createQuery("""
                SELECT count(*) FROM outbox_event WHERE delivery_state = 'pending' AND next_attempt_at < :cutoff
                AND (lease_expires_at IS NULL OR lease_expires_at < :now)""")
                .bind("cutoff", cutoff.toEpochMilli()).bind("now", now.toEpochMilli()).mapTo(Integer.class).one();
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
