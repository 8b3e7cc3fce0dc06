package org.claimdesk.delivery;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with full jitter: after the n-th counted failure a row waits a uniformly random
 * time between zero and {@code min(cap, base * 2^(n-1))}, and never less than the state's Retry-After.
 */
public final class Backoff {
    private Backoff() {
    }

    /** The upper bound of the wait after the {@code retry}-th counted failure (1-based). */
    public static Duration ceiling(int retry, Duration base, Duration cap) {
        if (retry < 1) {
            throw new IllegalArgumentException("retry numbers start at 1, got " + retry);
        }
        long baseMs = base.toMillis();
        long capMs = cap.toMillis();
        int shift = Math.min(retry - 1, 40);
        long ceiling = baseMs > (capMs >> shift) ? capMs : Math.min(capMs, baseMs << shift);
        return Duration.ofMillis(ceiling);
    }

    /**
     * The wait after the {@code retry}-th counted failure.
     *
     * @param retryAfter the state's Retry-After, or null
     * @param random a uniform draw in [0, 1)
     */
    public static Duration delay(int retry, Duration base, Duration cap, Duration retryAfter, DoubleSupplier random) {
        long jittered = (long) Math.floor(ceiling(retry, base, cap).toMillis() * random.getAsDouble());
        Duration wait = Duration.ofMillis(jittered);
        return retryAfter != null && retryAfter.compareTo(wait) > 0 ? retryAfter : wait;
    }
}
