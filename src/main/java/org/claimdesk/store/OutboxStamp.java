package org.claimdesk.store;

import org.claimdesk.domain.DeliveryState;

/**
 * An outbox row as a preview saw it: what a bulk action needs to act on it, and its {@code updatedAt},
 * which tells the action whether the row changed since (then it is left alone).
 */
public record OutboxStamp(long outboxEventId, long claimId, String idempotencyKey, String lastError,
        DeliveryState state, long updatedAt) {
}
