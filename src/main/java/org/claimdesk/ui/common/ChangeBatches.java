package org.claimdesk.ui.common;

import java.util.EnumSet;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.claimdesk.domain.DataChange;

/**
 * Gathers what the live updates report, from any thread, and hands the union on at most once every
 * {@code spacingMs}: the first change after a quiet spell goes on at once, a burst of commits elsewhere becomes
 * one refresh at the end of the spacing, never a queue of them.
 */
public final class ChangeBatches {
    /** Runs a task after a delay, in ms, on another thread. */
    @FunctionalInterface
    public interface Scheduler {
        void after(long delayMs, Runnable task);
    }

    private final Scheduler scheduler;
    private final long spacingMs;
    private final LongSupplier clockMs;
    private final Consumer<Set<DataChange>> consumer;
    private final EnumSet<DataChange> pending = EnumSet.noneOf(DataChange.class);
    private boolean scheduled;
    private long lastHandOverMs = Long.MIN_VALUE / 2;

    public ChangeBatches(Scheduler scheduler, long spacingMs, LongSupplier clockMs, Consumer<Set<DataChange>> consumer) {
        this.scheduler = scheduler;
        this.spacingMs = spacingMs;
        this.clockMs = clockMs;
        this.consumer = consumer;
    }

    /** Safe from any thread. */
    public void offer(Set<DataChange> changes) {
        long delay;
        synchronized (this) {
            pending.addAll(changes);
            if (scheduled || pending.isEmpty()) {
                return;
            }
            scheduled = true;
            delay = Math.max(0, lastHandOverMs + spacingMs - clockMs.getAsLong());
        }
        scheduler.after(delay, this::handOver);
    }

    private void handOver() {
        Set<DataChange> changes;
        synchronized (this) {
            changes = Set.copyOf(pending);
            pending.clear();
            scheduled = false;
            lastHandOverMs = clockMs.getAsLong();
        }
        consumer.accept(changes);
    }
}
