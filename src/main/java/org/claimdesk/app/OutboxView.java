package org.claimdesk.app;

import java.time.Instant;
import org.claimdesk.domain.OutboxEvent;

/** An outbox row as the CLI and exports show it. */
public record OutboxView(
        long outboxEventId,
        long claimId,
        String eventType,
        String deliveryState,
        int attempts,
        String lastError,
        String idempotencyKey,
        Instant nextAttemptAt,
        Instant createdAt,
        Instant sentAt,
        String stateCaseId,
        String leaseOwner,
        Instant leaseExpiresAt,
        Instant updatedAt,
        Long supersededBy) {

    public static OutboxView of(OutboxEvent e) {
        return new OutboxView(e.outboxEventId(), e.aggregateId(), e.eventType(), e.deliveryState().dbValue(),
                e.attempts(), e.lastError(), e.idempotencyKey(), e.nextAttemptAt(), e.createdAt(), e.sentAt(),
                e.stateCaseId(), e.leaseOwner(), e.leaseExpiresAt(), e.updatedAt(), e.supersededBy());
    }
}
