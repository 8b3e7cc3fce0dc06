package org.claimdesk.store;

import java.time.LocalDate;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.PropertyType;

/** The fields of a claim about to be inserted. */
public record NewClaim(
        String claimNumber,
        String jurisdiction,
        String statePropertyId,
        String holderName,
        String holderId,
        PropertyType propertyType,
        ClaimType claimType,
        String claimantName,
        String taxId,
        long amountCents,
        ClaimStatus status,
        String stateCaseId,
        LocalDate filedOn,
        LocalDate decisionDueOn) {
}
