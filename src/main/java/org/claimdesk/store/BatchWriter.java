package org.claimdesk.store;

import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.JdbiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection for a stream of write transactions, such as an import's batches, set up as the delivery worker's
 * writer is ({@link DeliveryStore#prepareWriter}): a page cache that holds what a batch touches, its own automatic
 * checkpoint raised, and a {@link WalCheckpointer} copying the log back into the file on a thread of its own, so
 * that the commits do not do it themselves. Closing it restores the connection's settings and gives it back. Not
 * thread-safe.
 */
public final class BatchWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BatchWriter.class);

    private final Database database;
    private final Handle handle;
    private final WalCheckpointer checkpointer;

    private BatchWriter(Database database) {
        this.database = database;
        Handle opened = null;
        try {
            opened = database.jdbi().open();
            DeliveryStore.prepareWriter(opened);
        } catch (JdbiException e) {
            if (opened != null) {
                // the connection goes back to the pool: a writer that could not be set up holds none of it
                opened.close();
            }
            throw database.translated(e);
        }
        this.handle = opened;
        // a file's write-ahead log is checkpointed aside; a server keeps its own
        this.checkpointer = database.onServer() ? null
                : WalCheckpointer.start(database, WalCheckpointer.DEFAULT_PERIOD, "claimdesk-batch-checkpoint");
    }

    public static BatchWriter open(Database database) {
        return new BatchWriter(database);
    }

    /** Runs {@code work} in one IMMEDIATE transaction on this connection, translating file-level failures. */
    public <R> R inTransaction(HandleCallback<R, RuntimeException> work) {
        database.requireFileInPlace();
        try {
            return handle.inTransaction(work);
        } catch (JdbiException e) {
            throw database.translated(e);
        }
    }

    @Override
    public void close() {
        if (checkpointer != null) {
            checkpointer.close();
        }
        try {
            DeliveryStore.restoreWriter(handle);
        } catch (RuntimeException e) {
            LOG.debug("could not restore the settings of a batch writer's connection that is being closed", e);
        }
        handle.close();
    }
}
