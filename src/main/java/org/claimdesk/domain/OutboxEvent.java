package org.claimdesk.domain;

import java.time.Instant;

/**
 * One outbox row: a message to deliver to the state, at least once, under its idempotency key.
 *
 * @param updatedAt when the row last changed (queued, taken by the worker, tried, failed, sent, re-queued or
 *     abandoned): the age the Outbox filters on
 */
public record OutboxEvent(
        long outboxEventId,
        long aggregateId,
        String eventType,
        String payload,
        DeliveryState deliveryState,
        int attempts,
        String lastError,
        String idempotencyKey,
        Instant nextAttemptAt,
        String leaseOwner,
        Instant leaseExpiresAt,
        Instant createdAt,
        Instant sentAt,
        String stateCaseId,
        Instant updatedAt) {

    public static final String SUBMISSION_REQUESTED = "state_claim_submission_requested";
}
