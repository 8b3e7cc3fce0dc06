package org.claimdesk.delivery;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Daemon threads with readable names whose uncaught exceptions end up in the log, at the lowest priority:
 * in the console the worker shares two cores with the FX thread and the renderer, and deliveries can wait
 * a few milliseconds where a frame cannot. The JVM maps Java priorities to the operating system's only
 * where it is told to: the installed runtime carries {@code -XX:ThreadPriorityPolicy=1} (pom.xml, jlink),
 * which on Linux runs these threads at nice 4, a lowering no permission is needed for.
 */
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
        thread.setPriority(Thread.MIN_PRIORITY);
        thread.setUncaughtExceptionHandler((t, e) -> LOG.error("uncaught exception on {}", t.getName(), e));
        return thread;
    }
}
