package org.claimdesk.delivery;

import java.time.Duration;

/**
 * How the delivery worker paces itself.
 *
 * @param interval how often it looks for due rows
 * @param concurrency deliveries in flight at most
 * @param maxAttempts attempts before a row is failed for good
 * @param backoffBase first retry delay (full jitter: a random delay up to base * 2^(attempt-1))
 * @param backoffCap longest retry delay
 * @param lease how long a claimed row stays reserved to this worker before another may take it
 */
public record WorkerSettings(
        Duration interval,
        int concurrency,
        int maxAttempts,
        Duration backoffBase,
        Duration backoffCap,
        Duration lease) {

    public static WorkerSettings defaults() {
        return new WorkerSettings(Duration.ofSeconds(2), 8, 8, Duration.ofSeconds(2), Duration.ofMinutes(10),
                Duration.ofSeconds(60));
    }

    public WorkerSettings {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("the worker interval must be positive");
        }
        if (concurrency < 1 || concurrency > 256) {
            throw new IllegalArgumentException("concurrency must be between 1 and 256, got " + concurrency);
        }
        if (maxAttempts < 1 || maxAttempts > 100) {
            throw new IllegalArgumentException("max attempts must be between 1 and 100, got " + maxAttempts);
        }
        if (backoffBase.isNegative() || backoffCap.compareTo(backoffBase) < 0) {
            throw new IllegalArgumentException("the backoff cap must not be below its base");
        }
        if (lease.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("the lease must be at least one second");
        }
    }

    public WorkerSettings withConcurrency(int value) {
        return new WorkerSettings(interval, value, maxAttempts, backoffBase, backoffCap, lease);
    }

    public WorkerSettings withMaxAttempts(int value) {
        return new WorkerSettings(interval, concurrency, value, backoffBase, backoffCap, lease);
    }

    public WorkerSettings withInterval(Duration value) {
        return new WorkerSettings(value, concurrency, maxAttempts, backoffBase, backoffCap, lease);
    }

    public WorkerSettings withBackoff(Duration base, Duration cap) {
        return new WorkerSettings(interval, concurrency, maxAttempts, base, cap, lease);
    }

    public WorkerSettings withLease(Duration value) {
        return new WorkerSettings(interval, concurrency, maxAttempts, backoffBase, backoffCap, value);
    }
}
