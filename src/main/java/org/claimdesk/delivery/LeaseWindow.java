package org.claimdesk.delivery;

/**
 * How many rows the worker may hold leased and unfinished at once, sized from how fast the state
 * answers. Fed each call's duration by the senders; read by the threads that lease. Thread-safe: the
 * average is one volatile value, and an update lost to a race only delays the average by one call.
 */
final class LeaseWindow {
    /** Most rows leased and unfinished at once, however fast the state answers. */
    static final int MAX = 1_000;
    /** How far ahead of the senders the window reaches, in their own pace. */
    static final long AHEAD_MS = 250;

    /** Moving average of one call's duration, in milliseconds; negative until the first call. */
    private volatile double averageCallMillis = -1;

    /**
     * Twice the concurrency, and more when the state answers fast: as many rows as the senders get
     * through in {@value #AHEAD_MS} ms (and never more than in a quarter of the lease, so a leased row
     * never waits long enough for its lease to run out), at most {@value #MAX}. Larger windows mean
     * fewer, larger lease and completion transactions; but every lease walks past the rows still leased
     * at the head of the due index, reading each one, so a window deeper than the senders need costs the
     * committer for nothing.
     */
    int size(WorkerSettings s) {
        int floor = 2 * s.concurrency();
        double average = averageCallMillis;
        if (average < 0) {
            return floor;
        }
        double perSecond = s.concurrency() * 1000.0 / Math.max(average, 0.1);
        double ahead = Math.min(AHEAD_MS, s.lease().toMillis() / 4.0) / 1000.0;
        long fit = (long) (perSecond * ahead);
        return (int) Math.max(floor, Math.min(MAX, fit));
    }

    /** Counts one call of {@code millis} into the average (weight 0.1). */
    void observeCall(double millis) {
        double average = averageCallMillis;
        averageCallMillis = average < 0 ? millis : average * 0.9 + millis * 0.1;
    }
}
