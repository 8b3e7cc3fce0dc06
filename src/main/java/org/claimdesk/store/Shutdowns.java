package org.claimdesk.store;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/** Stopping an executor whose running task must end by itself, never interrupted (a write, a sync). */
final class Shutdowns {
    private Shutdowns() {
    }

    /**
     * Shuts {@code executor} down (what is queued and not started is dropped for periodic tasks, run for others) and
     * waits, however long, until its running task has ended. Returns whether this thread was interrupted while it
     * waited; the caller restores the interrupt once it is done with what must not be interrupted.
     */
    static boolean shutDownAndWait(ExecutorService executor) {
        executor.shutdown();
        boolean interrupted = false;
        while (!executor.isTerminated()) {
            try {
                executor.awaitTermination(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        return interrupted;
    }
}
