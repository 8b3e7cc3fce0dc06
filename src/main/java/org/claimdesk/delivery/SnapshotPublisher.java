package org.claimdesk.delivery;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.claimdesk.store.Database;
import org.claimdesk.store.DeliveryStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands a worker's {@link WorkerSnapshot}s to its listeners and keeps the row counts they show. Each
 * {@link #tick} (the worker's publisher thread runs one every {@value #EVERY_MS} ms) reads the counts of
 * pending, due and failed rows when they are {@value #COUNTS_EVERY_MS} ms old (or {@value #COUNTS_SPACING} times as
 * old as their last read took, if that is longer, up to {@value #COUNTS_AT_MOST_EVERY_MS} ms) and the count of sent rows
 * when it is {@value #SENT_TOTAL_EVERY_MS} ms old, then publishes a snapshot if anything but its time
 * changed, or at least every {@value #REPEAT_EVERY_MS} ms. A listener that throws is logged and the
 * others still hear. No threads of its own: ticks come from one thread at a time.
 */
final class SnapshotPublisher {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotPublisher.class);

    static final long EVERY_MS = 100;
    static final long COUNTS_EVERY_MS = 250;
    static final long SENT_TOTAL_EVERY_MS = 2_000;
    /**
     * The counts are read at most once per this many times the last read took: where they are slow to count (a
     * backoff over a million rows), reading them takes at most a twentieth of this thread's and the database's time.
     */
    static final long COUNTS_SPACING = 20;
    /** ... but at least every this many ms, however long the last read took (one held up by a lock, say). */
    static final long COUNTS_AT_MOST_EVERY_MS = 10_000;
    /** A snapshot equal to the last one but its time is published again after this long. */
    static final long REPEAT_EVERY_MS = 1_000;
    private static final long NEVER = Long.MIN_VALUE / 2;

    /** Where the row counts come from: the database, read on the publishing thread. */
    interface RowCounts {
        DeliveryStore.Counts counts();

        long sentTotal();

        /** The counts in {@code database}, due rows counted at {@code clock}'s now. */
        static RowCounts of(Database database, DeliveryStore store, Clock clock) {
            return new RowCounts() {
                @Override
                public DeliveryStore.Counts counts() {
                    Instant now = clock.instant();
                    return database.read(h -> store.counts(h, now));
                }

                @Override
                public long sentTotal() {
                    return database.read(store::countSent);
                }
            };
        }
    }

    private final String workerId;
    private final RowCounts rows;
    private final Supplier<WorkerSnapshot> snapshots;
    private final LongSupplier millis;
    private final List<Consumer<WorkerSnapshot>> listeners = new CopyOnWriteArrayList<>();

    private volatile DeliveryStore.Counts counts = new DeliveryStore.Counts(0, 0, 0);
    private volatile long sentTotal;
    /** When the counts were read; long ago at first, so that the first tick reads them. */
    private volatile long countsAt = NEVER;
    /** How long after the last read the counts are read again: {@value #COUNTS_EVERY_MS} ms, or longer after a slow read. */
    private volatile long countsEvery = COUNTS_EVERY_MS;
    private volatile long sentTotalAt = NEVER;
    private volatile WorkerSnapshot lastPublished;
    private volatile long lastPublishedAt;
    private final Consumer<Throwable> countsFailed;
    /** Whether the last read of the counts failed: a failure is logged once, not on every tick until it ends. */
    private volatile boolean countsFailing;

    /**
     * @param snapshots builds the snapshot to publish, with {@link #counts()} and {@link #sentTotal()}
     * @param millis a monotonic clock in milliseconds (from {@link System#nanoTime} but in tests): a wall clock set
     *        back would hold the counts until it caught up
     */
    SnapshotPublisher(String workerId, RowCounts rows, Supplier<WorkerSnapshot> snapshots, LongSupplier millis) {
        this(workerId, rows, snapshots, millis, e -> { });
    }

    /**
     * @param countsFailed told each failed read of the counts (the database gone for a while), which the snapshots
     *        published meanwhile, with the counts last read, should show
     */
    SnapshotPublisher(String workerId, RowCounts rows, Supplier<WorkerSnapshot> snapshots, LongSupplier millis,
            Consumer<Throwable> countsFailed) {
        this.countsFailed = Objects.requireNonNull(countsFailed, "countsFailed");
        this.workerId = Objects.requireNonNull(workerId, "workerId");
        this.rows = Objects.requireNonNull(rows, "rows");
        this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
        this.millis = Objects.requireNonNull(millis, "millis");
    }

    /** Pending, due and failed rows, as last read. */
    DeliveryStore.Counts counts() {
        return counts;
    }

    /** Sent rows, as last read. */
    long sentTotal() {
        return sentTotal;
    }

    void addListener(Consumer<WorkerSnapshot> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    void removeListener(Consumer<WorkerSnapshot> listener) {
        listeners.remove(listener);
    }

    /** Reads the counts that are due and publishes a snapshot if it changed; never throws. */
    void tick() {
        try {
            long now = millis.getAsLong();
            readCounts(now);
            if (listeners.isEmpty()) {
                return;
            }
            WorkerSnapshot next = snapshots.get();
            WorkerSnapshot previous = lastPublished;
            if (previous != null && sameExceptTime(previous, next) && now - lastPublishedAt < REPEAT_EVERY_MS) {
                return;
            }
            lastPublished = next;
            lastPublishedAt = now;
            publish(next);
        } catch (Throwable t) {
            LOG.error("delivery worker {}: publishing a snapshot failed", workerId, t);
        }
    }

    /**
     * Reads the counts that are due. A failed read keeps the counts last read, is told to {@link #countsFailed} (so
     * that the snapshot published anyway says why) and is logged when it begins and when it ends.
     */
    private void readCounts(long now) {
        try {
            if (now - countsAt >= countsEvery) {
                counts = rows.counts();
                countsAt = now;
                countsEvery = Math.min(COUNTS_AT_MOST_EVERY_MS,
                        Math.max(COUNTS_EVERY_MS, (millis.getAsLong() - now) * COUNTS_SPACING));
            }
            if (now - sentTotalAt >= SENT_TOTAL_EVERY_MS) {
                sentTotal = rows.sentTotal();
                sentTotalAt = now;
            }
            if (countsFailing) {
                countsFailing = false;
                LOG.info("delivery worker {}: the outbox's counts are read again", workerId);
            }
        } catch (RuntimeException e) {
            if (!countsFailing) {
                countsFailing = true;
                LOG.error("delivery worker {}: reading the outbox's counts failed; the last counts are shown until"
                        + " they can be read", workerId, e);
            }
            countsFailed.accept(e);
        }
    }

    /** Reads every count now, whatever its age, and publishes. */
    void refresh() {
        countsAt = NEVER;
        sentTotalAt = NEVER;
        tick();
    }

    /** Tells every listener {@code snapshot}, whatever was published before (the worker's last word). */
    void publish(WorkerSnapshot snapshot) {
        for (Consumer<WorkerSnapshot> listener : listeners) {
            try {
                listener.accept(snapshot);
            } catch (RuntimeException e) {
                LOG.error("delivery worker {}: a snapshot listener failed", workerId, e);
            }
        }
    }

    static boolean sameExceptTime(WorkerSnapshot a, WorkerSnapshot b) {
        return a.runState() == b.runState() && Objects.equals(a.pauseReason(), b.pauseReason())
                && a.pending() == b.pending() && a.due() == b.due() && a.inFlight() == b.inFlight()
                && a.drainDone() == b.drainDone() && a.drainTotal() == b.drainTotal()
                && a.attemptsThisRun() == b.attemptsThisRun() && a.sentTotal() == b.sentTotal()
                && a.failedTotal() == b.failedTotal() && Objects.equals(a.lastError(), b.lastError())
                && Objects.equals(a.hold(), b.hold());
    }
}
