package org.claimdesk.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the system every few seconds to write to the disk the pages a long transaction has written to a file so far,
 * so that they go out while the transaction goes on instead of all at its commit. The system keeps written pages in
 * memory until it runs short of it or they are half a minute old: on a machine with a few gigabytes to spare, a load
 * of a few gigabytes would otherwise wait at its commit for all of them.
 *
 * <p>It syncs the file through a descriptor of its own. On POSIX systems closing any descriptor of a file releases
 * every lock this process holds on it, SQLite's included, so {@link #close} must be called only when none of this
 * process's connections holds a lock on the file. A sync is never interrupted (an interrupted channel closes itself).
 */
final class WrittenPagesFlush implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WrittenPagesFlush.class);
    static final Duration PERIOD = Duration.ofSeconds(2);

    private final Path file;
    private final FileChannel channel;
    private final ScheduledExecutorService timer;
    private final AtomicInteger syncs = new AtomicInteger();

    private WrittenPagesFlush(Path file, FileChannel channel, Duration period) {
        this.file = file;
        this.channel = channel;
        this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread t = new Thread(runnable, "claimdesk-written-pages-flush");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::sync, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Starts syncing {@code file} every {@code period}; null when the file cannot be opened for it. */
    static WrittenPagesFlush start(Path file, Duration period) {
        try {
            // write access: some systems sync only a file opened for writing; nothing is written through it
            return new WrittenPagesFlush(file, FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE),
                    period);
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            LOG.debug("{} is not synced while it is loaded; its commit writes it all", file, e);
            return null;
        }
    }

    /** Whether the descriptor the syncs go through is open. */
    boolean descriptorOpen() {
        return channel.isOpen();
    }

    /** The syncs done so far. */
    int syncs() {
        return syncs.get();
    }

    private void sync() {
        try {
            channel.force(false);
            syncs.incrementAndGet();
        } catch (IOException e) {
            LOG.debug("could not sync {} during a load; its commit will", file, e);
            timer.shutdown();
        }
    }

    /** Stops syncing (a sync under way ends first) and closes the descriptor; see the class comment for when. */
    @Override
    public void close() {
        boolean interrupted = stop();
        try {
            channel.close();
        } catch (IOException e) {
            LOG.debug("could not close the sync descriptor of {}", file, e);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Stops syncing (a sync under way ends first) and leaves the descriptor open. Returns whether this thread was
     * interrupted while it waited (the caller restores the interrupt).
     */
    boolean stop() {
        return Shutdowns.shutDownAndWait(timer);
    }
}
