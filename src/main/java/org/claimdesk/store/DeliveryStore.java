package org.claimdesk.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.Transitions;
import org.jdbi.v3.core.Handle;

/**
 * The delivery worker's SQL: leasing due rows and writing the outcomes of many deliveries in one
 * transaction. Plain prepared statements, reused across a batch, because this is the hot path.
 * Every write to a leased row is guarded by the lease it was made under ({@code lease_owner} and
 * {@code lease_expires_at}), so a worker whose lease was taken over after it expired changes nothing, and
 * neither does an outcome of an earlier lease of a row the same worker has leased again since.
 *
 * <p>A lease returns only the rows' ids; what a sender needs of each row (payload, key, attempts, the
 * claim's jurisdiction) is read by {@link #leased} after the lease is committed, on another connection.
 * The worker's one writer is what limits a fast drain, and copying every payload out inside its
 * transaction cost it about as much as the lease's own writes.
 */
public final class DeliveryStore {
    /** The actor written to a claim's status history when the worker moves it to SUBMITTED_TO_STATE. */
    public static final String ACTOR = "delivery-worker";

    /** The one status change the worker writes, taken from the transition table. */
    private static final Transitions.Change DELIVERED = Transitions.DELIVERED;

    /**
     * The due rows a lease takes, in due order, on PostgreSQL locked, skipping rows another worker is leasing at this
     * moment ({@link Dialect#lockRows}), so that workers on several workstations never lease one row twice; on SQLite
     * one writer at a time does the same. Whether a lease has expired is compared in the clock leases are written in
     * ({@link Dialect#leaseClock}), so that a workstation whose clock runs ahead does not take over a row whose lease
     * is still running for another. Parameters: now on the worker's clock (for the due time), then on SQLite now
     * again, and the limit.
     */
    static String dueSql(Dialect dialect) {
        String clock = dialect.leaseClock();
        return """
            SELECT outbox_event_id FROM outbox_event
            WHERE delivery_state = 'pending' AND next_attempt_at <= ?
              AND (lease_owner IS NULL OR lease_expires_at <= %s)
            ORDER BY next_attempt_at, outbox_event_id
            LIMIT ?%s""".formatted(clock == null ? "?" : clock, dialect.lockRows());
    }

    /**
     * Leases the rows {@link #dueSql} found, in the same transaction, and returns the lease's end (one for every row
     * of the statement). Parameters: the owner, the lease's end (SQLite) or length in ms (PostgreSQL), now, and the
     * rows' ids as a JSON array.
     */
    static String takeSql(Dialect dialect) {
        String clock = dialect.leaseClock();
        return "UPDATE outbox_event SET lease_owner = ?, lease_expires_at = " + (clock == null ? "?" : clock + " + ?")
                + ", updated_at = ? WHERE " + dialect.inList("outbox_event_id", true) + " RETURNING lease_expires_at";
    }

    /** The leased rows' read of each engine, written once: the worker runs it for every lease. */
    private static final Map<Dialect, String> LEASED = new EnumMap<>(Map.of(
            Dialect.SQLITE, leasedSql(Dialect.SQLITE), Dialect.POSTGRESQL, leasedSql(Dialect.POSTGRESQL)));

    static String leasedSql(Dialect dialect) {
        String rows = dialect == Dialect.SQLITE
                // the ids first: SQLite then reads each row by its key instead of scanning
                ? "json_each(:ids) AS k CROSS JOIN outbox_event o ON o.outbox_event_id = k.value"
                : "outbox_event o";
        String ids = dialect == Dialect.SQLITE ? "" : " AND " + dialect.inList("o.outbox_event_id", "ids", true);
        return """
            SELECT o.outbox_event_id, o.aggregate_id, o.event_type, o.payload, o.idempotency_key, o.attempts,
                o.retry_count, o.lease_expires_at, c.jurisdiction,
                CASE WHEN c.status = 'SUBMITTING' THEN c.state_case_id END
            FROM %s
            LEFT JOIN claim c ON c.claim_id = o.aggregate_id
            WHERE o.lease_owner = :owner AND o.delivery_state = 'pending'%s
            ORDER BY o.outbox_event_id
            """.formatted(rows, ids);
    }

