package org.claimdesk.testing;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.claimdesk.store.Database;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.transaction.DelegatingTransactionHandler;
import org.jdbi.v3.core.transaction.TransactionException;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Fails every commit on threads whose name starts with a given prefix while the outage lasts, as a database that cannot
 * be written for a while would: each such transaction is rolled back and its commit throws what the engine's driver
 * throws then (a file locked by another program: SQLite's busy; a team database's server restarting: the connection
 * lost). Installed on a database's Jdbi, it applies to the connections opened after.
 */
public final class CommitOutage extends DelegatingTransactionHandler implements AutoCloseable {
    public static final String MESSAGE = "the database cannot be written (test outage)";

    private final String thread;
    private final boolean server;
    private final AtomicInteger failed = new AtomicInteger();
    private volatile boolean down = true;

    private CommitOutage(Database db, String thread) {
        super(db.jdbi().getTransactionHandler());
        this.thread = Objects.requireNonNull(thread, "thread");
        this.server = db.onServer();
    }

    /** Starts an outage of the commits on threads named {@code thread}… of {@code db}, lasting until {@link #close}. */
    public static CommitOutage begin(Database db, String thread) {
        CommitOutage outage = new CommitOutage(db, thread);
        db.jdbi().setTransactionHandler(outage);
        return outage;
    }

    /** The commits failed so far. */
    public int failedCommits() {
        return failed.get();
    }

    /** Ends the outage: commits go through from now on. */
    @Override
    public void close() {
        down = false;
    }

    @Override
    public void commit(Handle handle) {
        if (down && Thread.currentThread().getName().startsWith(thread)) {
            failed.incrementAndGet();
            super.rollback(handle);
            throw new TransactionException(MESSAGE, server
                    ? new PSQLException(MESSAGE, PSQLState.CONNECTION_FAILURE)
                    : new SQLiteException(MESSAGE, SQLiteErrorCode.SQLITE_BUSY));
        }
        super.commit(handle);
    }
}
