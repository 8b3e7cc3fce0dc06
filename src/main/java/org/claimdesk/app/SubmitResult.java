package org.claimdesk.app;

import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.DeliveryState;

/**
 * What {@link Workflow#submit} did: this outbox row carries the claim's submission. A new one leaves the claim
 * SUBMITTING and the row pending; a replay of its key says where both are now (the row may be sent, the claim
 * decided since).
 */
public record SubmitResult(long claimId, String claimNumber, long outboxEventId, String idempotencyKey,
        boolean replayed, ClaimStatus claimStatus, DeliveryState rowState) {
}
