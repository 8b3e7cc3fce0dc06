package org.claimdesk.domain;

/**
 * The body of a {@code state_claim_submission_requested} outbox row and of the POST to the state.
 * It carries only the last four digits of the tax id: the state matches them against the holder's
 * report, and the full number stays in the office's database.
 */
public record SubmissionPayload(
        long claimId,
        String idempotencyKey,
        String claimNumber,
        String jurisdiction,
        String statePropertyId,
        String holderName,
        String holderId,
        String propertyType,
        String claimType,
        String claimantName,
        String taxIdLast4,
        long amountCents,
        String filedOn) {

    public static SubmissionPayload of(Claim claim, String idempotencyKey) {
        String digits = claim.taxId() == null ? "" : claim.taxId().replaceAll("[^0-9]", "");
        return new SubmissionPayload(claim.claimId(), idempotencyKey, claim.claimNumber(), claim.jurisdiction(),
                claim.statePropertyId(), claim.holderName(), claim.holderId(), claim.propertyType().name(),
                claim.claimType().name(), claim.claimantName(),
                digits.length() >= 4 ? digits.substring(digits.length() - 4) : "",
                claim.amountCents(), claim.filedOn().toString());
    }
}
