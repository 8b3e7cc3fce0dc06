package org.claimdesk.domain;

/**
 * The action names written to the audit trail: what staff do. What the delivery worker does is recorded
 * in each claim's status history and in the outbox row's attempts.
 */
public final class AuditActions {
    public static final String CLAIM_ADVANCE = "claim.advance";
    public static final String CLAIM_SUBMIT = "claim.submit";
    public static final String TAX_ID_REVEAL = "claim.reveal_tax_id";
    public static final String OUTBOX_REQUEUE = "outbox.requeue";
    public static final String OUTBOX_ABANDON = "outbox.abandon";
    public static final String OUTBOX_RECONCILE = "outbox.reconcile";
    public static final String OUTBOX_RESUBMIT = "outbox.resubmit";
    public static final String SETTINGS_CHANGE = "settings.change";

    public static final String SUBJECT_CLAIM = "claim";
    public static final String SUBJECT_OUTBOX = "outbox_event";
    public static final String SUBJECT_SETTINGS = "settings";

    private AuditActions() {
    }
}
