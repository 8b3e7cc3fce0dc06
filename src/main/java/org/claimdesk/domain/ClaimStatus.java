package org.claimdesk.domain;

/** The ten workflow statuses of a claim. Allowed moves between them live in {@link Transitions}. */
public enum ClaimStatus {
    IDENTITY_PENDING("Identity pending"),
    EVIDENCE_PENDING("Evidence pending"),
    READY_FOR_SUBMISSION("Ready for submission"),
    SUBMITTING("Submitting"),
    SUBMITTED_TO_STATE("Submitted to state"),
    NEEDS_INFO("Needs info"),
    APPROVED("Approved"),
    PAID("Paid"),
    REJECTED("Rejected"),
    WITHDRAWN("Withdrawn");

    private final String label;

    ClaimStatus(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public boolean isFinal() {
        return Transitions.allowedFrom(this).isEmpty();
    }

    /** Parses a status name case-insensitively, accepting dashes or spaces for underscores. */
    public static ClaimStatus parse(String text) {
        String normalized = text.trim().toUpperCase(java.util.Locale.ROOT).replace('-', '_').replace(' ', '_');
        for (ClaimStatus status : values()) {
            if (status.name().equals(normalized)) {
                return status;
            }
        }
        throw new IllegalArgumentException("unknown status '" + text + "'; expected one of "
                + java.util.Arrays.toString(values()));
    }
}
