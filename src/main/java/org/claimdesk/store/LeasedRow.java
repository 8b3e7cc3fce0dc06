package org.claimdesk.store;

import java.time.Instant;

/**
 * An outbox row a worker has just leased: reserved to it until {@code leaseExpiresAt}.
 *
 * @param attempts attempts made so far (the next one is {@code attempts + 1})
 * @param retryCount attempts counted toward backoff and the limit since the row was queued or re-queued
 * @param jurisdiction the claim's jurisdiction (for its statutory decision date); null when the claim is gone
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
        String jurisdiction) {
}
