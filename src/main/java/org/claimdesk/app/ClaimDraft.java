package org.claimdesk.app;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.claimdesk.domain.Checked;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.ClaimKey;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.FieldViolation;
import org.claimdesk.domain.PropertyType;
import org.claimdesk.store.NewClaim;

/**
 * The fields of a claim not yet saved, each read from text by its one rule in {@link ClaimField}: the new-claim
 * command and the import read claims this way, as editing reads a changed field.
 */
public final class ClaimDraft {
    private final Map<ClaimField<?>, Object> values;

    private ClaimDraft(Map<ClaimField<?>, Object> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /**
     * A draft, or every rule broken. {@code raw} maps field names (as in {@code claims show --json}, any case) to
     * what was typed; a field left out is blank, so a required one is reported, and a name that is no field is
     * reported too.
     */
    public record Read(ClaimDraft draft, List<FieldViolation> violations) {
        public Read {
            violations = List.copyOf(violations);
        }

        public boolean isOk() {
            return violations.isEmpty();
        }
    }

    public static Read read(Map<String, String> raw, LocalDate today) {
        Map<String, String> all = new LinkedHashMap<>();
        ClaimField.all().forEach(f -> all.put(f.name(), ""));
        raw.forEach((name, text) -> {
            Optional<ClaimField<?>> field = ClaimField.byName(name);
            all.put(field.map(ClaimField::name).orElse(name), text == null ? "" : text);
        });
        ClaimField.Parsed parsed = ClaimField.parseAll(all, today);
        if (!parsed.violations().isEmpty()) {
            return new Read(null, parsed.violations());
        }
        return new Read(new ClaimDraft(parsed.values()), List.of());
    }

    /**
     * Reads drafts from rows of text whose columns were matched to fields once (e.g. a file's header): for many rows,
     * {@link #read(Map, LocalDate)} without finding each field by its name again in every row. Each field is read by
     * its rule as there, a field with no column is blank, and the rules broken come in the same order (field order).
     */
    public static final class Columns {
        /** For each field of {@link ClaimField#all()}, the index of its column, or -1. */
        private final int[] columnOf;

        /** @param fields each column's field, or null for a column that is not a field (it is not read) */
        public Columns(List<ClaimField<?>> fields) {
            List<ClaimField<?>> all = ClaimField.all();
            columnOf = new int[all.size()];
            java.util.Arrays.fill(columnOf, -1);
            for (int c = 0; c < fields.size(); c++) {
                if (fields.get(c) != null) {
                    columnOf[all.indexOf(fields.get(c))] = c;
                }
            }
        }

        /** The draft of one row ({@code values} in the columns' order), or every rule it breaks. */
        public Read read(String[] values, LocalDate today) {
            List<ClaimField<?>> all = ClaimField.all();
            Map<ClaimField<?>, Object> read = new LinkedHashMap<>(all.size() * 2);
            List<FieldViolation> violations = null;
            for (int f = 0; f < columnOf.length; f++) {
                ClaimField<?> field = all.get(f);
                String text = columnOf[f] < 0 || values[columnOf[f]] == null ? "" : values[columnOf[f]];
                Checked<?> checked = field.check(text, today);
                if (checked.isOk()) {
                    // the claim type comes before the tax id in field order
                    read.put(field, field == ClaimField.TAX_ID && read.get(ClaimField.CLAIM_TYPE) instanceof ClaimType type
                            ? ClaimField.taxIdFor(type, text, (String) checked.value()) : checked.value());
                } else {
                    if (violations == null) {
                        violations = new ArrayList<>(2);
                    }
                    violations.addAll(checked.violations());
                }
            }
            return violations == null ? new Read(new ClaimDraft(read, true), List.of()) : new Read(null, violations);
        }
    }

    /** Takes {@code values} as they are: a map no one else holds. */
    private ClaimDraft(Map<ClaimField<?>, Object> values, boolean owned) {
        this.values = Collections.unmodifiableMap(values);
    }

    @SuppressWarnings("unchecked")
    public <T> T get(ClaimField<T> field) {
        return (T) values.get(field);
    }

    public String jurisdiction() {
        return get(ClaimField.JURISDICTION);
    }

    public String statePropertyId() {
        return get(ClaimField.STATE_PROPERTY_ID);
    }

    public String claimantName() {
        return get(ClaimField.CLAIMANT_NAME);
    }

    /** What makes it the same claim as one present, or as another draft. */
    public ClaimKey key() {
        return new ClaimKey(jurisdiction(), statePropertyId(), claimantName());
    }

    /** The names of the fields whose values differ from {@code claim}'s, in field order (values never shown). */
    public List<String> differences(Claim claim) {
        return differences(claim, ClaimField.all());
    }

    /** As {@link #differences(Claim)}, comparing only {@code fields} (e.g. the columns a file has). */
    public List<String> differences(Claim claim, java.util.Collection<ClaimField<?>> fields) {
        List<String> differ = new ArrayList<>();
        for (ClaimField<?> field : ClaimField.all()) {
            if (!fields.contains(field)) {
                continue;
            }
            if (!Objects.equals(field.compared(field.valueOf(claim)), field.compared(values.get(field)))) {
                differ.add(field.name());
            }
        }
        return differ;
    }

    /** The names of {@code fields} whose values differ from {@code other}'s, in field order. */
    public List<String> differences(ClaimDraft other, java.util.Collection<ClaimField<?>> fields) {
        List<String> differ = new ArrayList<>();
        for (ClaimField<?> field : ClaimField.all()) {
            if (fields.contains(field)
                    && !Objects.equals(field.compared(values.get(field)), field.compared(other.values.get(field)))) {
                differ.add(field.name());
            }
        }
        return differ;
    }

    /**
     * A small stand-in for the values, to compare a draft with one no longer held (a dry run remembers the rows it
     * would import this way): for each field, in field order, a 64-bit FNV-1a hash of its value's type and text, so
     * that two different values of a field do not pass for the same as easily as through {@code hashCode}'s 32 bits
     * ("Aa" and "BB" share one). A hash of a few nanoseconds a character, since a dry run takes one of every row.
     */
    public long[] fingerprint() {
        return ClaimField.all().stream().mapToLong(f -> {
            Object value = f.compared(values.get(f));
            return fnv1a(value == null ? "\0" : value.getClass().getName() + ':' + value);
        }).toArray();
    }

    private static long fnv1a(String text) {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            hash = (hash ^ (c & 0xff)) * 0x100000001b3L;
            hash = (hash ^ (c >>> 8)) * 0x100000001b3L;
        }
        return hash;
    }

