package org.claimdesk.delivery;

import java.util.ArrayDeque;

/** Events per second over a sliding window, fed with counts as batches finish. Thread-safe. */
final class RateMeter {
    private final long windowNanos;
    private final ArrayDeque<long[]> marks = new ArrayDeque<>();
    private long inWindow;

    RateMeter(long windowMillis) {
        this.windowNanos = windowMillis * 1_000_000L;
    }

    synchronized void record(long events, long nanoTime) {
        marks.addLast(new long[] {nanoTime, events});
        inWindow += events;
        trim(nanoTime);
    }

    synchronized double perSecond(long nanoTime) {
        trim(nanoTime);
        if (marks.isEmpty()) {
            return 0.0;
        }
        long span = Math.max(nanoTime - marks.peekFirst()[0], 1_000_000_000L);
        return inWindow * 1e9 / Math.min(span, windowNanos);
    }

    private void trim(long nanoTime) {
        while (!marks.isEmpty() && nanoTime - marks.peekFirst()[0] > windowNanos) {
            inWindow -= marks.pollFirst()[1];
        }
    }
}
