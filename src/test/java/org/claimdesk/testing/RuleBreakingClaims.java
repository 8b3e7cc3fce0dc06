package org.claimdesk.testing;

import java.time.Instant;
import java.time.LocalDate;
import org.claimdesk.delivery.HolderRegistry;
import org.claimdesk.delivery.PropertyLedger;
import org.claimdesk.delivery.StateRules;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.PropertyType;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.NewClaim;

/**
 * California claims, READY_FOR_SUBMISSION, each breaking one of the simulated state's rules
 * (docs/delivery.md) and nothing else, with the value that corrects it.
 */
public final class RuleBreakingClaims {
    public static final String JURISDICTION = "CA";
    public static final String REGISTERED_HOLDER = "HLD-100200";

    /** A rule, the field the state names and how its message starts. */
    public enum Rule {
        UNREGISTERED_HOLDER("holderId", 422, "422 invalid_claim: holder id "),
        NO_PROOF_OF_ADDRESS("evidence.address", 400, "400 missing_field: proof of address required"),
        ALREADY_PAID("statePropertyId", 422, "422 already_paid: "),
        IDENTITY_MISMATCH("taxIdLast4", 422, "422 identity_mismatch: ");

        public final String field;
        public final int httpStatus;
        public final String errorStart;

        Rule(String field, int httpStatus, String errorStart) {
            this.field = field;
            this.httpStatus = httpStatus;
            this.errorStart = errorStart;
        }
    }

    private RuleBreakingClaims() {
    }

    /** Claim number {@code UPC-2026-00000n}: {@code n} also picks its property id and holder. */
    public static long insert(Database db, Rule rule, int n) {
        String holderId = REGISTERED_HOLDER;
        String propertyId = PropertyLedger.openPropertyId(JURISDICTION, n);
        String taxId = "123-00-4567";
        long amountCents = 12_345;
        switch (rule) {
            case UNREGISTERED_HOLDER -> holderId = HolderRegistry.standard().unregisteredHolderId(n);
            case NO_PROOF_OF_ADDRESS -> amountCents = StateRules.addressEvidenceThresholdCents(JURISDICTION);
            case ALREADY_PAID -> propertyId = PropertyLedger.paidPropertyId(JURISDICTION, n);
            case IDENTITY_MISMATCH -> {
                propertyId = PropertyLedger.ownerRecordedPropertyId(JURISDICTION, n);
                taxId = "123-00-" + PropertyLedger.otherTaxIdLast4(ownerLast4(n));
            }
            default -> throw new IllegalArgumentException(rule.name());
        }
        NewClaim claim = new NewClaim(String.format("UPC-2026-%06d", n), JURISDICTION, propertyId, "Wells Fargo Bank NA",
                holderId, PropertyType.AC01, ClaimType.OWNER, "Claimant " + n, taxId, amountCents,
                ClaimStatus.READY_FOR_SUBMISSION, null, LocalDate.of(2026, 3, 1), null);
        return db.inTransaction(h -> new ClaimStore().insert(h, claim, Instant.parse("2026-03-01T10:00:00Z")));
    }

    /** The state property id of claim {@code n} when it was inserted as {@link Rule#IDENTITY_MISMATCH}. */
    public static String ownerRecordedPropertyId(int n) {
        return PropertyLedger.ownerRecordedPropertyId(JURISDICTION, n);
    }

    /** The tax id that matches the state's owner record for claim {@code n} ({@link Rule#IDENTITY_MISMATCH}). */
    public static String ownerTaxId(int n) {
        return "123-00-" + ownerLast4(n);
    }

    /** A property id with no record: corrects {@link Rule#ALREADY_PAID}. */
    public static String openPropertyId(int n) {
        return PropertyLedger.openPropertyId(JURISDICTION, n + 1_000);
    }

    private static String ownerLast4(int n) {
        return PropertyLedger.ownerTaxIdLast4(JURISDICTION, ownerRecordedPropertyId(n)).orElseThrow();
    }
}
