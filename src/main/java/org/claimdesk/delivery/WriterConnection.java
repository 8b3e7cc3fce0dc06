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

    private final Database database;
    private final DeliveryStore store;
    private final String workerId;
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by {@link #lock}. */
    private Handle handle;
    /** Guarded by {@link #lock}. */
    private DeliveryStore.Session session;

    WriterConnection(Database database, DeliveryStore store, String workerId) {
        this.database = database;
        this.store = store;
        this.workerId = workerId;
    }

    /**
     * Runs {@code work} in one write transaction on this connection. If the transaction fails, {@code failed} runs
     * before the exception is thrown on, still under this connection's lock, so that no other of the worker's write
     * transactions comes between the failure and what {@code failed} notes of it.
     */
    <T> T write(Function<DeliveryStore.Session, T> work, Runnable failed) {
        lock.lock();
        try {
            if (session == null) {
                handle = database.jdbi().open();
                DeliveryStore.prepareWriter(handle);
                session = store.session(handle);
            }
            try {
                return handle.inTransaction(h -> work.apply(session));
            } catch (RuntimeException e) {
                close();
                failed.run();
                throw e;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Gives the connection back with its settings restored; the next {@link #write} opens a new one. */
    @Override
    public void close() {
        lock.lock();
        try {
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
        } finally {
            lock.unlock();
        }
    }
}
