package org.claimdesk.ui.claims;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.ClaimStatus;

/**
 * A claim's editable fields as text, as staff would type them, read with the detail: the version the
 * edit applies to and why the claim cannot be edited now, if it cannot (its status, or its submission on
 * its way to the state). The tax id is not here: it is replaced whole through its own audited action.
 */
public record EditableClaim(long claimId, String claimNumber, long version, ClaimStatus status,
        boolean submissionPending, Map<ClaimField<?>, String> texts) {

    public EditableClaim {
        texts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(texts));
    }

    /** @param submissionPending whether one of the claim's outbox rows is pending */
    public static EditableClaim of(Claim claim, boolean submissionPending) {
        Map<ClaimField<?>, String> texts = new LinkedHashMap<>();
        for (ClaimField<?> field : ClaimField.all()) {
            if (!field.personal()) {
                texts.put(field, field.textOf(claim));
            }
        }
        return new EditableClaim(claim.claimId(), claim.claimNumber(), claim.version(), claim.status(),
                submissionPending, texts);
    }

    public Optional<String> editRefusal() {
        return status.editRefusal(submissionPending);
    }

    /** Never prints the field values: a log line about a claim carries its number and version only. */
    @Override
    public String toString() {
        return "EditableClaim[" + claimNumber + " v" + version + " " + status + "]";
    }
}
