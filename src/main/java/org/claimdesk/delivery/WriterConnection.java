package org.claimdesk.delivery;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.claimdesk.store.Database;
import org.claimdesk.store.DeliveryStore;
import org.jdbi.v3.core.Handle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one connection a worker writes on (leasing, recording outcomes), with its statements prepared
 * once and kept from one transaction to the next. After a failed transaction the connection is given
 * back and a fresh one is taken next time.
 *
 * <p>Its lock is taken around each of the worker's own write transactions. SQLite allows one writer at
 * a time, and a writer that finds the file locked sleeps in the busy handler for up to tens of
 * milliseconds; queueing here instead keeps the leasing and committing threads from making each other
 * sleep. Other processes are still kept apart by SQLite's own lock.
 */
final class WriterConnection implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WriterConnection.class);
    static final long CLOSE_WAIT_SECONDS = 5;

    private final Database database;
    private final DeliveryStore store;
    private final String workerId;
    private final ReentrantLock lock = new ReentrantLock();
    private final java.time.Duration answerWithin;
    /** Written under {@link #lock}; read without it by a {@link #close} that cannot take the lock. */
    private volatile Handle handle;
    /** Set by {@link #close}: no write opens a connection after it. */
    private volatile boolean closed;
    /** Guarded by {@link #lock}. */
    private DeliveryStore.Session session;

    WriterConnection(Database database, DeliveryStore store, String workerId) {
        this(database, store, workerId, DeliveryStore.WRITER_ANSWER_WITHIN);
    }

    /** @param answerWithin how long a write waits for a team server's answer before its connection is given up */
    WriterConnection(Database database, DeliveryStore store, String workerId, java.time.Duration answerWithin) {
        this.database = database;
        this.store = store;
        this.workerId = workerId;
        this.answerWithin = answerWithin;
    }

    /**
     * Runs {@code work} in one write transaction on this connection. If the transaction fails, {@code failed} runs
     * before the exception is thrown on, still under this connection's lock, so that no other of the worker's write
     * transactions comes between the failure and what {@code failed} notes of it.
     */
    <T> T write(Function<DeliveryStore.Session, T> work, Runnable failed) {
        lock.lock();
        try {
            if (closed) {
                // a transaction cut by close() is tried again by its thread: no new connection after the end
                throw new IllegalStateException("delivery worker " + workerId + " has stopped writing");
            }
            if (session == null) {
                handle = database.jdbi().open();
                try {
                    if (closed) {
                        // closed while the pool handed this connection over (a server slow to answer)
                        throw new IllegalStateException("delivery worker " + workerId + " has stopped writing");
                    }
                    DeliveryStore.prepareWriter(handle, answerWithin);
                    session = store.session(handle);
                } catch (RuntimeException e) {
                    giveBack();
                    throw e;
                }
            }
            try {
                database.requireFileInPlace();
                return handle.inTransaction(h -> work.apply(session));
            } catch (RuntimeException e) {
                giveBack();
                failed.run();
                throw e;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends this connection's writing: the connection is given back and no later {@link #write} opens another. On a
     * team database a write that does not end within {@link #CLOSE_WAIT_SECONDS} s (a server gone silent) has its
     * connection cut, which ends it with a failure: quitting does not wait for it. A desk's file is waited on (its
     * writes end within SQLite's busy timeout).
     */
    @Override
    public void close() {
        closed = true;
        boolean locked;
        if (database.onServer()) {
            try {
                locked = lock.tryLock(CLOSE_WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                locked = false;
            }
        } else {
            lock.lock();
            locked = true;
        }
        if (!locked) {
            Handle stuck = handle;
            LOG.warn("delivery worker {}: its database write did not end within {} s; its connection is cut", workerId,
                    CLOSE_WAIT_SECONDS);
            if (stuck != null) {
                try {
                    DeliveryStore.cutWriter(stuck);
                } catch (RuntimeException e) {
                    LOG.warn("delivery worker {}: cutting its database connection failed", workerId, e);
                }
            }
            return;
        }
        try {
            giveBack();
        } finally {
            lock.unlock();
        }
    }

    /** Gives the connection back with its settings restored; the next {@link #write} opens a new one. Under the lock. */
    private void giveBack() {
        if (session != null) {
            session.close();
            session = null;
        }
        if (handle != null) {
            try {
                DeliveryStore.restoreWriter(handle);
            } catch (RuntimeException e) {
                LOG.debug("delivery worker {}: could not restore the settings of a connection that is being"
                        + " closed", workerId, e);
            }
            try {
                handle.close();
            } catch (RuntimeException e) {
                LOG.warn("delivery worker {}: closing its database connection failed", workerId, e);
            }
            handle = null;
        }
    }
}
