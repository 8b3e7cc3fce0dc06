package org.claimdesk.ui.common;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's threads: a small pool for database reads and writes, and one scheduler for periodic
 * refreshes. Every thread is a named daemon that logs what escapes it; both shut down in
 * {@code Application.stop()}.
 *
 * <p>Priorities, highest first (they reach the operating system in the installed runtime, see
 * {@code NamedThreads} in the delivery package): the FX and render threads and the reads staff wait on
 * (normal); the background pool's counts, error groups, actions and exports
 * ({@value #BACKGROUND_PRIORITY}); the delivery worker (lowest). A count still running from the last
 * search then gives way to the next search's page.
 */
public final class ConsoleExecutors implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConsoleExecutors.class);

    static final int BACKGROUND_PRIORITY = Thread.NORM_PRIORITY - 2;

    private final ExecutorService background;
    private final ExecutorService interactive;
    private final ScheduledExecutorService scheduler;

    public ConsoleExecutors() {
        this.background = Executors.newFixedThreadPool(3, named("claimdesk-ui-io", BACKGROUND_PRIORITY));
        this.interactive = Executors.newFixedThreadPool(2, named("claimdesk-ui-read", Thread.NORM_PRIORITY));
        this.scheduler = Executors.newSingleThreadScheduledExecutor(named("claimdesk-ui-ticker", Thread.NORM_PRIORITY));
    }

    public ExecutorService background() {
        return background;
    }

    /** For the reads staff wait on; see {@link TaskRunner#submitInteractive}. */
    public ExecutorService interactive() {
        return interactive;
    }

    /** Runs {@code tick} every {@code periodMs}; an exception is logged and the next tick still runs. */
    public void every(long periodMs, String name, Runnable tick) {
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                tick.run();
            } catch (RuntimeException | Error e) {
                // an exception out of a scheduleWithFixedDelay task would cancel every later tick, silently
                LOG.warn("periodic task {} failed: {}", name, e.toString(), e);
            }
        }, periodMs, periodMs, TimeUnit.MILLISECONDS);
    }

    /**
     * Runs {@code task} once, {@code delayMs} from now, on the scheduler's thread; an exception is logged. Once the
     * console closes, nothing more runs.
     */
    public void after(long delayMs, Runnable task) {
        try {
            scheduler.schedule(() -> {
                try {
                    task.run();
                } catch (RuntimeException | Error e) {
                    LOG.warn("scheduled task failed: {}", e.toString(), e);
                }
            }, delayMs, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            LOG.debug("the console is closing: a scheduled task is dropped");
        }
    }

    static ThreadFactory named(String prefix, int priority) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread t = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
            t.setDaemon(true);
            t.setPriority(priority);
            t.setUncaughtExceptionHandler((thread, e) -> LOG.error("uncaught in {}", thread.getName(), e));
            return t;
        };
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        interactive.shutdown();
        background.shutdown();
        try {
            if (!background.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("background work still running after 5 s; interrupting it");
                background.shutdownNow();
            }
            interactive.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            background.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
