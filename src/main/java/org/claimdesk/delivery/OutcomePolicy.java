package org.claimdesk.delivery;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.KeyPolicy;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.SubmissionPayload;
import org.claimdesk.domain.Transitions;
import org.claimdesk.store.DeliveryRecord;
import org.claimdesk.store.DeliveryRecord.Attempt;
import org.claimdesk.store.LeasedRow;

/**
 * What becomes of a leased row after one delivery: its next delivery state, its attempt and retry
 * counts, when it is due again, the claim's status change and decision date, and what the answer says
 * about the state itself. Pure: no threads, no IO and no clock of its own; the worker passes in the
 * times, and the jitter draws come from the supplier it was made with.
 *
 * <ul>
 *   <li>delivered (201, 200 replay, 409 duplicate with a case id): sent; the claim moves from SUBMITTING
 *       to SUBMITTED_TO_STATE with the case id and its statutory decision date; the retry count stays;</li>
 *   <li>transient (5xx, timeouts): back to pending after a jittered exponential backoff, never sooner than the
 *       state's Retry-After; failed for good once the retry count reaches the limit;</li>
 *   <li>throttled (429: the state asks ClaimDesk to slow down, not to give the row up): back to pending, retry
 *       count unchanged, due after the backoff ceiling of the worker's holds in a row, never sooner than the
 *       state's Retry-After; the worker sends nothing until then;</li>
 *   <li>permanent (400, 422): failed for good at once;</li>
 *   <li>systemic (401, 403, no API at this address): back to pending, due now, retry count unchanged;
 *       the worker pauses;</li>
 *   <li>unreachable: back to pending after the first backoff step, retry count unchanged; the worker
 *       pauses after {@link DeliveryWorker#UNREACHABLE_LIMIT} such calls in a row;</li>
 *   <li>an answer the adapter left unclassified, or a delivery without a case id: transient, so that it
 *       is tried again and bounded by the limit, and never marks a claim submitted without a case id.</li>
 * </ul>
 */
final class OutcomePolicy {
    /** What an answer says about the state as a whole, beyond the one row. */
    enum StateHealth {
        /** The state answered (whatever it said): a run of unreachable calls is over. */
        ANSWERED,
        /** No connection could be opened; the worker pauses after several in a row. */
        UNREACHABLE,
        /** The state refuses every call alike (credentials, no API at this address): the worker pauses at once. */
        REFUSING,
        /** The state asks to slow down (429): the worker sends nothing until the row's next attempt is due. */
        THROTTLED
    }

    /** A claim's status change, allowed by the transition table ({@link Transitions#check}) or not made at all. */
    record ClaimMove(ClaimStatus from, ClaimStatus to) {
        ClaimMove {
            Transitions.check(from, to);
        }
    }

    /**
     * @param record the row's outcome, as the committer writes it
     * @param claimMove the claim's status change the record makes when the store applies it; null for none
     */
    record Decision(DeliveryRecord record, StateHealth health, ClaimMove claimMove) {
    }

    /** The submission to send, or why the row cannot be sent at all. */
    record Sendable(SubmissionPayload payload, String refusal) {
    }

    /** The shortest hold a 429 brings, whatever the backoff settings and the state's Retry-After. */
    static final Duration SHORTEST_HOLD = Duration.ofSeconds(1);

    private final Supplier<WorkerSettings> settings;
    private final Deadlines deadlines;
    private final ZoneId zone;
    private final DoubleSupplier random;

