package org.claimdesk.domain;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How a claim's submission payload changed, field by field (old to new), the idempotency key left out: the
 * key is not data, it names the submission. Payloads carry the tax id only as its last four digits, so a diff
 * never shows more than those.
 */
public record PayloadDiff(List<Change> changes) {
    /** The payload field that is not compared. */
    public static final String KEY_FIELD = "idempotencyKey";

    /** One field that differs; a value is null when the field is missing on that side. */
    public record Change(String field, String before, String after) {
        public Change {
            Objects.requireNonNull(field, "field");
        }

        @Override
        public String toString() {
            return field + ": " + show(before) + " -> " + show(after);
        }

        private static String show(String value) {
            return value == null ? "(none)" : "\"" + value + "\"";
        }
    }

    public PayloadDiff {
        changes = List.copyOf(changes);
    }

    /**
     * Compares two payloads as JSON objects read into maps: fields in the order of {@code before}, then the
     * fields only {@code after} has. Nested values (lists, objects) compare by equality and show as text.
     */
    public static PayloadDiff of(Map<String, ?> before, Map<String, ?> after) {
        Set<String> fields = new LinkedHashSet<>(before.keySet());
        fields.addAll(after.keySet());
        fields.remove(KEY_FIELD);
        List<Change> changes = new ArrayList<>();
        for (String field : fields) {
            Object b = before.get(field);
            Object a = after.get(field);
            if (!Objects.equals(normal(b), normal(a))) {
                changes.add(new Change(field, text(b), text(a)));
            }
        }
        return new PayloadDiff(changes);
    }

    public boolean isEmpty() {
        return changes.isEmpty();
    }

    public List<String> fields() {
        return changes.stream().map(Change::field).toList();
    }

    /** "holderId, amountCents", or "nothing" when equal. */
    public String describeFields() {
        return changes.isEmpty() ? "nothing" : String.join(", ", fields());
    }

    /** Numbers read from JSON as Integer or Long compare by value. */
    private static Object normal(Object value) {
        if (value instanceof Number n && !(value instanceof Double) && !(value instanceof Float)) {
            return n.longValue();
        }
        return value;
    }

    private static String text(Object value) {
        return value == null ? null : String.valueOf(value);
    }
}
