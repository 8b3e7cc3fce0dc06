package org.claimdesk.store;

import java.time.Instant;
import org.claimdesk.domain.DeliveryState;

/**
 * A filter and a page over outbox rows.
 *
 * @param state null for every state
 * @param jurisdiction the claim's jurisdiction, null for every one
 * @param errorText text found in {@code last_error}
 * @param createdBefore only rows created before this instant (age filter)
 * @param claimId only this claim's rows
 * @param limit at most this many rows; 0 or less for every match
 */
public record OutboxQuery(
        DeliveryState state,
        String jurisdiction,
        String errorText,
        Instant createdBefore,
        Long claimId,
        int offset,
        int limit) {

    public static OutboxQuery all() {
        return new OutboxQuery(null, null, null, null, null, 0, 0);
    }

    public OutboxQuery withState(DeliveryState value) {
        return new OutboxQuery(value, jurisdiction, errorText, createdBefore, claimId, offset, limit);
    }

    public OutboxQuery withJurisdiction(String value) {
        return new OutboxQuery(state, value, errorText, createdBefore, claimId, offset, limit);
    }

    public OutboxQuery withErrorText(String value) {
        return new OutboxQuery(state, jurisdiction, value, createdBefore, claimId, offset, limit);
    }

    public OutboxQuery withCreatedBefore(Instant value) {
        return new OutboxQuery(state, jurisdiction, errorText, value, claimId, offset, limit);
    }

    public OutboxQuery withClaimId(Long value) {
        return new OutboxQuery(state, jurisdiction, errorText, createdBefore, value, offset, limit);
    }

    public OutboxQuery withPage(int newOffset, int newLimit) {
        return new OutboxQuery(state, jurisdiction, errorText, createdBefore, claimId, newOffset, newLimit);
    }
}
