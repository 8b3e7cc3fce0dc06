package org.claimdesk.delivery;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.store.DeliveryRecord;

/**
 * What one worker has done since it started, as its snapshots show it: rows sent, retried and failed,
 * attempts, calls under way, the current drain's progress, the rate, the last error; and its lease and
 * outcome transactions, whose sum ({@link #activity}) tells a watcher whether the worker did anything
 * meanwhile. Thread-safe: each value is updated atomically by whichever thread finishes the work.
 */
final class WorkerCounters {
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong retried = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong attempts = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong drainDone = new AtomicLong();
    private final AtomicLong drainTotal = new AtomicLong();
    private final AtomicLong leases = new AtomicLong();
    private final AtomicLong commits = new AtomicLong();
    private final RateMeter rate = new RateMeter(5_000);
    private volatile String lastError;

    void callStarted() {
        inFlight.incrementAndGet();
    }

    void callEnded() {
        inFlight.decrementAndGet();
    }

    /**
     * A lease of {@code rows} was committed. The first lease of a drain sets its total to the rows due
     * then ({@code due}, as last counted, and at least the rows leased); the total never falls below the
     * rows finished plus those still held ({@code outstanding}, these included).
     */
    void leased(int rows, long due, int outstanding) {
        leases.incrementAndGet();
        if (drainTotal.get() == 0) {
            drainTotal.set(rows + Math.max(0, due - rows));
        }
        drainTotal.accumulateAndGet(drainDone.get() + outstanding, Math::max);
    }

    /** Nothing leased and nothing due: the drain is over, and the next one counts from zero. */
    void drainEnded() {
        drainDone.set(0);
        drainTotal.set(0);
    }

    /** An outcome transaction ended, whether or not it could be written. */
    void outcomesCommitted() {
        commits.incrementAndGet();
    }

    /**
     * Counts the outcomes of {@code batch} once they are written (a batch that could not be written counts
     * nothing: its rows are delivered again): every record with an attempt counts as an
     * attempt; those whose row this worker still held ({@code applied}) count as finished, as sent, retried
     * (transient failures only) or failed, and their error becomes the last error.
     *
     * @param nanoTime {@link System#nanoTime()} now, for the rate
     */
    void recorded(List<DeliveryRecord> batch, boolean[] applied, long nanoTime) {
        long finished = 0;
        long attempted = 0;
        for (int i = 0; i < batch.size(); i++) {
            DeliveryRecord r = batch.get(i);
            if (!r.hasAttempt()) {
                continue;
            }
            attempted++;
            if (!applied[i]) {
                continue;
            }
            finished++;
            switch (r.kind()) {
                case SENT -> sent.incrementAndGet();
                case FAILED -> {
                    failed.incrementAndGet();
                    lastError = r.lastError();
                }
                case RETRY -> {
                    if (r.outcome() == AttemptOutcome.TRANSIENT) {
                        retried.incrementAndGet();
                    }
                    lastError = r.lastError();
                }
                default -> {
                }
            }
        }
        attempts.addAndGet(attempted);
        drainDone.addAndGet(finished);
        rate.record(finished, nanoTime);
    }

    void error(String error) {
        lastError = error;
    }

    /** Lease and outcome transactions so far: unchanged means the worker did nothing in between. */
    long activity() {
        return leases.get() + commits.get();
    }

    long sent() {
        return sent.get();
    }

    long retried() {
        return retried.get();
    }

    long failed() {
        return failed.get();
    }

    long attempts() {
        return attempts.get();
    }

    int inFlight() {
        return inFlight.get();
    }

    long drainDone() {
        return drainDone.get();
    }

    long drainTotal() {
        return drainTotal.get();
    }

    long leases() {
        return leases.get();
    }

    long commits() {
        return commits.get();
    }

    String lastError() {
        return lastError;
    }

    /** Rows finished per second over the last few seconds. */
    double perSecond(long nanoTime) {
        return rate.perSecond(nanoTime);
    }
}
