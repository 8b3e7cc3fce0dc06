package org.claimdesk.ui.claims;

import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.PropertyType;

/** One claims-table row: the claim as staff see it, the tax id already masked. */
public record ClaimRow(
        long claimId,
        String claimNumber,
        String jurisdiction,
        String claimantName,
        String taxIdMasked,
        PropertyType propertyType,
        ClaimType claimType,
        long amountCents,
        ClaimStatus status,
        String stateCaseId,
        String statePropertyId,
        String holderName,
        String holderId,
        LocalDate filedOn,
        long ageDays,
        LocalDate decisionDueOn,
        boolean overdue,
        long version) {

    public static ClaimRow of(Claim c, LocalDate today) {
        return new ClaimRow(c.claimId(), c.claimNumber(), c.jurisdiction(), c.claimantName(), c.maskedTaxId(),
                c.propertyType(), c.claimType(), c.amountCents(), c.status(), c.stateCaseId(), c.statePropertyId(),
                c.holderName(), c.holderId(), c.filedOn(), ChronoUnit.DAYS.between(c.filedOn(), today),
                c.decisionDueOn(), c.isOverdue(today), c.version());
    }
}
