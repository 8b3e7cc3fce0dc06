package org.claimdesk.ui.claims;

import java.util.List;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.StatusChange;

/** Everything the detail pane shows about one claim, read in one background task. */
public record ClaimDetail(
        ClaimRow claim,
        List<StatusChange> history,
        List<AuditEntry> audit,
        List<Delivery> deliveries) {

    /** One outbox row of the claim with its attempts. */
    public record Delivery(OutboxEvent event, List<DeliveryAttempt> attempts) {
    }
}
