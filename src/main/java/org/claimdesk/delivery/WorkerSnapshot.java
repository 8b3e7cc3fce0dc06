package org.claimdesk.delivery;

import java.time.Instant;

/**
 * An immutable picture of the delivery worker, published to listeners at most every 100 ms. It holds
 * no JavaFX types; the console applies it on the FX thread.
 *
 * @param runState stopped, running or paused
 * @param pauseReason why the worker is paused (staff, or the state refusing every call); null otherwise
 * @param pausedBySystem true when the worker paused itself (401/403 or nothing reachable)
 * @param endpoint "simulated state" or the state API's base URL
 * @param pending rows in {@code pending}
 * @param due pending rows whose next attempt is due now
 * @param inFlight deliveries under way
 * @param drainDone rows finished (sent, retried later or failed) in the current drain
 * @param drainTotal rows the current drain set out to deliver; 0 when no drain is under way
 * @param sentThisRun rows sent since the worker started
 * @param retriedThisRun transient failures scheduled for a retry since the worker started
 * @param failedThisRun rows that failed for good since the worker started
 * @param attemptsThisRun delivery attempts since the worker started
 * @param sentTotal rows in {@code sent}
 * @param failedTotal rows in {@code failed}
 * @param eventsPerSecond rows finished per second over the last few seconds
 * @param lastError the last error the worker met, or null
 * @param hold while the state has asked the worker to slow down (429): until when it sends nothing, and the
 *     state's answer; null otherwise
 */
public record WorkerSnapshot(
        Instant at,
        RunState runState,
        String pauseReason,
        boolean pausedBySystem,
        String endpoint,
        long pending,
        long due,
        int inFlight,
        long drainDone,
        long drainTotal,
        long sentThisRun,
        long retriedThisRun,
        long failedThisRun,
        long attemptsThisRun,
        long sentTotal,
        long failedTotal,
        double eventsPerSecond,
        String lastError,
        Hold hold) {

    public enum RunState {
        STOPPED, RUNNING, PAUSED
    }

    /**
     * The state asked the worker to slow down: it sends nothing before {@code until}; {@code reason} is the answer.
     *
     * @param since when this hold began: holds that follow each other without a gap differ by it
     */
    public record Hold(Instant since, Instant until, String reason) {
    }

    /** The same picture with another run state and pause. */
    public WorkerSnapshot withRunState(RunState state, String reason, boolean bySystem) {
        return new WorkerSnapshot(at, state, reason, bySystem, endpoint, pending, due, inFlight, drainDone, drainTotal,
                sentThisRun, retriedThisRun, failedThisRun, attemptsThisRun, sentTotal, failedTotal, eventsPerSecond,
                lastError, hold);
    }

    public static WorkerSnapshot stopped(String endpoint) {
        return new WorkerSnapshot(Instant.now(), RunState.STOPPED, null, false, endpoint, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0.0, null, null);
    }
}
