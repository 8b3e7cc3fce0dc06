package org.claimdesk.domain;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;

/**
 * One claim as stored. The tax id is kept whole; every place that shows it uses {@link TaxIds#mask}.
 *
 * @param claimantEmail optional, like the phone and the address
 * @param decisionDueOn the statutory decision date, set when the claim reaches SUBMITTED_TO_STATE
 */
public record Claim(
        long claimId,
        String claimNumber,
        String jurisdiction,
        String statePropertyId,
        String holderName,
        String holderId,
        PropertyType propertyType,
        ClaimType claimType,
        String claimantName,
        String claimantEmail,
        String claimantPhone,
        String claimantAddress,
        String taxId,
        long amountCents,
        ClaimStatus status,
        String stateCaseId,
        LocalDate filedOn,
        LocalDate decisionDueOn,
        long version,
        Instant createdAt,
        Instant updatedAt) {

    public Claim {
        Objects.requireNonNull(claimNumber, "claimNumber");
        Objects.requireNonNull(jurisdiction, "jurisdiction");
        Objects.requireNonNull(status, "status");
        if (amountCents < 0) {
            throw new IllegalArgumentException("amount must not be negative");
        }
    }

    /** A claim with no contact details on file. */
    public Claim(long claimId, String claimNumber, String jurisdiction, String statePropertyId, String holderName,
            String holderId, PropertyType propertyType, ClaimType claimType, String claimantName, String taxId,
            long amountCents, ClaimStatus status, String stateCaseId, LocalDate filedOn, LocalDate decisionDueOn,
            long version, Instant createdAt, Instant updatedAt) {
        this(claimId, claimNumber, jurisdiction, statePropertyId, holderName, holderId, propertyType, claimType,
                claimantName, null, null, null, taxId, amountCents, status, stateCaseId, filedOn, decisionDueOn,
                version, createdAt, updatedAt);
    }

    /** Overdue: a decision is still pending and the statutory decision date has passed. */
    public boolean isOverdue(LocalDate today) {
        return decisionDueOn != null && Deadlines.awaitsDecision(status) && today.isAfter(decisionDueOn);
    }

    public String maskedTaxId() {
        return TaxIds.mask(taxId);
    }

    /** Never prints the tax id whole. */
    @Override
    public String toString() {
        return "Claim[" + claimId + " " + claimNumber + " " + jurisdiction + " " + status + " v" + version
                + " taxId=" + maskedTaxId() + "]";
    }
}
