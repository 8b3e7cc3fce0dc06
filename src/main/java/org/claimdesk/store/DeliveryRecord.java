package org.claimdesk.store;

import java.time.Instant;
import java.time.LocalDate;
import org.claimdesk.domain.AttemptOutcome;

/**
 * What one delivery did, as the worker writes it in a batch: the row's new state and, unless the
 * lease is merely given back, the attempt that produced it. Made through the named factories
 * ({@link #delivered}, {@link #retry}, {@link #failed}, {@link #released}), which fill in what each kind
 * leaves empty.
 *
 * @param attempts the row's attempt count after this attempt
 * @param retryCount the row's count toward backoff and the limit after this attempt
 * @param nextAttemptAt for {@link Kind#RETRY}: when the row is due again
 * @param caseId for {@link Kind#SENT}: the state's case id
 * @param decisionDueOn for {@link Kind#SENT}: the claim's statutory decision date
 * @param field the submission field the state named as at fault, kept with the attempt; or null
 * @param leaseEnd the end of the lease the record was made under ({@link LeasedRow#leaseExpiresAt}): with the
 *     worker's id, what the outcome's write requires of the row, so that an outcome of an earlier lease is not
 *     written over a later one
 */
public record DeliveryRecord(
        Kind kind,
        long outboxEventId,
        long claimId,
        String idempotencyKey,
        int attempts,
        int retryCount,
        String lastError,
        Instant nextAttemptAt,
        String caseId,
        LocalDate decisionDueOn,
        Instant startedAt,
        long durationMs,
        AttemptOutcome outcome,
        Integer httpStatus,
        String detail,
        String field,
        Instant leaseEnd) {

    public enum Kind {
        /** Delivered: row sent, claim SUBMITTED_TO_STATE with the case id. */
        SENT,
        /** Back to pending, due at {@code nextAttemptAt}. */
        RETRY,
        /** Failed for good. */
        FAILED,
        /** Not attempted: the lease is given back untouched. */
        RELEASE
    }

    /**
     * One attempt as {@code delivery_attempt} keeps it.
     *
     * @param httpStatus null when no HTTP answer came, or no call was made
     * @param detail the text kept with the attempt
     * @param field the submission field the state named as at fault, or null
     */
    public record Attempt(Instant startedAt, long durationMs, AttemptOutcome outcome, Integer httpStatus,
            String detail, String field) {

        /** An attempt whose answer named no field. */
        public Attempt(Instant startedAt, long durationMs, AttemptOutcome outcome, Integer httpStatus, String detail) {
            this(startedAt, durationMs, outcome, httpStatus, detail, null);
        }
    }

    public boolean hasAttempt() {
        return kind != Kind.RELEASE;
    }

    /** The state accepted {@code row} under {@code caseId}; its retry count stays as it was. */
    public static DeliveryRecord delivered(LeasedRow row, String caseId, LocalDate decisionDueOn, Attempt attempt) {
        return of(Kind.SENT, row, row.retryCount(), null, null, caseId, decisionDueOn, attempt);
    }

    /** {@code row} goes back to pending, due again at {@code nextAttemptAt}. */
    public static DeliveryRecord retry(LeasedRow row, int retryCount, String error, Instant nextAttemptAt,
            Attempt attempt) {
        return of(Kind.RETRY, row, retryCount, error, nextAttemptAt, null, null, attempt);
    }

    /** {@code row} failed for good. */
    public static DeliveryRecord failed(LeasedRow row, int retryCount, String error, Attempt attempt) {
        return of(Kind.FAILED, row, retryCount, error, null, null, null, attempt);
    }

    /** {@code row} was not attempted: its lease is given back and nothing else changes. */
    public static DeliveryRecord released(LeasedRow row) {
        return new DeliveryRecord(Kind.RELEASE, row.outboxEventId(), row.claimId(), row.idempotencyKey(),
                row.attempts(), row.retryCount(), null, null, null, null, null, 0, null, null, null, null,
                row.leaseExpiresAt());
    }

    /**
     * Gives back the lease ending at {@code leaseEnd} of a row that was leased but not read under it (a release uses
     * nothing but the id and the lease).
     */
    public static DeliveryRecord released(long outboxEventId, Instant leaseEnd) {
        return new DeliveryRecord(Kind.RELEASE, outboxEventId, 0, null, 0, 0, null, null, null, null, null, 0, null,
                null, null, null, leaseEnd);
    }

    /** An attempted outcome: the row's attempt count goes up by one. */
    private static DeliveryRecord of(Kind kind, LeasedRow row, int retryCount, String error, Instant nextAttemptAt,
            String caseId, LocalDate decisionDueOn, Attempt attempt) {
        return new DeliveryRecord(kind, row.outboxEventId(), row.claimId(), row.idempotencyKey(), row.attempts() + 1,
                retryCount, error, nextAttemptAt, caseId, decisionDueOn, attempt.startedAt(), attempt.durationMs(),
                attempt.outcome(), attempt.httpStatus(), attempt.detail(), attempt.field(), row.leaseExpiresAt());
    }
}
