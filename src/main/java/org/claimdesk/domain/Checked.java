package org.claimdesk.domain;

import java.util.List;

/**
 * A value read from what staff typed, or the rules it broke (then {@code value} is null).
 * A value that is legitimately absent (an optional field left blank) is ok with a null value.
 */
public record Checked<T>(T value, List<FieldViolation> violations) {

    public Checked {
        violations = List.copyOf(violations);
    }

    public static <T> Checked<T> ok(T value) {
        return new Checked<>(value, List.of());
    }

    public static <T> Checked<T> broken(FieldViolation violation) {
        return new Checked<>(null, List.of(violation));
    }

    public boolean isOk() {
        return violations.isEmpty();
    }

    /** The value; throws {@link InvalidFieldsException} with the broken rules when there is none. */
    public T orThrow() {
        if (!isOk()) {
            throw new InvalidFieldsException(violations);
        }
        return value;
    }
}
