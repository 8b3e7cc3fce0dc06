package org.claimdesk.store;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies the write-ahead log back into the database file on a thread of its own, so that a writer
 * committing many transactions in a row does not do it itself. SQLite otherwise checkpoints inside the
 * commit that takes the log past {@value #DEFAULT_AUTOCHECKPOINT_PAGES} pages: the committing thread
 * copies the pages and waits for two disk syncs (with {@code synchronous=NORMAL} a commit syncs nothing,
 * a checkpoint syncs the log and the file).
 *
 * <p>The checkpoints here are PASSIVE: they copy what no reader still needs and never wait for or block
 * a writer or a reader. A writer that uses this raises its own automatic checkpoint threshold to
 * {@link #WRITER_AUTOCHECKPOINT_PAGES} rather than turning it off: the log starts over from its beginning
 * only once a checkpoint has copied all of it, which a background checkpoint racing a busy writer may not
 * manage, and the writer's own checkpoint then finds almost nothing left to copy.
 */
public final class WalCheckpointer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WalCheckpointer.class);

    /** SQLite's own threshold, which every other connection keeps. */
    public static final int DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;
    /** The threshold of a writer whose log a checkpointer copies meanwhile (about 32 MB of 4 KB pages). */
    public static final int WRITER_AUTOCHECKPOINT_PAGES = 8_000;
    public static final Duration DEFAULT_PERIOD = Duration.ofMillis(50);

    private final Database database;
    private final ScheduledExecutorService thread;
    private volatile boolean failing;

    private WalCheckpointer(Database database, Duration period, String threadName) {
        this.database = database;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setPriority(Thread.MIN_PRIORITY); // background work, like the worker it serves (NamedThreads)
            t.setDaemon(true);
            return t;
        });
        long millis = Math.max(1, period.toMillis());
        thread.scheduleWithFixedDelay(this::checkpoint, millis, millis, TimeUnit.MILLISECONDS);
    }

    /** Checkpoints {@code database} every {@code period} on a daemon thread named {@code threadName}, until closed. */
    public static WalCheckpointer start(Database database, Duration period, String threadName) {
        return new WalCheckpointer(database, period, threadName);
    }

    /**
     * The result of one checkpoint: whether it could not run at all (another checkpoint was under way),
     * the pages in the log, and how many of them are now in the database file.
     */
    public record Pass(boolean busy, long logPages, long copiedPages) {
    }

    /** One PASSIVE checkpoint of {@code database}, on a pooled connection. */
    public static Pass checkpointOnce(Database database) {
        return database.read(h -> h.createQuery("PRAGMA wal_checkpoint(PASSIVE)")
                .map((rs, ctx) -> new Pass(rs.getInt(1) != 0, rs.getLong(2), rs.getLong(3)))
                .one());
    }

    /** Sets the automatic checkpoint threshold of the connection {@code handle} stands on. */
    public static void setAutocheckpoint(org.jdbi.v3.core.Handle handle, int pages) {
        handle.execute("PRAGMA wal_autocheckpoint = " + pages);
    }

    private void checkpoint() {
        try {
            checkpointOnce(database);
            failing = false;
        } catch (RuntimeException | Error e) {
            if (!failing) {
                LOG.warn("background checkpoint of {} failed; the writer's own checkpoints still keep the log"
                        + " bounded", database.path(), e);
            }
            failing = true;
        }
    }

    @Override
    public void close() {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("the background checkpoint of {} did not stop within 5 s", database.path());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
