package org.claimdesk.domain;

import java.util.List;

/**
 * The body of a {@code state_claim_submission_requested} outbox row and of the POST to the state.
 * It carries only the last four digits of the tax id: the state matches them against the holder's
 * report, and the full number stays in the office's database. Evidence is listed by kind and, for a
 * file, its SHA-256: never a file's contents, its name or its address.
 *
 * @param amends the case id of the case the state decided (rejected) that this submission amends: a rejected claim
 *     amended and submitted again is a new filing the state judges anew, where a second submission of a claim it
 *     holds is a duplicate; null for a first filing (and then left out of the JSON)
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
        String filedOn,
        String claimantEmail,
        String claimantPhone,
        String claimantAddress,
        List<EvidenceRef> evidence,
        String amends) {

    /** One evidence reference as the state sees it: what it proves, and for a file its SHA-256. */
    public record EvidenceRef(String kind, String source, String sha256) {
        public static EvidenceRef of(Evidence e) {
            return new EvidenceRef(e.kind().code(), e.isFile() ? "file" : "url", e.sha256());
        }
    }

    public SubmissionPayload {
        evidence = evidence == null ? List.of() : List.copyOf(evidence);
    }

    /** A first filing's payload. */
    public SubmissionPayload(long claimId, String idempotencyKey, String claimNumber, String jurisdiction,
            String statePropertyId, String holderName, String holderId, String propertyType, String claimType,
            String claimantName, String taxIdLast4, long amountCents, String filedOn, String claimantEmail,
            String claimantPhone, String claimantAddress, List<EvidenceRef> evidence) {
        this(claimId, idempotencyKey, claimNumber, jurisdiction, statePropertyId, holderName, holderId, propertyType,
                claimType, claimantName, taxIdLast4, amountCents, filedOn, claimantEmail, claimantPhone,
                claimantAddress, evidence, null);
    }

    /** A payload without contact details or evidence (rows queued before claims carried them). */
    public SubmissionPayload(long claimId, String idempotencyKey, String claimNumber, String jurisdiction,
            String statePropertyId, String holderName, String holderId, String propertyType, String claimType,
            String claimantName, String taxIdLast4, long amountCents, String filedOn) {
        this(claimId, idempotencyKey, claimNumber, jurisdiction, statePropertyId, holderName, holderId, propertyType,
                claimType, claimantName, taxIdLast4, amountCents, filedOn, null, null, null, List.of());
    }

    /**
     * This payload as the amendment of the case {@code decidedCaseId}, which the state decided; unchanged when it is
     * null (a claim the state holds no case of).
     */
    public SubmissionPayload amending(String decidedCaseId) {
        return decidedCaseId == null ? this : new SubmissionPayload(claimId, idempotencyKey, claimNumber, jurisdiction,
                statePropertyId, holderName, holderId, propertyType, claimType, claimantName, taxIdLast4, amountCents,
                filedOn, claimantEmail, claimantPhone, claimantAddress, evidence, decidedCaseId);
    }

    public static SubmissionPayload of(Claim claim, String idempotencyKey) {
        return of(claim, List.of(), idempotencyKey);
    }

    /** The claim's payload with the references of {@code evidence} that count (a withdrawn one is not sent). */
    public static SubmissionPayload of(Claim claim, List<Evidence> evidence, String idempotencyKey) {
        return new SubmissionPayload(claim.claimId(), idempotencyKey, claim.claimNumber(), claim.jurisdiction(),
                claim.statePropertyId(), claim.holderName(), claim.holderId(), claim.propertyType().name(),
                claim.claimType().name(), claim.claimantName(),
                TaxIds.last4(claim.taxId()),
                claim.amountCents(), claim.filedOn().toString(), claim.claimantEmail(), claim.claimantPhone(),
                claim.claimantAddress(), Evidence.current(evidence).stream().map(EvidenceRef::of).toList());
    }
}