    /** Page cache of the worker's writer connection, in KiB (SQLite's default is 2,000). */
    static final int WRITER_CACHE_KIB = 16_384;

    /**
     * Sets up the connection a worker writes on for its stream of transactions: its own automatic
     * checkpoint raised ({@link WalCheckpointer}), a page cache that holds what a batch touches (SQLite's
     * default 2 MB is smaller than that, and the writer would read back pages it has just written), and
     * temporary tables in memory (the lease's and the outcomes' intermediate results would otherwise go to
     * temporary files that SQLite creates and deletes inside the statements). {@link #restoreWriter} undoes it before the connection
     * goes back to the pool.
     */
    public static void prepareWriter(Handle handle) {
        prepareWriter(handle, null);
    }

    /**
     * How long a worker's write on a team database waits for the server's answer before its connection is given up:
     * a server gone silent mid-statement (a crash, a failover, a session a firewall dropped) would otherwise hold the
     * worker's writes, and its quitting, for the two hours and more of the system's keepalive. The worker's
     * statements take milliseconds, and a wait for a row's lock ends sooner ({@code lock_timeout}).
     */
    public static final java.time.Duration WRITER_ANSWER_WITHIN = java.time.Duration.ofSeconds(60);

    /**
     * As {@link #prepareWriter(Handle)}, a team server's answer awaited {@code answerWithin} at most (null: the
     * pool's own time, as an import's batches take it).
     */
    public static void prepareWriter(Handle handle, java.time.Duration answerWithin) {
        if (Dialect.of(handle) != Dialect.SQLITE) {
            if (answerWithin != null) {
                answerWithin(handle, (int) answerWithin.toMillis());
            }
            return;
        }
        WalCheckpointer.setAutocheckpoint(handle, WalCheckpointer.WRITER_AUTOCHECKPOINT_PAGES);
        handle.execute("PRAGMA cache_size = -" + WRITER_CACHE_KIB);
        handle.execute("PRAGMA temp_store = MEMORY");
    }

    public static void restoreWriter(Handle handle) {
        if (Dialect.of(handle) != Dialect.SQLITE) {
            // the pool sets a connection's answer time back to its own as the connection returns
            return;
        }
        WalCheckpointer.setAutocheckpoint(handle, WalCheckpointer.DEFAULT_AUTOCHECKPOINT_PAGES);
        handle.execute("PRAGMA cache_size = -2000");
        handle.execute("PRAGMA temp_store = DEFAULT");
    }

    /** The delivery statements prepared once on {@code handle}'s connection, for a worker's many transactions. */
    public Session session(Handle handle) {
        try {
            return new Session(handle.getConnection(), Dialect.of(handle));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot prepare the delivery statements: " + e.getMessage(), e);
        }
    }

    /**
     * The worker's hot statements, prepared once on one connection and reused across transactions
     * (preparing them for every transaction cost about a tenth of the committer's time). The outcomes of
     * delivered rows are written set-wise: one multi-row statement per table for a whole batch, instead
     * of one execution per row and table. Not thread-safe: one writer at a time.
     */
    public static final class Session implements AutoCloseable {
        private final Dialect dialect;
        private final Connection connection;
        private final PreparedStatement due;
        private final PreparedStatement take;
        private final PreparedStatement retry;
        private final PreparedStatement failed;
        private final PreparedStatement release;
        private final MultiRowStatement sent;
        private final MultiRowStatement claims;
        private final MultiRowStatement history;
        private final MultiRowStatement attempts;

