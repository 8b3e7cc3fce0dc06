package org.claimdesk.domain;

import java.time.Instant;

/** One outbox row: a message to deliver to the state, at least once, under its idempotency key. */
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
        String stateCaseId) {

    public static final String SUBMISSION_REQUESTED = "state_claim_submission_requested";
}
