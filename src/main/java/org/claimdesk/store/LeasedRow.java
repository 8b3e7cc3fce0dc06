package org.claimdesk.store;

import java.time.Instant;

/**
 * An outbox row a worker has just leased: reserved to it until {@code leaseExpiresAt}.
 *
 * @param attempts attempts made so far (the next one is {@code attempts + 1})
 * @param retryCount attempts counted toward backoff and the limit since the row was queued or re-queued
 * @param jurisdiction the claim's jurisdiction (for its statutory decision date); null when the claim is gone
 * @param decidedCaseId the case id a SUBMITTING claim still holds: the case the state decided (rejected) that this
 *     submission amends, whether or not its payload, queued before submissions named it, says so; null for a first
 *     filing
 */
public record LeasedRow(
        long outboxEventId,
        long claimId,
        String eventType,
        String payload,
        String idempotencyKey,
        int attempts,
        int retryCount,
        Instant leaseExpiresAt,
        String jurisdiction,
        String decidedCaseId) {

    /** A row of a claim the state holds no decided case of. */
    public LeasedRow(long outboxEventId, long claimId, String eventType, String payload, String idempotencyKey,
            int attempts, int retryCount, Instant leaseExpiresAt, String jurisdiction) {
        this(outboxEventId, claimId, eventType, payload, idempotencyKey, attempts, retryCount, leaseExpiresAt,
                jurisdiction, null);
    }
}
