package org.claimdesk.ui.common;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Hands the newest of many values to a consumer on another thread, scheduling at most one hand-over at a
 * time: a burst of worker snapshots becomes one update per UI pulse, never a queue of stale ones.
 */
public final class Coalescer<T> {
    private final Executor target;
    private final Consumer<? super T> consumer;
    private final AtomicReference<T> latest = new AtomicReference<>();

    public Coalescer(Executor target, Consumer<? super T> consumer) {
        this.target = target;
        this.consumer = consumer;
    }

    /** Safe from any thread. */
    public void offer(T value) {
        if (latest.getAndSet(value) == null) {
            target.execute(() -> {
                T newest = latest.getAndSet(null);
                if (newest != null) {
                    consumer.accept(newest);
                }
            });
        }
    }
}
