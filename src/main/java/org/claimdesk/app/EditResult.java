package org.claimdesk.app;

import java.util.List;

/**
 * What {@link ClaimEditing#edit} did: the fields it changed and the claim's version after it. No change
 * (every value as it was) writes nothing and keeps the version.
 */
public record EditResult(long claimId, String claimNumber, long version, List<FieldChange> changes) {
    public EditResult {
        changes = List.copyOf(changes);
    }
}