        Session(Connection c, Dialect dialect) throws SQLException {
            this.dialect = dialect;
            this.connection = c;
            this.due = c.prepareStatement(dueSql(dialect));
            this.take = c.prepareStatement(takeSql(dialect));
            this.retry = c.prepareStatement("""
                UPDATE outbox_event SET attempts = ?, retry_count = ?, last_error = ?, next_attempt_at = ?,
                    lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
                WHERE outbox_event_id = ? AND lease_owner = ? AND lease_expires_at = ? AND delivery_state = 'pending'""");
            this.failed = c.prepareStatement("""
                UPDATE outbox_event SET delivery_state = 'failed', attempts = ?, retry_count = ?, last_error = ?,
                    lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
                WHERE outbox_event_id = ? AND lease_owner = ? AND lease_expires_at = ? AND delivery_state = 'pending'""");
            this.release = c.prepareStatement("""
                UPDATE outbox_event SET lease_owner = NULL, lease_expires_at = NULL
                WHERE outbox_event_id = ? AND lease_owner = ? AND lease_expires_at = ?""");
            // ?1 now, ?2 lease owner; rows (outbox_event_id, case id, attempts, retry_count, the lease's end)
            this.sent = new MultiRowStatement(c, """
                UPDATE outbox_event SET delivery_state = 'sent', state_case_id = v.column2, sent_at = ?1,
                    attempts = v.column3, retry_count = v.column4, last_error = NULL, lease_owner = NULL,
                    lease_expires_at = NULL, updated_at = ?1
                FROM (VALUES %s) AS v
                WHERE outbox_event_id = v.column1 AND lease_owner = ?2 AND lease_expires_at = v.column5
                    AND delivery_state = 'pending'
                RETURNING outbox_event_id""", 2, 5);
            // ?1 now; rows (claim_id, case id, decision due on)
            // the status change is Transitions.DELIVERED, checked against the table when it was made; a delivery is
            // always a new filing (an amended claim's too, rejected before), so its decision date is set anew
            this.claims = new MultiRowStatement(c, """
                UPDATE claim SET status = '%2$s', state_case_id = v.column2,
                    decision_due_on = v.column3, version = version + 1, updated_at = ?1
                FROM (VALUES %%s) AS v
                WHERE claim_id = v.column1 AND status = '%1$s'
                RETURNING claim_id""".formatted(DELIVERED.from().name(), DELIVERED.to().name()), 1, 3);
            // ?1 actor, ?2 now; rows (claim_id, reason)
            this.history = new MultiRowStatement(c, """
                INSERT INTO claim_status_history (claim_id, from_status, to_status, actor, reason, at)
                SELECT v.column1, '%1$s', '%2$s', ?1, v.column2, ?2 FROM (VALUES %%s) AS v"""
                    .formatted(DELIVERED.from().name(), DELIVERED.to().name()), 2, 2);
            // ?1 worker; rows (outbox_event_id, attempt_no, started_at, duration_ms, outcome, http_status, detail,
            // field)
            this.attempts = new MultiRowStatement(c, """
                INSERT INTO delivery_attempt (outbox_event_id, attempt_no, started_at, duration_ms, outcome,
                    http_status, detail, worker_id, field)
                SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7, ?1, v.column8
                FROM (VALUES %s) AS v""", 1, 8);
        }

