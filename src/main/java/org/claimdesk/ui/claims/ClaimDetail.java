package org.claimdesk.ui.claims;

import java.util.List;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.StatusChange;

/**
 * Everything the detail pane shows about one claim, read in one background task.
 *
 * @param editable the claim's fields as the edit mode starts from them; null when the claim is gone
 */
public record ClaimDetail(
        ClaimRow claim,
        List<StatusChange> history,
        List<AuditEntry> audit,
        List<Delivery> deliveries,
        EditableClaim editable,
        List<Evidence> evidence) {

    /** One outbox row of the claim with its attempts. */
    public record Delivery(OutboxEvent event, List<DeliveryAttempt> attempts) {
    }
}
