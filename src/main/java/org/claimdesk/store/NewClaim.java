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
        String claimantEmail,
        String claimantPhone,
        String claimantAddress,
        String taxId,
        long amountCents,
        ClaimStatus status,
        String stateCaseId,
        LocalDate filedOn,
        LocalDate decisionDueOn) {

    /** A claim with no contact details on file. */
    public NewClaim(String claimNumber, String jurisdiction, String statePropertyId, String holderName,
            String holderId, PropertyType propertyType, ClaimType claimType, String claimantName, String taxId,
            long amountCents, ClaimStatus status, String stateCaseId, LocalDate filedOn, LocalDate decisionDueOn) {
        this(claimNumber, jurisdiction, statePropertyId, holderName, holderId, propertyType, claimType, claimantName,
                null, null, null, taxId, amountCents, status, stateCaseId, filedOn, decisionDueOn);
    }

    /** The tax id masked: a record's own text would hold it whole, in any log line or failure that prints one. */
    @Override
    public String toString() {
        return "NewClaim[" + claimNumber + ", " + jurisdiction + "/" + statePropertyId + ", " + status + ", tax id "
                + org.claimdesk.domain.TaxIds.mask(taxId) + "]";
    }
}
