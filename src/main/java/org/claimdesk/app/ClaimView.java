package org.claimdesk.app;

import java.time.LocalDate;
import org.claimdesk.domain.Claim;

/** A claim as staff and exports see it: the tax id masked to its last four digits. */
public record ClaimView(
        long claimId,
        String claimNumber,
        String jurisdiction,
        String statePropertyId,
        String holderName,
        String holderId,
        String propertyType,
        String claimType,
        String claimantName,
        String taxIdMasked,
        long amountCents,
        String status,
        String stateCaseId,
        LocalDate filedOn,
        LocalDate decisionDueOn,
        boolean overdue,
        long version) {

    public static ClaimView of(Claim c, LocalDate today) {
        return new ClaimView(c.claimId(), c.claimNumber(), c.jurisdiction(), c.statePropertyId(), c.holderName(),
                c.holderId(), c.propertyType().name(), c.claimType().name(), c.claimantName(), c.maskedTaxId(),
                c.amountCents(), c.status().name(), c.stateCaseId(), c.filedOn(), c.decisionDueOn(),
                c.isOverdue(today), c.version());
    }
}
