package org.claimdesk.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.util.function.Function;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.StatusChange;
import org.jdbi.v3.core.Handle;

/**
 * Writes many claims at once with their status histories, outbox rows, delivery attempts and audit
 * entries, as demo data needs them: rows are written as given (claim and outbox ids included), without
 * the checks of the workflow, through statements prepared once and executed in batches. The claims'
 * search index is built once at the end ({@link SearchIndex#bulkLoad}).
 *
 * <p>Rows must be added parents first (a claim before its history and outbox row, an outbox row
 * before its attempts): a batch executes the tables in that order. Audit entries get their ids in the
 * order they are added. Not thread-safe.
 */
public final class BulkLoader {
    /** Rows held across all tables before they are executed. */
    private static final int BATCH_ROWS = 5_000;
    /** The page cache of a bulk load, in KiB. */
    static final int LOAD_CACHE_KIB = 131_072;

    private final PreparedStatement claim;
    private final PreparedStatement history;
    private final PreparedStatement outbox;
    private final PreparedStatement attempt;
    private final PreparedStatement audit;
    private final PreparedStatement evidence;
    private int held;

    private BulkLoader(Connection c) throws SQLException {
        this.claim = c.prepareStatement("""
                INSERT INTO claim (claim_id, claim_number, jurisdiction, state_property_id, holder_name, holder_id,
                    property_type, claim_type, claimant_name, tax_id, amount_cents, status, state_case_id, filed_on,
                    decision_due_on, version, created_at, updated_at, claimant_email, claimant_phone, claimant_address)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");
        this.history = c.prepareStatement("""
                INSERT INTO claim_status_history (claim_id, from_status, to_status, actor, reason, at)
                VALUES (?, ?, ?, ?, ?, ?)""");
        this.outbox = c.prepareStatement("""
                INSERT INTO outbox_event (outbox_event_id, aggregate_id, event_type, payload, delivery_state, attempts,
                    retry_count, last_error, idempotency_key, next_attempt_at, created_at, sent_at, state_case_id,
                    updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");
        this.attempt = c.prepareStatement("""
                INSERT INTO delivery_attempt (outbox_event_id, attempt_no, started_at, duration_ms, outcome,
                    http_status, detail, worker_id, field)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""");
        this.audit = c.prepareStatement("""
                INSERT INTO audit_log (at, actor, action, subject_type, subject_id, reason, details)
                VALUES (?, ?, ?, ?, ?, ?, ?)""");
        this.evidence = c.prepareStatement("""
                INSERT INTO evidence (evidence_id, claim_id, kind, title, url, added_by, added_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)""");
    }

    /**
     * Runs {@code load} with a loader on the caller's transaction and writes whatever it still holds when
     * {@code load} returns; the search index is rebuilt once afterwards. A failure rolls all of it back with
     * the transaction. Meanwhile the connection's page cache is raised to {@value #LOAD_CACHE_KIB} KiB: the
     * indexes whose keys arrive in no order (audit subjects, claimant names, property ids) are otherwise
     * read back from the file page by page as they grow.
     */
    public static <R> R load(Handle transaction, Function<BulkLoader, R> load) {
        if (Dialect.of(transaction) != Dialect.SQLITE) {
            R result = loadRows(transaction, load);
            for (String[] table : EXPLICIT_IDS) {
                Dialect.of(transaction).afterExplicitIds(transaction, table[0], table[1]);
            }
            return result;
        }
        int cacheSize = transaction.createQuery("PRAGMA cache_size").mapTo(Integer.class).one();
        transaction.execute("PRAGMA cache_size = -" + LOAD_CACHE_KIB);
        try {
            return SearchIndex.bulkLoad(transaction, () -> loadRows(transaction, load));
        } finally {
            transaction.execute("PRAGMA cache_size = " + cacheSize);
        }
    }

    /** The tables whose rows a load writes with their ids, and those ids' columns. */
    private static final String[][] EXPLICIT_IDS = {
        {"claim", "claim_id"}, {"outbox_event", "outbox_event_id"}, {"evidence", "evidence_id"}};

    private static <R> R loadRows(Handle transaction, Function<BulkLoader, R> load) {
        BulkLoader loader;
        try {
            loader = new BulkLoader(transaction.getConnection());
        } catch (SQLException e) {
            throw new DatabaseException("cannot prepare the bulk load: " + e.getMessage(), e);
        }
        try {
            R result = load.apply(loader);
            loader.flush();
            return result;
        } finally {
            loader.close();
        }
    }

    public void claim(Claim c) {
        run(() -> {
            claim.setLong(1, c.claimId());
            claim.setString(2, c.claimNumber());
            claim.setString(3, c.jurisdiction());
            claim.setString(4, c.statePropertyId());
            claim.setString(5, c.holderName());
            claim.setString(6, c.holderId());
            claim.setString(7, c.propertyType().name());
            claim.setString(8, c.claimType().name());
            claim.setString(9, c.claimantName());
            claim.setString(10, c.taxId());
            claim.setLong(11, c.amountCents());
            claim.setString(12, c.status().name());
            claim.setString(13, c.stateCaseId());
            claim.setString(14, c.filedOn().toString());
            claim.setString(15, text(c.decisionDueOn()));
            claim.setLong(16, c.version());
            claim.setLong(17, c.createdAt().toEpochMilli());
            claim.setLong(18, c.updatedAt().toEpochMilli());
            claim.setString(19, c.claimantEmail());
            claim.setString(20, c.claimantPhone());
            claim.setString(21, c.claimantAddress());
            claim.addBatch();
        });
    }

    public void statusChange(StatusChange s) {
        run(() -> {
            history.setLong(1, s.claimId());
            history.setString(2, s.fromStatus() == null ? null : s.fromStatus().name());
            history.setString(3, s.toStatus().name());
            history.setString(4, s.actor());
            history.setString(5, s.reason());
            history.setLong(6, s.at().toEpochMilli());
            history.addBatch();
        });
    }

    /**
     * An outbox row with its id; lease fields are not written (a loaded row is not leased).
     *
     * @param retryCount the attempts that count toward the backoff and the attempt limit
     */
    public void outboxRow(OutboxEvent e, int retryCount) {
        run(() -> {
            outbox.setLong(1, e.outboxEventId());
            outbox.setLong(2, e.aggregateId());
            outbox.setString(3, e.eventType());
            outbox.setString(4, e.payload());
            outbox.setString(5, e.deliveryState().dbValue());
            outbox.setInt(6, e.attempts());
            outbox.setInt(7, retryCount);
            outbox.setString(8, DeliveryAttempt.truncate(e.lastError()));
            outbox.setString(9, e.idempotencyKey());
            outbox.setLong(10, e.nextAttemptAt().toEpochMilli());
            outbox.setLong(11, e.createdAt().toEpochMilli());
            setMillis(outbox, 12, e.sentAt());
            outbox.setString(13, e.stateCaseId());
            outbox.setLong(14, e.updatedAt().toEpochMilli());
            outbox.addBatch();
        });
    }

    /** A delivery attempt; its id is assigned by the database. */
    public void attempt(DeliveryAttempt a) {
        run(() -> {
            attempt.setLong(1, a.outboxEventId());
            attempt.setInt(2, a.attemptNo());
            attempt.setLong(3, a.startedAt().toEpochMilli());
            attempt.setLong(4, a.durationMs());
            attempt.setString(5, a.outcome().name());
            if (a.httpStatus() == null) {
                attempt.setNull(6, Types.INTEGER);
            } else {
                attempt.setInt(6, a.httpStatus());
            }
            attempt.setString(7, DeliveryAttempt.truncate(a.detail()));
            attempt.setString(8, a.workerId());
            attempt.setString(9, a.field());
            attempt.addBatch();
        });
    }

    /** An audit entry; its id is assigned by the database, so entries added in time order are numbered so. */
    public void auditEntry(AuditEntry e) {
        run(() -> {
            audit.setLong(1, e.at().toEpochMilli());
            audit.setString(2, e.actor());
            audit.setString(3, e.action());
            audit.setString(4, e.subjectType());
            audit.setString(5, e.subjectId());
            audit.setString(6, e.reason());
            audit.setString(7, e.details());
            audit.addBatch();
        });
    }

    /** An evidence reference by web address, with its id (evidence files are not bulk loaded). */
    public void evidence(Evidence e) {
        if (e.isFile()) {
            throw new IllegalArgumentException("the bulk loader writes web-address evidence only");
        }
        run(() -> {
            evidence.setLong(1, e.evidenceId());
            evidence.setLong(2, e.claimId());
            evidence.setString(3, e.kind().code());
            evidence.setString(4, e.title());
            evidence.setString(5, e.url());
            evidence.setString(6, e.addedBy());
            evidence.setLong(7, e.addedAt().toEpochMilli());
            evidence.addBatch();
        });
    }

    @FunctionalInterface
    private interface Binding {
        void bind() throws SQLException;
    }

    private void run(Binding binding) {
        try {
            binding.bind();
        } catch (SQLException e) {
            throw new DatabaseException("cannot write bulk data: " + e.getMessage(), e);
        }
        if (++held >= BATCH_ROWS) {
            flush();
        }
    }

    /** Executes what is held, parents first. */
    private void flush() {
        try {
            for (PreparedStatement ps : statements()) {
                ps.executeBatch();
            }
        } catch (SQLException e) {
            throw new DatabaseException("cannot write bulk data: " + e.getMessage(), e);
        }
        held = 0;
    }

    private PreparedStatement[] statements() {
        return new PreparedStatement[] {claim, history, outbox, attempt, audit, evidence};
    }

    private void close() {
        for (PreparedStatement ps : statements()) {
            try {
                ps.close();
            } catch (SQLException e) {
                // a statement that cannot be closed goes with its connection
            }
        }
    }

    private static String text(LocalDate date) {
        return date == null ? null : date.toString();
    }

    private static void setMillis(PreparedStatement ps, int index, Instant at) throws SQLException {
        if (at == null) {
            ps.setNull(index, Types.INTEGER);
        } else {
            ps.setLong(index, at.toEpochMilli());
        }
    }
}
