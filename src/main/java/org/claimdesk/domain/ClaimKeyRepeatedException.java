package org.claimdesk.domain;

import java.util.List;

/**
 * An edit would give a claim the key of another (jurisdiction, state property id, claimant): the fields changed are
 * named, each with the claim it would repeat. Not a broken rule of one field: changing any of the three ends it.
 */
public final class ClaimKeyRepeatedException extends InvalidFieldsException {
    public ClaimKeyRepeatedException(String message, String logText, List<FieldViolation> violations) {
        super(message, logText, violations);
    }
}
