package org.claimdesk.domain;

import java.util.List;
import java.util.stream.Collectors;

/** Values that break their field rules; the message names every field and its rule on one line. */
public class InvalidFieldsException extends ClaimDeskException {
    private final List<FieldViolation> violations;

    public InvalidFieldsException(List<FieldViolation> violations) {
        this(violations.stream().map(FieldViolation::describe).collect(Collectors.joining("; ")), null, violations);
    }

    /**
     * A refusal of fields whose message says more than their rules, e.g. the claim they would repeat;
     * {@code logText} as {@link ClaimDeskException#withLogText} (null: the message).
     */
    public InvalidFieldsException(String message, String logText, List<FieldViolation> violations) {
        super(message, null, logText);
        if (violations.isEmpty()) {
            throw new IllegalArgumentException("an invalid-fields refusal needs at least one violation");
        }
        this.violations = List.copyOf(violations);
    }

    public List<FieldViolation> violations() {
        return violations;
    }
}
