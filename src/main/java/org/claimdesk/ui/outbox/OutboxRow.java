package org.claimdesk.ui.outbox;

import org.claimdesk.domain.OutboxEvent;

/** One outbox-table row: the event and, for business context, the claim it belongs to. */
public record OutboxRow(OutboxEvent event, String claimNumber, String jurisdiction, String claimant,
        String claimStatus) {

    public long id() {
        return event.outboxEventId();
    }
}
