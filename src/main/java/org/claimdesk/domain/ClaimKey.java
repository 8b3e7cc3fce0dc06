package org.claimdesk.domain;

/**
 * What makes two claims the same claim for intake: the jurisdiction, the state property id and the claimant's name
 * (as stored: stripped, otherwise exact). A new claim with the key of one present needs a reason; an imported row
 * with it is already present or a conflict.
 */
public record ClaimKey(String jurisdiction, String statePropertyId, String claimantName) {

    public static ClaimKey of(Claim claim) {
        return new ClaimKey(claim.jurisdiction(), claim.statePropertyId(), claim.claimantName());
    }
}
