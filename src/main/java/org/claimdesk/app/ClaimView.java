package org.claimdesk.app;

import java.time.LocalDate;
import org.claimdesk.domain.Claim;

/**
 * A claim as staff and exports see it: the tax id masked to its last four digits.
 *
 * @param editRefusal why the claim's fields cannot be edited now (its status, or its submission on its way); null
 *     when they can
 */
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
        String claimantEmail,
        String claimantPhone,
        String claimantAddress,
        String taxIdMasked,
        long amountCents,
        String status,
        String stateCaseId,
        LocalDate filedOn,
        LocalDate decisionDueOn,
        boolean overdue,
        long version,
        String editRefusal) {

    /** @param submissionPending whether one of the claim's outbox rows is pending ({@code ClaimStatus.editRefusal}) */
    public static ClaimView of(Claim c, LocalDate today, boolean submissionPending) {
        return new ClaimView(c.claimId(), c.claimNumber(), c.jurisdiction(), c.statePropertyId(), c.holderName(),
                c.holderId(), c.propertyType().name(), c.claimType().name(), c.claimantName(), c.claimantEmail(),
                c.claimantPhone(), c.claimantAddress(), c.maskedTaxId(), c.amountCents(), c.status().name(),
                c.stateCaseId(), c.filedOn(), c.decisionDueOn(), c.isOverdue(today), c.version(),
                c.status().editRefusal(submissionPending).orElse(null));
    }
}
