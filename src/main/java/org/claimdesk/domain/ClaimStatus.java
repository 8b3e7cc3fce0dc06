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

    /** Why a claim whose submission is on its way to the state cannot be edited (see {@link #editRefusal}). */
    public static final String SUBMISSION_PENDING_REFUSAL = "its submission is on its way to the state with the data"
            + " it was queued with; it can be edited if the state refuses it (its outbox row then shows failed)";

    /**
     * Why a claim in this status cannot be edited, or empty when it can. Claims are editable in every
     * status before SUBMITTED_TO_STATE and in NEEDS_INFO, with one exception: a SUBMITTING claim whose
     * submission is still pending (queued, being sent or retried) keeps its data, because the state may be
     * receiving exactly that data; a claim shown SUBMITTED_TO_STATE must hold what the state got. A
     * SUBMITTING claim whose submission failed is editable: it is fixed by editing it, then resubmitted.
     *
     * @param submissionPending whether one of the claim's outbox rows is pending
     */
    public java.util.Optional<String> editRefusal(boolean submissionPending) {
        String reason = switch (this) {
            case IDENTITY_PENDING, EVIDENCE_PENDING, READY_FOR_SUBMISSION, NEEDS_INFO -> null;
            case SUBMITTING -> submissionPending ? SUBMISSION_PENDING_REFUSAL : null;
            case SUBMITTED_TO_STATE -> "the state is reviewing the claim as it was submitted; it can be edited"
                    + " again if the state asks for more information (NEEDS_INFO)";
            case APPROVED -> "the state approved the claim as it was submitted";
            case PAID -> "the claim is paid; its data is final";
            case REJECTED -> "the state rejected the claim; move it back to EVIDENCE_PENDING to amend it";
            case WITHDRAWN -> "the claimant withdrew the claim; its data is final";
        };
        return java.util.Optional.ofNullable(reason);
    }

    /**
     * Why {@code field} cannot be changed in this status though the claim can be edited, or empty when it can. While
     * the state asks for information (NEEDS_INFO) its case is about the property, the holder, the claim type and the
     * amount as they were submitted: "Information sent to state" moves the claim back to SUBMITTED_TO_STATE without a
     * new submission, so a change of those would show the claim with data the state never got. The claimant's name,
     * contact details and tax id can be corrected (what went to the state is said then); a claim for other property or
     * another amount is a new claim.
     */
    public java.util.Optional<String> fieldRefusal(ClaimField<?> field) {
        if (this != NEEDS_INFO || !field.namesTheCase()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("cannot be changed while the state asks for information: its case is about"
                + " the claim as submitted (the claimant's name, contact details and tax id can be corrected; other"
                + " property or another amount is a new claim)");
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
