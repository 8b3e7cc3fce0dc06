package org.claimdesk.delivery;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.store.Database;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.store.OutboxStore;

/**
 * One drain of the outbox by a worker of its own, as {@code claimdesk drain} and the benchmark run it:
 * deliver what is due (or, until idle, everything pending, through backoff waits), then stop.
 */
public final class Drain {
    private static final long CHECK_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final OutboxStore OUTBOX = new OutboxStore();
    private static final OutboxQuery PENDING = OutboxQuery.all().withState(DeliveryState.PENDING);

    private Drain() {
    }

    public enum Ending {
        /** Nothing left to do: no due row (or, until idle, no pending row). */
        IDLE,
        /** The time allowed ran out with rows still pending. */
        MAX_WAIT,
        /** The worker paused itself: the state refuses ClaimDesk or cannot be reached. */
        PAUSED,
        /** Staff paused the worker while the drain ran: the deliveries under way finished, no row was taken after. */
        PAUSED_BY_STAFF
    }

    /**
     * @param eventsPerSecond rows that reached a final state (sent or failed) per second
     * @param pending rows still pending when the drain ended
     * @param lastError the last error the worker met, or null
     */
    public record Summary(Ending ending, String pauseReason, String endpoint, boolean simulated, long sent, long failed,
            long retried, long attempts, double seconds, double eventsPerSecond, long pending, String lastError) {
    }

    /**
     * @param maxWait how long to keep going at most, or null for no limit
     * @param progress told each snapshot, or null
     */
    public static Summary run(Database database, StateAdapter state, WorkerSettings settings, Deadlines deadlines,
            Clock clock, boolean untilIdle, Duration maxWait, Consumer<WorkerSnapshot> progress) {
        return run(database, state, settings, deadlines, clock, untilIdle, maxWait, progress, () -> null);
    }

    /**
     * @param staffPause why staff paused the worker, or null while they have not: asked between checks (every
     *     10 ms), so it must answer without reading the database each time
     */
    public static Summary run(Database database, StateAdapter state, WorkerSettings settings, Deadlines deadlines,
            Clock clock, boolean untilIdle, Duration maxWait, Consumer<WorkerSnapshot> progress,
            Supplier<String> staffPause) {
        long started = System.nanoTime();
        long deadline = maxWait == null ? Long.MAX_VALUE : started + maxWait.toNanos();
        Ending ending;
        String pauseReason = null;
        DeliveryWorker worker = new DeliveryWorker(database, state, settings, clock, deadlines);
        try (worker) {
            if (progress != null) {
                worker.addListener(progress);
            }
            worker.start();
            while (true) {
                // Finished first, paused second: the worker pauses itself before it commits the answer
                // that made it pause, so a drain that looks finished has already seen that pause.
                boolean finished = finished(database, worker, untilIdle, clock);
                WorkerSnapshot snapshot = worker.snapshot();
                if (snapshot.pausedBySystem()) {
                    ending = Ending.PAUSED;
                    pauseReason = snapshot.pauseReason();
                    break;
                }
                if (finished) {
                    ending = Ending.IDLE;
                    break;
                }
                String held = staffPause.get();
                if (held != null) {
                    ending = Ending.PAUSED_BY_STAFF;
                    pauseReason = held;
                    break;
                }
                if (System.nanoTime() - deadline > 0) {
                    ending = Ending.MAX_WAIT;
                    break;
                }
                LockSupport.parkNanos(CHECK_EVERY_NANOS);
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        WorkerSnapshot last = worker.snapshot();
        long pending = database.read(h -> OUTBOX.countByState(h).get(DeliveryState.PENDING));
        long finished = last.sentThisRun() + last.failedThisRun();
        return new Summary(ending, pauseReason, state.endpoint(), state.simulated(), last.sentThisRun(),
                last.failedThisRun(), last.retriedThisRun(), last.attemptsThisRun(), seconds,
                seconds > 0 ? finished / seconds : 0.0, pending, last.lastError());
    }

    /**
     * Nothing leased to the worker, and nothing left for it: no due unleased row, or no pending row at
     * all. The worker's activity count must not move while the database is looked at, or a lease taken
     * and settled in between could pass for an empty queue.
     */
    private static boolean finished(Database database, DeliveryWorker worker, boolean untilIdle, Clock clock) {
        long activity = worker.activity();
        if (worker.busy()) {
            return false;
        }
        Instant now = clock.instant();
        boolean left = database.read(h -> untilIdle ? OUTBOX.any(h, PENDING) : OUTBOX.anyLeasable(h, now));
        return !left && !worker.busy() && worker.activity() == activity;
    }
}
