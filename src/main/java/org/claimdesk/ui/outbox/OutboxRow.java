package org.claimdesk.ui.outbox;

import org.claimdesk.domain.OutboxEvent;

/** One outbox-table row: the event and the claim it belongs to. */
public record OutboxRow(OutboxEvent event, String claimNumber, String jurisdiction) {

    public long id() {
        return event.outboxEventId();
    }
}