    /** The names of {@code fields} whose values differ from those {@code fingerprint} was taken of. */
    public List<String> differences(long[] fingerprint, java.util.Collection<ClaimField<?>> fields) {
        long[] mine = fingerprint();
        List<String> differ = new ArrayList<>();
        for (int i = 0; i < mine.length; i++) {
            ClaimField<?> field = ClaimField.all().get(i);
            if (fields.contains(field) && mine[i] != fingerprint[i]) {
                differ.add(field.name());
            }
        }
        return differ;
    }

    /** The fields as they may be shown or audited: the tax id masked. */
    public Map<String, String> shown() {
        Map<String, String> shown = new LinkedHashMap<>();
        values.forEach((field, value) -> shown.put(field.name(), field.shown(value)));
        return shown;
    }

    NewClaim toNewClaim(String claimNumber, ClaimStatus status) {
        return new NewClaim(claimNumber, jurisdiction(), statePropertyId(), get(ClaimField.HOLDER_NAME),
                get(ClaimField.HOLDER_ID), (PropertyType) get(ClaimField.PROPERTY_TYPE),
                (ClaimType) get(ClaimField.CLAIM_TYPE), claimantName(), get(ClaimField.CLAIMANT_EMAIL),
                get(ClaimField.CLAIMANT_PHONE), get(ClaimField.CLAIMANT_ADDRESS), get(ClaimField.TAX_ID),
                get(ClaimField.AMOUNT_CENTS), status, null, get(ClaimField.FILED_ON), null);
    }

    /** Never prints the tax id. */
    @Override
    public String toString() {
        return "ClaimDraft" + shown();
    }
}
