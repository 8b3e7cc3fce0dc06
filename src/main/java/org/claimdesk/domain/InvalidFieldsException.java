package org.claimdesk.domain;

import java.util.List;
import java.util.stream.Collectors;

/** Values that break their field rules; the message names every field and its rule on one line. */
public final class InvalidFieldsException extends ClaimDeskException {
    private final List<FieldViolation> violations;

    public InvalidFieldsException(List<FieldViolation> violations) {
        super(violations.stream().map(FieldViolation::describe).collect(Collectors.joining("; ")));
        if (violations.isEmpty()) {
            throw new IllegalArgumentException("an invalid-fields refusal needs at least one violation");
        }
        this.violations = List.copyOf(violations);
    }

    public List<FieldViolation> violations() {
        return violations;
    }
}