    /**
     * @param settings the worker's current settings (attempt limit, backoff), read at each decision
     * @param zone the office's time zone, in which a decision date's filing day is counted
     * @param random uniform draws in [0, 1) for the backoff jitter
     */
    OutcomePolicy(Supplier<WorkerSettings> settings, Deadlines deadlines, ZoneId zone, DoubleSupplier random) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.deadlines = Objects.requireNonNull(deadlines, "deadlines");
        this.zone = Objects.requireNonNull(zone, "zone");
        this.random = Objects.requireNonNull(random, "random");
    }

    /**
     * Checks a leased row before any call: the event type this worker delivers, a claim that still
     * exists, a payload that reads as a submission of that claim under the row's key.
     */
    static Sendable sendable(LeasedRow row) {
        if (!OutboxEvent.SUBMISSION_REQUESTED.equals(row.eventType())) {
            return new Sendable(null, "unknown event type '" + row.eventType()
                    + "': this worker delivers only " + OutboxEvent.SUBMISSION_REQUESTED);
        }
        if (row.jurisdiction() == null) {
            return new Sendable(null, "claim " + row.claimId() + " no longer exists: there is nothing to submit");
        }
        String keyRefusal = KeyPolicy.keyRefusal(row.idempotencyKey());
        if (keyRefusal != null) {
            return new Sendable(null, keyRefusal + " (give the row up and submit the claim again: it gets a new key)");
        }
        PayloadCheck.Result payload = PayloadCheck.check(row);
        if (payload.error() != null) {
            return new Sendable(null, "malformed payload: " + payload.error());
        }
        return new Sendable(payload.payload(), null);
    }

    /** A row that cannot be sent fails for good without a call; the attempt is kept with the reason. */
    static DeliveryRecord refused(LeasedRow row, String refusal, Instant started) {
        return DeliveryRecord.failed(row, row.retryCount() + 1, refusal,
                new Attempt(started, 0, AttemptOutcome.PERMANENT, null, refusal));
    }

    /**
     * A delivery that failed inside ClaimDesk, before or after its call: counted as a transient failure (backoff,
     * then failed for good at the attempt limit), so that it neither comes back at once nor goes on for ever; a
     * resend goes under the same key, which is safe if the call had reached the state.
     */
    DeliveryRecord internalFailure(LeasedRow row, String message, Instant started, Instant now) {
        return transientFailure(row, message, null, null, message, settings.get(), started, 0, now).record();
    }

    /**
     * The outcome of one call to the state for {@code row}.
     *
     * @param payload the submission sent (its jurisdiction stands in when the row's is unknown)
     * @param started when the attempt started
     * @param now when the answer came: backoff and the decision date count from here
     * @param throttledInARow the worker's holds for the state's 429s in a row, before this answer's
     */
    Decision decide(LeasedRow row, SubmissionPayload payload, StateAnswer answer,
            Instant started, long durationMs, Instant now, int throttledInARow) {
        WorkerSettings s = settings.get();
        if (answer == null || answer.outcome() == null) {
            String message = "the state adapter gave no classified answer"
                    + (answer == null || answer.message() == null ? "" : ": " + answer.message());
            return transientFailure(row, message, null, null, message, s, started, durationMs, now);
        }
        Integer status = answer.httpStatus();
        if (answer.unreachable()) {
            Duration wait = Backoff.delay(1, s.backoffBase(), s.backoffCap(), null, random);
            return new Decision(DeliveryRecord.retry(row, row.retryCount(), answer.message(), now.plus(wait),
                    new Attempt(started, durationMs, AttemptOutcome.SYSTEMIC, null, answer.attemptDetail())),
                    StateHealth.UNREACHABLE, null);
        }
        return switch (answer.outcome()) {
            case DELIVERED -> {
                if (answer.caseId() == null || answer.caseId().isBlank()) {
                    String message = answer.message() + " (no case id: not counted as delivered)";
                    yield transientFailure(row, message, status, null, message, s, started, durationMs, now);
                }
                String amended = payload != null && payload.amends() != null ? payload.amends() : row.decidedCaseId();
                if (status != null && status == 409 && amended != null && amended.equals(answer.caseId())) {
                    // the claim would read as delivered under the very case the state rejected, its amendment unjudged
                    String message = answer.message() + ": the state holds this claim under case " + answer.caseId()
                            + ", the case it decided, and did not take the amendment as a new filing; ask the state"
                            + " how it takes an amended claim";
                    yield new Decision(DeliveryRecord.failed(row, row.retryCount() + 1, message,
                            new Attempt(started, durationMs, AttemptOutcome.PERMANENT, status, answer.attemptDetail())),
                            StateHealth.ANSWERED, null);
                }
                String jurisdiction = row.jurisdiction() != null ? row.jurisdiction() : payload.jurisdiction();
                LocalDate dueOn = deadlines.dueDate(jurisdiction, LocalDate.ofInstant(now, zone));
                yield new Decision(DeliveryRecord.delivered(row, answer.caseId(), dueOn,
                        new Attempt(started, durationMs, AttemptOutcome.DELIVERED, status, answer.attemptDetail())),
                        StateHealth.ANSWERED, new ClaimMove(ClaimStatus.SUBMITTING, ClaimStatus.SUBMITTED_TO_STATE));
            }
            case TRANSIENT -> status != null && status == 429
                    ? throttled(row, answer, s, started, durationMs, now, throttledInARow)
                    : transientFailure(row, answer.message(), status, answer.retryAfter(), answer.attemptDetail(), s,
                            started, durationMs, now);
            case PERMANENT -> new Decision(DeliveryRecord.failed(row, row.retryCount() + 1, answer.message(),
                    new Attempt(started, durationMs, AttemptOutcome.PERMANENT, status, answer.attemptDetail(),
                            answer.field())),
                    StateHealth.ANSWERED, null);
            case SYSTEMIC -> new Decision(DeliveryRecord.retry(row, row.retryCount(), answer.message(), now,
                    new Attempt(started, durationMs, AttemptOutcome.SYSTEMIC, status, answer.attemptDetail())),
                    StateHealth.REFUSING, null);
        };
    }

    /**
     * The state asks to slow down: whatever the limit, a state that rate-limits for hours leaves its rows pending,
     * not failed. The wait is the backoff ceiling of the worker's holds in a row (not a jittered draw: the worker
     * holds every send for it), never shorter than the state's Retry-After nor than {@link #SHORTEST_HOLD} (a backoff
     * base of 0 would send the row again at once, for ever): a state that goes on answering 429 gets ever fewer
     * calls, up to the backoff cap apart.
     *
     * @param throttledInARow the worker's holds in a row before this answer's
     */
    private Decision throttled(LeasedRow row, StateAnswer answer, WorkerSettings s, Instant started, long durationMs,
            Instant now, int throttledInARow) {
        Duration ceiling = Backoff.ceiling(throttledInARow + 1, s.backoffBase(), s.backoffCap());
        Duration asked = answer.retryAfter();
        Duration wait = asked != null && asked.compareTo(ceiling) > 0 ? asked : ceiling;
        if (wait.compareTo(SHORTEST_HOLD) < 0) {
            wait = SHORTEST_HOLD;
        }
        return new Decision(DeliveryRecord.retry(row, row.retryCount(), answer.message(), now.plus(wait),
                new Attempt(started, durationMs, AttemptOutcome.TRANSIENT, answer.httpStatus(), answer.attemptDetail())),
                StateHealth.THROTTLED, null);
    }

    /** Counted toward the limit: back to pending after the backoff, or failed for good at the limit. */
    private Decision transientFailure(LeasedRow row, String message, Integer status, Duration retryAfter,
            String detail, WorkerSettings s, Instant started, long durationMs, Instant now) {
        int retry = row.retryCount() + 1;
        Attempt attempt = new Attempt(started, durationMs, AttemptOutcome.TRANSIENT, status, detail);
        if (retry >= s.maxAttempts()) {
            return new Decision(DeliveryRecord.failed(row, retry, message + " (gave up after " + retry + " attempts)",
                    attempt), StateHealth.ANSWERED, null);
        }
        Duration wait = Backoff.delay(retry, s.backoffBase(), s.backoffCap(), retryAfter, random);
        return new Decision(DeliveryRecord.retry(row, retry, message, now.plus(wait), attempt), StateHealth.ANSWERED,
                null);
    }
}
