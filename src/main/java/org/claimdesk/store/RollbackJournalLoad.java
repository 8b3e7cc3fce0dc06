package org.claimdesk.store;

import java.nio.file.Path;
import java.time.Duration;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.JdbiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A load of a desk's file by a connection that has the file to itself, written through a rollback journal instead of
 * the write-ahead log. Through the log every page of a load is written twice, into the log as the load goes and into
 * the file by the checkpoint at its commit (gigabytes at a million claims, most of the commit's time); through a
 * rollback journal the load's new pages go into the file once, and the journal keeps only the original content of the
 * pages the database had before, which restores them if the load fails or its process dies (the next connection to
 * open the file rolls the journal back). The file is written meanwhile, so {@link WrittenPagesFlush} sends its pages
 * to the disk as the load goes.
 *
 * <p>Leaving the log needs the file to itself: when another connection has it open, in this process or another, the
 * load stays in the log ({@link #inRollbackJournal} false) and is as before, only slower. While the load's transaction
 * holds the write lock, no other connection can open the file (opening sets the log again, which needs that lock); they
 * wait for their busy timeout and fail. The file goes back to the log when the load ends, committed or not ({@link
 * #ended}), and the syncs' descriptor is closed once the load's connection is ({@link #closed}).
 */
final class RollbackJournalLoad {
    private static final Logger LOG = LoggerFactory.getLogger(RollbackJournalLoad.class);
    /** How long connections the pool just let go may take to close before the file is left in the log. */
    private static final Duration OTHERS_CLOSING = Duration.ofSeconds(2);

    private final Path file;
    private boolean inRollbackJournal;
    private WrittenPagesFlush flush;

    private RollbackJournalLoad(Path file, boolean inRollbackJournal) {
        this.file = file;
        this.inRollbackJournal = inRollbackJournal;
    }

    /**
     * Before the load's transaction: switches the file from the write-ahead log to a rollback journal if {@code h} is
     * its only connection, waiting a moment for connections being closed.
     */
    static RollbackJournalLoad leaveLog(Handle h, Path file) {
        long deadline = System.nanoTime() + OTHERS_CLOSING.toNanos();
        while (true) {
            String mode;
            try {
                mode = journalMode(h, "DELETE");
            } catch (JdbiException e) {
                // "database is locked": another connection holds the file's shared lock of the log
                mode = "busy";
            }
            if ("delete".equals(mode)) {
                // a rollback journal is power-safe with its syncs in full (it is small: the pages there were before)
                h.execute("PRAGMA synchronous = FULL");
                return new RollbackJournalLoad(file, true);
            }
            if (System.nanoTime() > deadline) {
                LOG.info("{} is open elsewhere ({}): the load goes through the write-ahead log", file, mode);
                return new RollbackJournalLoad(file, false);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new RollbackJournalLoad(file, false);
            }
        }
    }

    /**
     * Once the load's transaction holds the write lock: confirms the journal (no connection could set the log again
     * between the switch and the lock) and starts sending the file's written pages to the disk.
     */
    void begun(Handle h) {
        if (!inRollbackJournal) {
            return;
        }
        String mode = h.createQuery("PRAGMA journal_mode").mapTo(String.class).one();
        if (!"delete".equals(mode)) {
            LOG.info("{} went back to {} before the load began: the load goes through it", file, mode);
            inRollbackJournal = false;
            return;
        }
        flush = WrittenPagesFlush.start(file, WrittenPagesFlush.PERIOD);
    }

    boolean inRollbackJournal() {
        return inRollbackJournal;
    }

    /**
     * After the load's commit or rollback: stops the syncs and sets the write-ahead log again. If another program
     * opened the file in between, or the rollback failed, the file stays in the rollback journal until a connection
     * opens it alone (each sets the log as it opens, rolling back a journal left behind first).
     */
    void ended(Handle h) {
        if (!inRollbackJournal) {
            return;
        }
        inRollbackJournal = false;
        if (flush != null && flush.stop()) {
            Thread.currentThread().interrupt();
        }
        try {
            String mode = journalMode(h, "WAL");
            if (!"wal".equals(mode)) {
                LOG.warn("{} stays in journal mode {} after a load; the next connection to open it alone sets WAL", file,
                        mode);
            }
        } catch (JdbiException e) {
            LOG.warn("{} could not go back to WAL after a load; the next connection to open it alone sets it", file, e);
        }
    }

    /**
     * Once the load's connection is closed and no other connection of this process has the file open: closes the
     * descriptor the syncs went through (closing it earlier would release that connection's locks).
     */
    void closed() {
        if (flush != null) {
            flush.close();
            flush = null;
        }
    }

    private static String journalMode(Handle h, String mode) {
        return h.createQuery("PRAGMA journal_mode = " + mode).mapTo(String.class).one();
    }
}
