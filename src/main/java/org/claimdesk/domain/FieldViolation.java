package org.claimdesk.domain;

/**
 * One broken field rule.
 *
 * @param field the field's name as {@code claims show --json} writes it (e.g. {@code amountCents})
 * @param label the field's name as the console labels it (e.g. "Amount (cents)")
 * @param rule what the value must be, starting with a verb (e.g. "must be 7 to 9 digits")
 */
public record FieldViolation(String field, String label, String rule) {

    /** For the console, next to the field: "State property id must be 7 to 9 digits". */
    public String message() {
        return label + " " + rule;
    }

    /** For the command line, naming the field as staff type it: "statePropertyId must be 7 to 9 digits". */
    public String describe() {
        return field + " " + rule;
    }
}
