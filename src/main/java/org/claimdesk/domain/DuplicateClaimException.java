package org.claimdesk.domain;

/**
 * A new claim would repeat one already present: the same jurisdiction, state property id and claimant. Saving it
 * anyway needs that claim named as the one repeated, and a reason; the message names the claim present.
 */
public final class DuplicateClaimException extends ClaimDeskException {
    private final long existingClaimId;
    private final String existingClaimNumber;

    public DuplicateClaimException(Claim existing) {
        super(alreadyHas(existing) + "; to create another claim for them, name " + existing.claimNumber()
                + " as the claim it repeats and give a reason", null, alreadyHasForLog(existing));
        this.existingClaimId = existing.claimId();
        this.existingClaimNumber = existing.claimNumber();
    }

    /** "claim UPC-… (STATUS) already has jurisdiction …, state property id … and claimant …": the claim with the key. */
    public static String alreadyHas(Claim existing) {
        return "claim " + existing.claimNumber() + " (" + existing.status() + ") already has jurisdiction "
                + existing.jurisdiction() + ", state property id " + existing.statePropertyId() + " and claimant "
                + existing.claimantName();
    }

    /** {@link #alreadyHas} for the log: without the claimant's name, the claim's number says which claim it means. */
    public static String alreadyHasForLog(Claim existing) {
        return "claim " + existing.claimNumber() + " already has this jurisdiction, state property id and claimant";
    }

    public long existingClaimId() {
        return existingClaimId;
    }

    public String existingClaimNumber() {
        return existingClaimNumber;
    }
}