        /**
         * Leases up to {@code limit} due rows (pending, due at {@code now}, not leased or lease expired) to
         * {@code owner} for {@code length}, in the caller's write transaction: until {@code now} plus the length on a
         * file, the server's now plus the length on a team database. Returns their ids in ascending order with the
         * lease's end; {@link DeliveryStore#leased} reads the rows once the lease is committed.
         */
        public Taken lease(String owner, Instant now, Duration length, int limit) {
            List<Long> ids = new ArrayList<>();
            boolean givenClock = dialect.leaseClock() == null;
            try {
                int p = 1;
                due.setLong(p++, now.toEpochMilli());
                if (givenClock) {
                    due.setLong(p++, now.toEpochMilli());
                }
                due.setInt(p, limit);
                try (ResultSet rs = due.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getLong(1));
                    }
                }
                if (ids.isEmpty()) {
                    // no write: on a team database every write to the outbox is announced to the other workstations,
                    // which would refresh their pages at each tick of an idle worker
                    return Taken.NONE;
                }
                Instant end = take(owner, ids, now, length);
                ids.sort(null);
                return new Taken(List.copyOf(ids), end);
            } catch (SQLException e) {
                throw new IllegalStateException("cannot lease outbox rows: " + e.getMessage(), e);
            }
        }

        /**
         * Rows one statement leased, and the lease's end: with the owner, what tells this lease of a row from an
         * earlier or later one of the same owner, so that an outcome is written only under the lease it was made in.
         */
        public record Taken(List<Long> ids, Instant leaseEnd) {
            static final Taken NONE = new Taken(List.of(), null);
        }

        /**
         * Leases again, for {@code length} from now, the rows among {@code ids} that {@code owner} still holds
         * (pending), in the caller's write transaction: the rows a transaction of this owner leased before it failed
         * in a way that leaves its outcome unknown (its commit's answer lost), which the owner would otherwise wait
         * out. Rows the failed transaction did not lease after all, or whose lease another worker has taken since,
         * are left alone. On a team database a row that another transaction holds locked at this moment is neither
         * taken nor left: it is {@linkplain Regained#undecided undecided} (the failed commit may still be under way
         * on the server, or another worker leasing the row), for the caller to ask about again.
         */
        public Regained leaseAgain(String owner, List<Long> ids, Instant now, Duration length) {
            if (ids.isEmpty()) {
                return Regained.NONE;
            }
            List<Long> held = new ArrayList<>();
            Instant end = null;
            Set<Long> undecided = new HashSet<>(ids);
            try (PreparedStatement rows = connection.prepareStatement("""
                    SELECT outbox_event_id, lease_owner = ? AND delivery_state = 'pending' FROM outbox_event
                    WHERE %s%s""".formatted(dialect.inList("outbox_event_id", true), dialect.lockRows()))) {
                rows.setString(1, owner);
                rows.setString(2, Json.write(ids));
                try (ResultSet rs = rows.executeQuery()) {
                    while (rs.next()) {
                        undecided.remove(rs.getLong(1));
                        if (rs.getBoolean(2)) {
                            held.add(rs.getLong(1));
                        }
                    }
                }
                if (!held.isEmpty()) {
                    end = take(owner, held, now, length);
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot lease outbox rows again: " + e.getMessage(), e);
            }
            held.sort(null);
            return new Regained(new Taken(List.copyOf(held), end), undecided.stream().sorted().toList());
        }

        /**
         * What {@link #leaseAgain} did: the rows it leased again (with their lease's end), and those another
         * transaction held locked, which it could not look at (rows no longer there are neither).
         */
        public record Regained(Taken taken, List<Long> undecided) {
            static final Regained NONE = new Regained(Taken.NONE, List.of());
        }

        /** Leases {@code ids}; returns the lease's end, as the table keeps it. */
        private Instant take(String owner, List<Long> ids, Instant now, Duration length) throws SQLException {
            int p = 1;
            take.setString(p++, owner);
            take.setLong(p++, dialect.leaseClock() == null ? now.plus(length).toEpochMilli() : length.toMillis());
            take.setLong(p++, now.toEpochMilli());
            take.setString(p, Json.write(ids));
            try (ResultSet rs = take.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("none of the rows to lease was there");
                }
                return Instant.ofEpochMilli(rs.getLong(1));
            }
        }

        /**
         * Writes the outcome of each record (the caller's transaction). Returns, per record, whether
         * this owner still held the row under the lease the record was made in; when it did not, the row and its
         * claim are left as they are (another worker, or a later lease of this one, has the row) and only the
         * attempt is recorded. A batch holds at most one outcome per lease of a row (a row's lease is released only
         * by the commit that records its outcome); beside it may stand the give-back of an earlier lease of the same
         * row, which matches nothing.
         */
        public boolean[] complete(String owner, List<DeliveryRecord> records, Instant now) {
            boolean[] applied = new boolean[records.size()];
            long at = now.toEpochMilli();
            try {
                List<DeliveryRecord> delivered = new ArrayList<>();
                for (int i = 0; i < records.size(); i++) {
                    DeliveryRecord r = records.get(i);
                    switch (r.kind()) {
                        case SENT -> delivered.add(r);
                        case RETRY -> applied[i] = retry(owner, r, at);
                        case FAILED -> applied[i] = fail(owner, r, at);
                        case RELEASE -> applied[i] = release(owner, r);
                        default -> throw new IllegalStateException("unknown record kind " + r.kind());
                    }
                }
                Set<Long> sentRows = markSent(owner, delivered, at);
                for (int i = 0; i < records.size(); i++) {
                    DeliveryRecord r = records.get(i);
                    if (r.kind() == DeliveryRecord.Kind.SENT) {
                        applied[i] = sentRows.contains(r.outboxEventId());
                    }
                }
                recordAttempts(owner, records, applied, recordedBefore(owner, records, applied));
                return applied;
            } catch (SQLException e) {
                throw new IllegalStateException("cannot record delivery outcomes: " + e.getMessage(), e);
            }
        }

        private boolean retry(String owner, DeliveryRecord r, long at) throws SQLException {
            retry.setInt(1, r.attempts());
            retry.setInt(2, r.retryCount());
            retry.setString(3, DeliveryAttempt.truncate(r.lastError()));
            retry.setLong(4, r.nextAttemptAt().toEpochMilli());
            retry.setLong(5, at);
            retry.setLong(6, r.outboxEventId());
            retry.setString(7, owner);
            retry.setLong(8, r.leaseEnd().toEpochMilli());
            return retry.executeUpdate() == 1;
        }

        private boolean fail(String owner, DeliveryRecord r, long at) throws SQLException {
            failed.setInt(1, r.attempts());
            failed.setInt(2, r.retryCount());
            failed.setString(3, DeliveryAttempt.truncate(r.lastError()));
            failed.setLong(4, at);
            failed.setLong(5, r.outboxEventId());
            failed.setString(6, owner);
            failed.setLong(7, r.leaseEnd().toEpochMilli());
            return failed.executeUpdate() == 1;
        }

        private boolean release(String owner, DeliveryRecord r) throws SQLException {
            release.setLong(1, r.outboxEventId());
            release.setString(2, owner);
            release.setLong(3, r.leaseEnd().toEpochMilli());
            return release.executeUpdate() == 1;
        }

        /**
         * Rows {@code sent} (those this owner still holds), then their claims SUBMITTING to
         * SUBMITTED_TO_STATE ({@link Transitions#DELIVERED}) with a history entry each (actor {@value #ACTOR}, the case id in the reason);
         * a claim already past SUBMITTING is left alone (idempotent success). The audit trail is for what
         * staff do; what the worker did is in the history and the attempt rows. Returns the rows marked sent.
         */
        private Set<Long> markSent(String owner, List<DeliveryRecord> delivered, long at) throws SQLException {
            Set<Long> sentRows = new HashSet<>();
            if (delivered.isEmpty()) {
                return sentRows;
            }
            sent.run(delivered, new Object[] {at, owner}, (ps, p, r) -> {
                ps.setLong(p, r.outboxEventId());
                ps.setString(p + 1, r.caseId());
                ps.setInt(p + 2, r.attempts());
                ps.setInt(p + 3, r.retryCount());
                ps.setLong(p + 4, r.leaseEnd().toEpochMilli());
            }, sentRows::add);
            Map<Long, DeliveryRecord> byClaim = new LinkedHashMap<>();
            for (DeliveryRecord r : delivered) {
                if (sentRows.contains(r.outboxEventId())) {
                    byClaim.putIfAbsent(r.claimId(), r);
                }
            }
            Set<Long> moved = new HashSet<>();
            claims.run(List.copyOf(byClaim.values()), new Object[] {at}, (ps, p, r) -> {
                ps.setLong(p, r.claimId());
                ps.setString(p + 1, r.caseId());
                ps.setString(p + 2, r.decisionDueOn() == null ? null : r.decisionDueOn().toString());
            }, moved::add);
            List<DeliveryRecord> submitted = byClaim.values().stream().filter(r -> moved.contains(r.claimId())).toList();
            history.run(submitted, new Object[] {ACTOR, at}, (ps, p, r) -> {
                ps.setLong(p, r.claimId());
                ps.setString(p + 1, historyReason(r));
            }, null);
            return sentRows;
        }

        /**
         * The history entry of a claim delivered: its case id; for a 409 {@code duplicate_claim}, also that the state
         * holds the claim as sent under another key, whose data may not be this row's (a correction, say).
         */
        static String historyReason(DeliveryRecord r) {
            return "state case id " + r.caseId() + (r.httpStatus() != null && r.httpStatus() == 409
                    ? ": the state already held this claim under another key (409 duplicate_claim), with the data"
                            + " sent under that key, which may differ from this submission's"
                    : "");
        }

        /**
         * What the worker put before an attempt's detail when the lease it was made under had ended and the row was
         * leased again since (by another worker, or by this one).
         */
        static final String LEASE_LOST = "[lease lost: the row was leased again meanwhile; outcome not applied] ";

        /**
         * The records not applied whose call {@code owner} has already recorded: the same outcomes committed by a try
         * whose answer the connection lost, which the worker tries again, and whose leases that try released. Each of
         * them counts as applied in {@code applied} unless its lease had been lost then. A call is its row, attempt
         * number, start and outcome ({@link #call}). Read only when some record was not applied.
         */
        private boolean[] recordedBefore(String owner, List<DeliveryRecord> records, boolean[] applied)
                throws SQLException {
            boolean[] recorded = new boolean[records.size()];
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < records.size(); i++) {
                if (!applied[i] && records.get(i).hasAttempt()) {
                    ids.add(records.get(i).outboxEventId());
                }
            }
            if (ids.isEmpty()) {
                return recorded;
            }
            Map<String, Boolean> leaseLost = new HashMap<>();
            try (PreparedStatement read = connection.prepareStatement("SELECT outbox_event_id, attempt_no, started_at,"
                    + " outcome, detail FROM delivery_attempt WHERE worker_id = ? AND "
                    + dialect.inList("outbox_event_id", true))) {
                read.setString(1, owner);
                read.setString(2, Json.write(ids));
                try (ResultSet rs = read.executeQuery()) {
                    while (rs.next()) {
                        String detail = rs.getString(5);
                        leaseLost.put(call(rs.getLong(1), rs.getInt(2), rs.getLong(3), rs.getString(4)),
                                detail != null && detail.startsWith(LEASE_LOST));
                    }
                }
            }
            for (int i = 0; i < records.size(); i++) {
                DeliveryRecord r = records.get(i);
                Boolean lost = applied[i] || !r.hasAttempt() ? null
                        : leaseLost.get(call(r.outboxEventId(), r.attempts(), r.startedAt().toEpochMilli(),
                                r.outcome().name()));
                if (lost != null) {
                    recorded[i] = true;
                    applied[i] = !lost;
                }
            }
            return recorded;
        }

        /** One call to the state, as its attempt row holds it. */
        private static String call(long outboxEventId, int attemptNo, long startedAt, String outcome) {
            return outboxEventId + " " + attemptNo + " " + startedAt + " " + outcome;
        }

        /**
         * One {@code delivery_attempt} row per record that made an attempt, in the batch's order, except those
         * {@code recordedBefore}.
         */
        private void recordAttempts(String owner, List<DeliveryRecord> records, boolean[] applied,
                boolean[] recordedBefore) throws SQLException {
            List<Integer> attempted = new ArrayList<>(records.size());
            for (int i = 0; i < records.size(); i++) {
                if (records.get(i).hasAttempt() && !recordedBefore[i]) {
                    attempted.add(i);
                }
            }
            attempts.run(attempted, new Object[] {owner}, (ps, p, i) -> {
                DeliveryRecord r = records.get(i);
                ps.setLong(p, r.outboxEventId());
                ps.setInt(p + 1, r.attempts());
                ps.setLong(p + 2, r.startedAt().toEpochMilli());
                ps.setLong(p + 3, r.durationMs());
                ps.setString(p + 4, r.outcome().name());
                if (r.httpStatus() == null) {
                    ps.setNull(p + 5, Types.INTEGER);
                } else {
                    ps.setInt(p + 5, r.httpStatus());
                }
                String detail = applied[i] ? r.detail() : LEASE_LOST + r.detail();
                ps.setString(p + 6, DeliveryAttempt.truncate(detail));
                ps.setString(p + 7, r.field());
            }, null);
        }

        @Override
        public void close() {
            for (PreparedStatement ps : new PreparedStatement[] {due, take, retry, failed, release}) {
                try {
                    ps.close();
                } catch (SQLException e) {
                    // closing a statement of a connection that is going away anyway
                }
            }
            for (MultiRowStatement statement : new MultiRowStatement[] {sent, claims, history, attempts}) {
                statement.close();
            }
        }
    }

    /**
     * The rows among {@code ids} that {@code owner} holds, pending, in ascending id order, for the
     * senders; rows it no longer holds are left out. Reads only, so it runs on any connection, after
     * the lease was committed.
     */
    public List<LeasedRow> leased(Handle handle, String owner, List<Long> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return handle.createQuery(LEASED.get(Dialect.of(handle)))
                .bind("ids", Json.write(ids))
                .bind("owner", owner)
                .map((rs, ctx) -> new LeasedRow(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getInt(6), rs.getInt(7), Instant.ofEpochMilli(rs.getLong(8)),
                        rs.getString(9), rs.getString(10)))
                .list();
    }

    /** Gives back every pending row {@code owner} still holds. */
    public int releaseAll(Handle handle, String owner) {
        if (Dialect.of(handle) != Dialect.SQLITE) {
            // at a worker's end, quitting among them: a silent server lets the leases expire instead
            answerWithin(handle, (int) WRITER_ANSWER_WITHIN.toMillis());
        }
        return handle.createUpdate("""
                UPDATE outbox_event SET lease_owner = NULL, lease_expires_at = NULL
                WHERE delivery_state = 'pending' AND lease_owner = :owner""")
                .bind("owner", owner).execute();
    }

    /** The driver's read timeout of {@code handle}'s team connection, in ms; the pool sets its own back on return. */
    private static void answerWithin(Handle handle, int millis) {
        try {
            handle.getConnection().setNetworkTimeout(Runnable::run, millis);
        } catch (java.sql.SQLException e) {
            throw new org.jdbi.v3.core.ConnectionException(e);
        }
    }

    /**
     * Cuts {@code handle}'s connection from another thread than the one using it: a statement waiting on it for a
     * silent server's answer ends with a failure.
     */
    public static void cutWriter(Handle handle) {
        try {
            handle.getConnection().abort(Runnable::run);
        } catch (java.sql.SQLException e) {
            throw new org.jdbi.v3.core.ConnectionException(e);
        }
    }

    /** Row counts for the worker's snapshot. */
    public record Counts(long pending, long due, long failed) {
    }

    /**
     * Pending rows not due at {@code :now} (waiting out a backoff), through the index of pending rows by due time:
     * the due ones are the pending ones less these. Rows waiting are few where the due ones can be most of a large
     * queue, which a count of the due rows would read in full at every snapshot (12 ms for 37,000 rows on a team
     * database, against 0.1 ms for these).
     */
    static final String WAITING_ROWS =
            "SELECT count(*) FROM outbox_event WHERE delivery_state = 'pending' AND next_attempt_at > :now";

    /**
     * Pending, due and failed rows at {@code now}, for the worker's snapshot: pending and failed from the tally, due
     * as the pending rows less those waiting. Two reads: rows that changed state in between count wrongly until the
     * next snapshot; the due rows are kept between none and every pending row.
     */
    public Counts counts(Handle handle, Instant now) {
        Map<DeliveryState, Integer> byState = new OutboxStore().countByState(handle);
        long waiting = handle.createQuery(WAITING_ROWS).bind("now", now.toEpochMilli()).mapTo(Long.class).one();
        long pending = byState.get(DeliveryState.PENDING);
        return new Counts(pending, Math.max(0, pending - waiting), byState.get(DeliveryState.FAILED));
    }

    public long countSent(Handle handle) {
        return new OutboxStore().countByState(handle).get(DeliveryState.SENT);
    }
}
