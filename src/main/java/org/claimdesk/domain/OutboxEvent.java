package org.claimdesk.domain;

import java.time.Instant;

/**
 * One outbox row: a message to deliver to the state, at least once, under its idempotency key.
 *
 * @param updatedAt when the row last changed (queued, taken by the worker, tried, failed, sent, re-queued or
 *     abandoned): the age the Outbox filters on
 * @param supersededBy the row that resubmitted this one's claim with corrected data, when {@code superseded}
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
        Instant updatedAt,
        Long supersededBy) {

    /** A row that no later row supersedes. */
    public OutboxEvent(long outboxEventId, long aggregateId, String eventType, String payload,
            DeliveryState deliveryState, int attempts, String lastError, String idempotencyKey, Instant nextAttemptAt,
            String leaseOwner, Instant leaseExpiresAt, Instant createdAt, Instant sentAt, String stateCaseId,
            Instant updatedAt) {
        this(outboxEventId, aggregateId, eventType, payload, deliveryState, attempts, lastError, idempotencyKey,
                nextAttemptAt, leaseOwner, leaseExpiresAt, createdAt, sentAt, stateCaseId, updatedAt, null);
    }

    public static final String SUBMISSION_REQUESTED = "state_claim_submission_requested";

    /**
     * Whether a claim's submission is on its way, given the claim's rows: one of them is pending (queued, being sent
     * or waiting to be retried). The store asks the database the same of many claims at once
     * ({@code OutboxStore.withPending}).
     */
    public static boolean anyPending(java.util.Collection<OutboxEvent> claimRows) {
        return claimRows.stream().anyMatch(r -> r.deliveryState() == DeliveryState.PENDING);
    }
}
