package org.claimdesk.bench.ui;

/**
 * A count the system only increases (a thread's processor time, the processors' idle ticks, page faults), read again
 * at each sample: how much it grew since the sample before and since the first.
 */
final class Growing {
    private long first = -1;
    private long last;
    private long sinceBefore;

    /** The count as just read; the first value read is where {@link #sinceFirst} starts. */
    void read(long value) {
        if (first < 0) {
            first = value;
            last = value;
        }
        sinceBefore = value - last;
        last = value;
    }

    /** Growth between the last two values read (none after the first). */
    long sinceBefore() {
        return sinceBefore;
    }

    /** Growth from the first value read to the last. */
    long sinceFirst() {
        return first < 0 ? 0 : last - first;
    }
}
