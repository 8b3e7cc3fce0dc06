package org.claimdesk.domain;

/**
 * A new claim would repeat one already present: the same jurisdiction, state property id and claimant. Saving it
 * anyway needs that claim named as the one repeated, and a reason; the message names the claim present.
 */
public final class DuplicateClaimException extends ClaimDeskException {
    private final long existingClaimId;
    private final String existingClaimNumber;

    public DuplicateClaimException(Claim existing) {
        super("claim " + existing.claimNumber() + " (" + existing.status() + ") already has jurisdiction "
                + existing.jurisdiction() + ", state property id " + existing.statePropertyId() + " and claimant "
                + existing.claimantName() + "; to create another claim for them, name " + existing.claimNumber()
                + " as the claim it repeats and give a reason");
        this.existingClaimId = existing.claimId();
        this.existingClaimNumber = existing.claimNumber();
    }

    public long existingClaimId() {
        return existingClaimId;
    }

    public String existingClaimNumber() {
        return existingClaimNumber;
    }
}
