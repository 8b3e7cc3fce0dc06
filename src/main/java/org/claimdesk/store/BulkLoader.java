package org.claimdesk.store;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.StatusChange;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.JdbiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes many claims with their status histories, evidence references, outbox rows, delivery attempts and audit
 * entries, as demo data needs them: rows are written as given (claim, outbox and evidence ids included), without
 * the checks of the workflow, in one transaction on a connection of its own that {@link #finish} commits (closing
 * an unfinished loader rolls it all back). Memory does not grow with the load: the rows added are held until
 * {@link #flush}, which hands them to the loader's writer thread and returns, so that the caller makes the next rows
 * on one processor while the database writes these on another; the caller flushes every few thousand claims, and a
 * flush waits while the writer is still busy with the previous batch (at most one batch is being written while the
 * next is made). The writer writes through multi-row statements. A batch that fails to write fails the next
 * {@link #flush} or {@link #finish}. The database keeps what is written but not yet committed in its log (on a
 * desk's file opened {@link Access#SOLE}, in the file itself: {@link RollbackJournalLoad}), not in this process's
 * memory. On SQLite the tables' secondary indexes ({@link DeferredIndexes}) and the search indexes ({@link
 * SearchIndex#setAside}) are built once, by {@link #finish}, over all the rows loaded: kept up row by row, the
 * indexes whose keys arrive in no order would read and write a page of the file for almost every row once they
 * outgrow the page cache.
 *
 * <p>Audit entries are numbered in time order, as the product writes them, whatever order they are added in: each
 * flush sorts the entries held and puts them aside in a temporary file ({@link AuditRuns}, on disk, not in memory),
 * and {@link #finish} writes them into the audit trail merged in time order (entries at the same moment in the order
 * they were added). Rows must be added parents first within a batch (a claim before its history and outbox row, an
 * outbox row before its attempts). Not thread-safe: one thread adds the rows, flushes and finishes.
 */
public final class BulkLoader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BulkLoader.class);
    /** The page cache of a bulk load, in KiB. */
    static final int LOAD_CACHE_KIB = 131_072;
    /** The audit entries written to the audit trail per statement batch at the end of a load. */
    private static final int AUDIT_CHUNK = 4_096;

    private final Database database;
    private final Handle handle;
    /** The rows added since the last flush. */
    private Batch held = new Batch();
    private long auditAdded;
    /** Set when {@link #finish} begins: the load then only commits or is closed. */
    private boolean finishing;
    private boolean closed;
    /** Writes the flushed batches on the loader's connection, one at a time, in the order flushed. */
    private final ExecutorService writer = Executors.newSingleThreadExecutor(runnable -> {
        Thread t = new Thread(runnable, "claimdesk-bulk-writer");
        t.setDaemon(true);
        return t;
    });
    /** The batch being written, or null. */
    private Future<?> writing;
    /** What stopped a batch from being written, once one failed. */
    private Throwable failed;
    private final MultiRowStatement insertClaims;
    private final MultiRowStatement insertHistory;
    private final MultiRowStatement insertEvidence;
    private final MultiRowStatement insertOutbox;
    private final MultiRowStatement insertAttempts;
    private final MultiRowStatement insertAudit;
    /** The audit entries flushed so far, in sorted runs waiting for {@link #finish}. */
    private final AuditRuns auditRuns;
    private final DeferredIndexes deferredIndexes;
    private final SearchIndex searchIndex;
    /** A sole load's connection outside the pool; null otherwise. */
    private final Database.SoleConnection sole;
    /** A sole load of a desk's file, which may go through a rollback journal; null otherwise. */
    private final RollbackJournalLoad journal;

    /** Whether others may use the database while a load writes it. */
    public enum Access {
        /**
         * This process's other connections and other programs read the committed database meanwhile (through
         * the write-ahead log on a desk's file).
         */
        SHARED,
        /**
         * On a desk's file, the load has the file to itself and is faster: this process's other callers of the
         * database wait until it ends, and other programs cannot open the file meanwhile (they wait for their busy
         * timeout); if the file is open elsewhere when the load starts, the load is as {@link #SHARED}. On a team
         * database, as {@link #SHARED}.
         */
        SOLE
    }

    private record OutboxRow(OutboxEvent event, int retryCount) {
    }

    /** The rows of one flush, parents first. */
    private static final class Batch {
        final List<Claim> claims = new ArrayList<>();
        final List<StatusChange> history = new ArrayList<>();
        final List<Evidence> evidence = new ArrayList<>();
        final List<OutboxRow> outbox = new ArrayList<>();
        final List<DeliveryAttempt> attempts = new ArrayList<>();
        final List<AuditRuns.Entry> audit = new ArrayList<>();

        boolean isEmpty() {
            return claims.isEmpty() && history.isEmpty() && evidence.isEmpty() && outbox.isEmpty()
                    && attempts.isEmpty() && audit.isEmpty();
        }
    }

    private BulkLoader(Database database, Handle h, Database.SoleConnection sole, RollbackJournalLoad journal) {
        this.database = database;
        this.handle = h;
        this.sole = sole;
        this.journal = journal;
        if (Dialect.of(h) == Dialect.SQLITE) {
            // the keys of the unique indexes kept during the load (request keys) arrive in no order, and building the
            // deferred indexes sorts in the page cache's memory
            h.execute("PRAGMA cache_size = -" + LOAD_CACHE_KIB);
            h.execute("PRAGMA temp_store = FILE");
        }
        h.begin();
        if (journal != null) {
            journal.begun(h);
        }
        this.deferredIndexes = DeferredIndexes.setAside(h, LOADED_TABLES);
        this.searchIndex = SearchIndex.setAside(h);
        java.sql.Connection c = h.getConnection();
        this.insertClaims = new MultiRowStatement(c, CLAIMS, 0, 21);
        this.insertHistory = new MultiRowStatement(c, HISTORY, 0, 6);
        this.insertEvidence = new MultiRowStatement(c, EVIDENCE, 0, 7);
        this.insertOutbox = new MultiRowStatement(c, OUTBOX, 0, 14);
        this.insertAttempts = new MultiRowStatement(c, ATTEMPTS, 0, 9);
        this.insertAudit = new MultiRowStatement(c, AUDIT, 0, 7);
        // beside a desk's file (its folder takes the file's journal too); a team database's client has no such folder
        this.auditRuns = AuditRuns.create(database.onServer() ? Path.of(System.getProperty("java.io.tmpdir"))
                : database.path().toAbsolutePath().getParent());
    }

    /** A loader on its own connection of {@code database}, {@link Access#SHARED}; close it when done. */
    public static BulkLoader open(Database database) {
        return open(database, Access.SHARED);
    }

    /** A loader on its own connection of {@code database}; close it when done. */
    public static BulkLoader open(Database database, Access access) {
        Database.SoleConnection sole = null;
        Handle h;
        try {
            if (access == Access.SOLE && !database.onServer()) {
                sole = database.soleConnection();
                h = sole.handle();
            } else {
                h = database.jdbi().open();
            }
        } catch (JdbiException e) {
            throw database.translated(e);
        }
        RollbackJournalLoad journal = null;
        boolean opened = false;
        try {
            if (sole != null) {
                journal = RollbackJournalLoad.leaveLog(h, database.path());
            }
            for (String[] table : EXPLICIT_IDS) {
                Dialect.of(h).requireExplicitIds(h, table[0], table[1], "load demo data");
            }
            BulkLoader loader = new BulkLoader(database, h, sole, journal);
            opened = true;
            return loader;
        } catch (JdbiException e) {
            throw database.translated(e);
        } finally {
            if (!opened) {
                release(h, sole, journal);
            }
        }
    }

    /**
     * Rolls back what {@code h} has not committed, sets the file's log again after a sole load, closes the connection,
     * then the syncs' descriptor (once the connection's locks are gone), and gives the pool back.
     */
    private static void release(Handle h, Database.SoleConnection sole, RollbackJournalLoad journal) {
        if (sole != null) {
            try {
                rollBack(h);
                if (journal != null) {
                    journal.ended(h);
                }
            } finally {
                sole.close(journal == null ? () -> { } : journal::closed);
            }
            return;
        }
        rollBack(h);
        try {
            if (Dialect.of(h) == Dialect.SQLITE) {
                // the connection goes back to the pool
                h.execute("PRAGMA cache_size = -2000");
                h.execute("PRAGMA temp_store = DEFAULT");
            }
        } catch (RuntimeException e) {
            LOG.debug("could not reset a bulk load's connection; it is closed anyway", e);
        } finally {
            h.close();
        }
    }

    private static void rollBack(Handle h) {
        try {
            if (h.isInTransaction()) {
                h.rollback();
            }
        } catch (RuntimeException e) {
            // closing the connection rolls back what is left
            LOG.debug("could not roll back a bulk load; closing its connection does", e);
        }
    }

    /** True while the load writes a desk's file through a rollback journal ({@link RollbackJournalLoad}). */
    boolean throughRollbackJournal() {
        return journal != null && journal.inRollbackJournal();
    }

    /** Claims added since the last {@link #flush}. */
    public int heldClaims() {
        return held.claims.size();
    }

    public void claim(Claim c) {
        held.claims.add(c);
    }

    public void statusChange(StatusChange s) {
        held.history.add(s);
    }

    /**
     * An outbox row with its id; lease fields are not written (a loaded row is not leased).
     *
     * @param retryCount the attempts that count toward the backoff and the attempt limit
     */
    public void outboxRow(OutboxEvent e, int retryCount) {
        held.outbox.add(new OutboxRow(e, retryCount));
    }

    /** A delivery attempt; its id is assigned by the database. */
    public void attempt(DeliveryAttempt a) {
        held.attempts.add(a);
    }

    /** An audit entry; its id is assigned by {@link #finish}, in time order. */
    public void auditEntry(AuditEntry e) {
        held.audit.add(new AuditRuns.Entry(++auditAdded, e.at().toEpochMilli(), e.actor(), e.action(), e.subjectType(),
                e.subjectId(), e.reason(), e.details()));
    }

    /** An evidence reference by web address, with its id (evidence files are not bulk loaded). */
    public void evidence(Evidence e) {
        if (e.isFile()) {
            throw new IllegalArgumentException("the bulk loader writes web-address evidence only");
        }
        held.evidence.add(e);
    }

    /**
     * Hands the rows held to the writer, which writes them parents first (they are committed by {@link #finish}), and
     * lets them go; waits first while the writer is busy with the previous batch, and fails if that one failed. The
     * audit entries held are sorted and put aside meanwhile, on the caller's thread ({@link AuditRuns}).
     */
    public void flush() {
        if (finishing) {
            throw new IllegalStateException("this bulk load is finished or finishing; it can only be closed");
        }
        // the file moved or deleted under the load: its transaction would go on into the file where it went
        database.requireFileInPlace();
        if (failed != null) {
            awaitWritten();
        }
        auditRuns.add(held.audit);
        held.audit.clear();
        awaitWritten();
        if (held.isEmpty()) {
            return;
        }
        Batch batch = held;
        held = new Batch();
        writing = writer.submit(() -> write(batch));
    }

    private void write(Batch batch) {
        try {
            insert(insertClaims, batch.claims, BulkLoader::bindClaim);
            insert(insertHistory, batch.history, BulkLoader::bindHistory);
            insert(insertEvidence, batch.evidence, BulkLoader::bindEvidence);
            insert(insertOutbox, batch.outbox, BulkLoader::bindOutbox);
            insert(insertAttempts, batch.attempts, BulkLoader::bindAttempt);
        } catch (JdbiException e) {
            throw database.translated(e);
        }
    }

    /**
     * Waits until the batch being written is written; rethrows what stopped it. A load with a batch that failed stays
     * failed: part of that batch may be written, so nothing more is written or committed, and only {@link #close}
     * (which rolls it all back) is left.
     */
    private void awaitWritten() {
        if (failed != null) {
            throw new IllegalStateException("a batch of this bulk load failed; the load can only be closed", failed);
        }
        Future<?> batch = writing;
        if (batch == null) {
            return;
        }
        try {
            batch.get();
            writing = null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DatabaseException("the bulk load was interrupted", e);
        } catch (ExecutionException e) {
            writing = null;
            failed = e.getCause();
            // thrown here, where the caller waited: the writer thread's trace alone would not say from where
            failed.addSuppressed(new IllegalStateException("waited for by the bulk load's caller"));
            if (failed instanceof RuntimeException failure) {
                throw failure;
            }
            if (failed instanceof Error error) {
                throw error;
            }
            throw new DatabaseException("cannot write bulk data: " + failed, failed);
        }
    }

    /**
     * Writes what is still held, moves the audit entries of the whole load into the audit trail in time order, builds
     * the indexes set aside and commits the load. Returns the number of audit entries written.
     */
    public long finish() {
        flush();
        awaitWritten();
        finishing = true;
        Handle h = handle;
        try {
            long started = System.nanoTime();
            long entries = writeAuditInTimeOrder();
            long moved = System.nanoTime();
            deferredIndexes.build();
            long built = System.nanoTime();
            searchIndex.indexAppended();
            long indexed = System.nanoTime();
            for (String[] table : EXPLICIT_IDS) {
                Dialect.of(h).afterExplicitIds(h, table[0], table[1]);
            }
            boolean rollbackJournal = journal != null && journal.inRollbackJournal();
            h.commit();
            long committed = System.nanoTime();
            if (journal != null) {
                journal.ended(h);
            }
            LOG.info("bulk load finished: {} audit entries written in time order in {} ms, {} indexes built in {} ms,"
                    + " search indexed in {} ms, committed in {} ms{}", entries, (moved - started) / 1_000_000,
                    deferredIndexes.names().size(), (built - moved) / 1_000_000, (indexed - built) / 1_000_000,
                    (committed - indexed) / 1_000_000, journal == null ? ""
                            : " (through " + (rollbackJournal ? "a rollback journal" : "the write-ahead log") + ")");
            return entries;
        } catch (JdbiException e) {
            throw database.translated(e);
        }
    }

    /**
     * Writes the audit entries put aside into the audit trail, earliest first, so that their numbers follow time: this
     * thread merges the sorted runs while the writer writes the previous chunk.
     */
    private long writeAuditInTimeOrder() {
        AuditRuns.Merge merge = auditRuns.merged();
        long written = 0;
        List<AuditRuns.Entry> chunk = new ArrayList<>(AUDIT_CHUNK);
        for (AuditRuns.Entry e = merge.next(); e != null; e = merge.next()) {
            chunk.add(e);
            if (chunk.size() == AUDIT_CHUNK) {
                writeAudit(chunk);
                written += chunk.size();
                chunk = new ArrayList<>(AUDIT_CHUNK);
            }
        }
        writeAudit(chunk);
        written += chunk.size();
        awaitWritten();
        return written;
    }

    private void writeAudit(List<AuditRuns.Entry> chunk) {
        awaitWritten();
        writing = writer.submit(() -> {
            try {
                insert(insertAudit, chunk, BulkLoader::bindAudit);
            } catch (JdbiException e) {
                throw database.translated(e);
            }
        });
    }

    /**
     * Rolls back a load not {@link #finish finished}, and gives the connection back; a batch being written is let
     * finish first.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (Shutdowns.shutDownAndWait(writer)) {
            Thread.currentThread().interrupt();
        }
        if (writing != null) {
            try {
                writing.get();
            } catch (ExecutionException | InterruptedException e) {
                LOG.debug("a batch of a bulk load that is rolled back failed as well", e);
            }
        }
        for (MultiRowStatement statement : List.of(insertClaims, insertHistory, insertEvidence, insertOutbox,
                insertAttempts, insertAudit)) {
            statement.close();
        }
        try {
            auditRuns.close();
        } finally {
            release(handle, sole, journal);
        }
    }

    /** The tables a load writes, whose secondary indexes are built once at its end. */
    private static final List<String> LOADED_TABLES = List.of("claim", "claim_status_history", "evidence",
            "outbox_event", "delivery_attempt", "audit_log");

    /** The tables whose rows a load writes with their ids, and those ids' columns. */
    private static final String[][] EXPLICIT_IDS = {
        {"claim", "claim_id"}, {"outbox_event", "outbox_event_id"}, {"evidence", "evidence_id"}};

    private static final String CLAIMS = """
            INSERT INTO claim (claim_id, claim_number, jurisdiction, state_property_id, holder_name, holder_id,
                property_type, claim_type, claimant_name, tax_id, amount_cents, status, state_case_id, filed_on,
                decision_due_on, version, created_at, updated_at, claimant_email, claimant_phone, claimant_address)
            VALUES %s""";
    private static final String HISTORY = """
            INSERT INTO claim_status_history (claim_id, from_status, to_status, actor, reason, at) VALUES %s""";
    private static final String EVIDENCE = """
            INSERT INTO evidence (evidence_id, claim_id, kind, title, url, added_by, added_at) VALUES %s""";
    private static final String OUTBOX = """
            INSERT INTO outbox_event (outbox_event_id, aggregate_id, event_type, payload, delivery_state, attempts,
                retry_count, last_error, idempotency_key, next_attempt_at, created_at, sent_at, state_case_id,
                updated_at)
            VALUES %s""";
    private static final String ATTEMPTS = """
            INSERT INTO delivery_attempt (outbox_event_id, attempt_no, started_at, duration_ms, outcome, http_status,
                detail, worker_id, field)
            VALUES %s""";
    private static final String AUDIT = """
            INSERT INTO audit_log (at, actor, action, subject_type, subject_id, reason, details) VALUES %s""";

    private static <T> void insert(MultiRowStatement statement, List<T> rows, MultiRowStatement.Row<T> bind) {
        try {
            statement.run(rows, null, bind, null);
        } catch (SQLException e) {
            throw new DatabaseException("cannot write bulk data: " + e.getMessage(), e);
        }
    }

    private static void bindClaim(PreparedStatement ps, int p, Claim c) throws SQLException {
        ps.setLong(p, c.claimId());
        ps.setString(p + 1, c.claimNumber());
        ps.setString(p + 2, c.jurisdiction());
        ps.setString(p + 3, c.statePropertyId());
        ps.setString(p + 4, c.holderName());
        ps.setString(p + 5, c.holderId());
        ps.setString(p + 6, c.propertyType().name());
        ps.setString(p + 7, c.claimType().name());
        ps.setString(p + 8, c.claimantName());
        ps.setString(p + 9, c.taxId());
        ps.setLong(p + 10, c.amountCents());
        ps.setString(p + 11, c.status().name());
        ps.setString(p + 12, c.stateCaseId());
        ps.setString(p + 13, c.filedOn().toString());
        ps.setString(p + 14, text(c.decisionDueOn()));
        ps.setLong(p + 15, c.version());
        ps.setLong(p + 16, c.createdAt().toEpochMilli());
        ps.setLong(p + 17, c.updatedAt().toEpochMilli());
        ps.setString(p + 18, c.claimantEmail());
        ps.setString(p + 19, c.claimantPhone());
        ps.setString(p + 20, c.claimantAddress());
    }

    private static void bindHistory(PreparedStatement ps, int p, StatusChange s) throws SQLException {
        ps.setLong(p, s.claimId());
        ps.setString(p + 1, s.fromStatus() == null ? null : s.fromStatus().name());
        ps.setString(p + 2, s.toStatus().name());
        ps.setString(p + 3, s.actor());
        ps.setString(p + 4, s.reason());
        ps.setLong(p + 5, s.at().toEpochMilli());
    }

    private static void bindEvidence(PreparedStatement ps, int p, Evidence e) throws SQLException {
        ps.setLong(p, e.evidenceId());
        ps.setLong(p + 1, e.claimId());
        ps.setString(p + 2, e.kind().code());
        ps.setString(p + 3, e.title());
        ps.setString(p + 4, e.url());
        ps.setString(p + 5, e.addedBy());
        ps.setLong(p + 6, e.addedAt().toEpochMilli());
    }

    private static void bindOutbox(PreparedStatement ps, int p, OutboxRow row) throws SQLException {
        OutboxEvent e = row.event();
        ps.setLong(p, e.outboxEventId());
        ps.setLong(p + 1, e.aggregateId());
        ps.setString(p + 2, e.eventType());
        ps.setString(p + 3, e.payload());
        ps.setString(p + 4, e.deliveryState().dbValue());
        ps.setInt(p + 5, e.attempts());
        ps.setInt(p + 6, row.retryCount());
        ps.setString(p + 7, DeliveryAttempt.truncate(e.lastError()));
        ps.setString(p + 8, e.idempotencyKey());
        ps.setLong(p + 9, e.nextAttemptAt().toEpochMilli());
        ps.setLong(p + 10, e.createdAt().toEpochMilli());
        setMillis(ps, p + 11, e.sentAt());
        ps.setString(p + 12, e.stateCaseId());
        ps.setLong(p + 13, e.updatedAt().toEpochMilli());
    }

    private static void bindAttempt(PreparedStatement ps, int p, DeliveryAttempt a) throws SQLException {
        ps.setLong(p, a.outboxEventId());
        ps.setInt(p + 1, a.attemptNo());
        ps.setLong(p + 2, a.startedAt().toEpochMilli());
        ps.setLong(p + 3, a.durationMs());
        ps.setString(p + 4, a.outcome().name());
        if (a.httpStatus() == null) {
            ps.setNull(p + 5, Types.INTEGER);
        } else {
            ps.setInt(p + 5, a.httpStatus());
        }
        ps.setString(p + 6, DeliveryAttempt.truncate(a.detail()));
        ps.setString(p + 7, a.workerId());
        ps.setString(p + 8, a.field());
    }

    private static void bindAudit(PreparedStatement ps, int p, AuditRuns.Entry e) throws SQLException {
        ps.setLong(p, e.at());
        ps.setString(p + 1, e.actor());
        ps.setString(p + 2, e.action());
        ps.setString(p + 3, e.subjectType());
        ps.setString(p + 4, e.subjectId());
        ps.setString(p + 5, e.reason());
        ps.setString(p + 6, e.details());
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
