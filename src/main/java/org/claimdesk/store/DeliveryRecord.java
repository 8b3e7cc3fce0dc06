package org.claimdesk.store;

import java.time.Instant;
import java.time.LocalDate;
import org.claimdesk.domain.AttemptOutcome;

/**
 * What one delivery did, as the worker writes it in a batch: the row's new state and, unless the
 * lease is merely given back, the attempt that produced it.
 *
 * @param attempts the row's attempt count after this attempt
 * @param retryCount the row's count toward backoff and the limit after this attempt
 * @param nextAttemptAt for {@link Kind#RETRY}: when the row is due again
 * @param caseId for {@link Kind#SENT}: the state's case id
 * @param decisionDueOn for {@link Kind#SENT}: the claim's statutory decision date
 * @param field the submission field the state named as at fault, kept with the attempt; or null
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
        String field) {

    public DeliveryRecord(Kind kind, long outboxEventId, long claimId, String idempotencyKey, int attempts,
            int retryCount, String lastError, Instant nextAttemptAt, String caseId, LocalDate decisionDueOn,
            Instant startedAt, long durationMs, AttemptOutcome outcome, Integer httpStatus, String detail) {
        this(kind, outboxEventId, claimId, idempotencyKey, attempts, retryCount, lastError, nextAttemptAt, caseId,
                decisionDueOn, startedAt, durationMs, outcome, httpStatus, detail, null);
    }

    /** This record with the field the state named as at fault. */
    public DeliveryRecord withField(String value) {
        return new DeliveryRecord(kind, outboxEventId, claimId, idempotencyKey, attempts, retryCount, lastError,
                nextAttemptAt, caseId, decisionDueOn, startedAt, durationMs, outcome, httpStatus, detail, value);
    }

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

    public boolean hasAttempt() {
        return kind != Kind.RELEASE;
    }

    public static DeliveryRecord release(LeasedRow row) {
        return new DeliveryRecord(Kind.RELEASE, row.outboxEventId(), row.claimId(), row.idempotencyKey(),
                row.attempts(), row.retryCount(), null, null, null, null, null, 0, null, null, null);
    }

    /** Gives back the lease of a row that was leased but never read (a release uses nothing but the id). */
    public static DeliveryRecord release(long outboxEventId) {
        return new DeliveryRecord(Kind.RELEASE, outboxEventId, 0, null, 0, 0, null, null, null, null, null, 0, null,
                null, null);
    }
}
