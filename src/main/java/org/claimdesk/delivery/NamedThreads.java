package org.claimdesk.delivery;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Daemon threads with readable names whose uncaught exceptions end up in the log. */
final class NamedThreads implements ThreadFactory {
    private static final Logger LOG = LoggerFactory.getLogger(NamedThreads.class);

    private final String prefix;
    private final AtomicInteger sequence = new AtomicInteger();

    NamedThreads(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public Thread newThread(Runnable task) {
        Thread thread = new Thread(task, prefix + "-" + sequence.incrementAndGet());
        thread.setDaemon(true);
        thread.setUncaughtExceptionHandler((t, e) -> LOG.error("uncaught exception on {}", t.getName(), e));
        return thread;
    }
}
