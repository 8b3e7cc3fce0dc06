package org.claimdesk.domain;

import java.time.LocalDate;
import java.time.DateTimeException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A field of a claim that goes into a submission, with its one validation rule. The claim editor, the
 * command line, the new-claim form and the import all read staff's text through {@link #check}, and a
 * whole claim is checked with {@link #violations(Claim, LocalDate)}: a rule is written here and nowhere else.
 *
 * <p>Names are those of {@code claims show --json}. Text is stripped of surrounding white space and
 * otherwise kept exactly (names in any script stay as typed).
 *
 * @param <T> the value's type: String, Long, LocalDate or an enum
 */
public final class ClaimField<T> {
    public static final int MAX_NAME = 200;
    public static final int MAX_ADDRESS = 300;
    public static final int MAX_EMAIL = 254;
    /** $10,000,000.00: far above any single unclaimed-property claim, low enough to catch a slipped key. */
    public static final long MAX_AMOUNT_CENTS = 1_000_000_000L;
    public static final LocalDate EARLIEST_FILING = LocalDate.of(1900, 1, 1);

    /** The two-letter codes of the 50 states, the District of Columbia and the territories the state's contract takes. */
    public static final Set<String> JURISDICTIONS = Set.of(
            "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY",
            "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND",
            "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
            "DC", "PR", "VI", "GU", "AS", "MP");

    /**
     * Control and format characters, line and paragraph separators and unpaired surrogates, beyond ASCII's
     * controls too: a C1 control, U+2028 or a right-to-left override (U+202E, which shows a name reversed) in a
     * name goes on into the state's payload. The joiners some scripts write names with (U+200C, U+200D) are taken.
     */
    private static final Pattern CONTROL = PlainText.HIDDEN;
    private static final Pattern DIGITS_7_TO_9 = Pattern.compile("[0-9]{7,9}");
    /** The state's contract's holder id (resources/state-api.yaml, {@code Submission.holderId}): another is refused. */
    private static final Pattern HOLDER_ID_PATTERN = Pattern.compile("HLD-[0-9]{6}");
    /**
     * No white space or ASCII control before the @ (the names' wider rule, {@link #CONTROL}, is checked beside it);
     * the domain is letters, digits and hyphens in any script, so that quotes and brackets cannot close a
     * spreadsheet formula there.
     */
    private static final Pattern EMAIL = Pattern.compile(
            "[^@\\s\\p{Cntrl}]+@[\\p{L}\\p{M}\\p{N}-]+(?:\\.[\\p{L}\\p{M}\\p{N}-]+)+");
    private static final Pattern PHONE = Pattern.compile("\\+?[0-9 ().-]+");
    private static final Pattern SSN_OR_ITIN = Pattern.compile("[0-9]{3}-[0-9]{2}-[0-9]{4}");
    private static final Pattern EIN = Pattern.compile("[0-9]{2}-[0-9]{7}");
    private static final Pattern NINE_DIGITS = Pattern.compile("[0-9]{9}");
    private static final Pattern CENTS = Pattern.compile("-?[0-9]{1,18}");
    private static final Pattern US_DATE = Pattern.compile("([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})");

    public static final ClaimField<String> CLAIMANT_NAME = text("claimantName", "Claimant name", true, MAX_NAME,
            Claim::claimantName);
    public static final ClaimField<String> CLAIMANT_EMAIL = new ClaimField<>("claimantEmail", "Claimant email", false,
            Claim::claimantEmail, ClaimField::email, Function.identity(), (v, today) -> null);
    public static final ClaimField<String> CLAIMANT_PHONE = new ClaimField<>("claimantPhone", "Claimant phone", false,
            Claim::claimantPhone, ClaimField::phone, Function.identity(), (v, today) -> null);
    public static final ClaimField<String> CLAIMANT_ADDRESS = text("claimantAddress", "Claimant address", false,
            MAX_ADDRESS, Claim::claimantAddress);
    public static final ClaimField<ClaimType> CLAIM_TYPE = new ClaimField<>("claimType", "Claim type", true,
            Claim::claimType, ClaimField::claimType, ClaimType::name, (v, today) -> null);
    public static final ClaimField<String> HOLDER_NAME = text("holderName", "Holder name", true, MAX_NAME,
            Claim::holderName);
    public static final ClaimField<String> HOLDER_ID = new ClaimField<>("holderId", "Holder id", true,
            Claim::holderId, t -> matching(t.toUpperCase(Locale.ROOT), HOLDER_ID_PATTERN,
                    "must be HLD- and six digits, as the state's holder registry numbers holders (e.g. HLD-100200)"),
            Function.identity(), (v, today) -> null);
    public static final ClaimField<String> STATE_PROPERTY_ID = new ClaimField<>("statePropertyId",
            "State property id", true, Claim::statePropertyId,
            t -> matching(t, DIGITS_7_TO_9, "must be 7 to 9 digits"), Function.identity(), (v, today) -> null);
    public static final ClaimField<PropertyType> PROPERTY_TYPE = new ClaimField<>("propertyType", "Property type",
            true, Claim::propertyType, ClaimField::propertyType, PropertyType::name, (v, today) -> null);
    public static final ClaimField<Long> AMOUNT_CENTS = new ClaimField<>("amountCents", "Amount (cents)", true,
            Claim::amountCents, ClaimField::cents, v -> Long.toString(v), ClaimField::amountInRange);
    public static final ClaimField<String> JURISDICTION = new ClaimField<>("jurisdiction", "Jurisdiction", true,
            Claim::jurisdiction, ClaimField::jurisdiction, Function.identity(), (v, today) -> null);
    public static final ClaimField<LocalDate> FILED_ON = new ClaimField<>("filedOn", "Filed on", true,
            Claim::filedOn, ClaimField::date, LocalDate::toString, ClaimField::filingDate);
    /** Personal data: shown and audited masked to its last four digits, replaced only whole. */
    public static final ClaimField<String> TAX_ID = new ClaimField<>("taxId", "Tax id", true,
            Claim::taxId, ClaimField::taxId, Function.identity(), (v, today) -> null);

    private static final List<ClaimField<?>> ALL = List.of(CLAIMANT_NAME, CLAIMANT_EMAIL, CLAIMANT_PHONE,
            CLAIMANT_ADDRESS, CLAIM_TYPE, HOLDER_NAME, HOLDER_ID, STATE_PROPERTY_ID, PROPERTY_TYPE, AMOUNT_CENTS,
            JURISDICTION, FILED_ON, TAX_ID);

    /** Reads stripped, non-blank text; throws {@link IllegalArgumentException} whose message is the rule. */
    @FunctionalInterface
    private interface Parser<T> {
        T parse(String text);
    }

    /** A rule on a parsed value that depends on the day (e.g. no filing date in the future); null when kept. */
    @FunctionalInterface
    private interface Rule<T> {
        String broken(T value, LocalDate today);
    }

    private final String name;
    private final String label;
    private final boolean required;
    private final Function<Claim, T> getter;
    private final Parser<T> parser;
    private final Function<T, String> formatter;
    private final Rule<T> rule;

    private ClaimField(String name, String label, boolean required, Function<Claim, T> getter, Parser<T> parser,
            Function<T, String> formatter, Rule<T> rule) {
        this.name = name;
        this.label = label;
        this.required = required;
        this.getter = getter;
        this.parser = parser;
        this.formatter = formatter;
        this.rule = rule;
    }

    private static ClaimField<String> text(String name, String label, boolean required, int maxLength,
            Function<Claim, String> getter) {
        return new ClaimField<>(name, label, required, getter, t -> {
            if (t.codePointCount(0, t.length()) > maxLength) {
                throw new IllegalArgumentException("must be at most " + maxLength + " characters");
            }
            if (CONTROL.matcher(t).find()) {
                throw new IllegalArgumentException("must be one line without tabs or control characters");
            }
            refuseFormula(t);
            return t;
        }, Function.identity(), (v, today) -> null);
    }

    /** Every field, in the order the editor shows them. */
    public static List<ClaimField<?>> all() {
        return ALL;
    }

    public static Optional<ClaimField<?>> byName(String name) {
        String wanted = name == null ? "" : name.strip();
        return ALL.stream().filter(f -> f.name.equalsIgnoreCase(wanted)).findFirst();
    }

    public static String names() {
        return ALL.stream().map(ClaimField::name).collect(Collectors.joining(", "));
    }

    public String name() {
        return name;
    }

    public String label() {
        return label;
    }

    public boolean required() {
        return required;
    }

    /**
     * Whether the field refuses a value a spreadsheet would run ("=…", "+…", "-…", "@…"): the names, the address and
     * the email. An export may put an apostrophe before such a value of a claim stored before that rule: it would be
     * refused on import either way.
     */
    public boolean refusesFormulas() {
        return this == CLAIMANT_NAME || this == HOLDER_NAME || this == CLAIMANT_ADDRESS || this == CLAIMANT_EMAIL;
    }

    /**
     * Whether the field says what the state's case is about: the property (jurisdiction, state property id, holder,
     * property type), the claim type, the amount and the filing date. Not the claimant's name, contact details or tax
     * id. See {@link ClaimStatus#fieldRefusal}.
     */
    public boolean namesTheCase() {
        return this == JURISDICTION || this == STATE_PROPERTY_ID || this == HOLDER_ID || this == HOLDER_NAME
                || this == PROPERTY_TYPE || this == CLAIM_TYPE || this == AMOUNT_CENTS || this == FILED_ON;
    }

    /** The tax id: personal data, masked wherever it is shown or audited. */
    public boolean personal() {
        return this == TAX_ID;
    }

    /** Reads what staff typed: the value, or the rule it breaks. Blank means "none" for an optional field. */
    public Checked<T> check(String raw, LocalDate today) {
        String text = raw == null ? "" : raw.strip();
        if (text.isEmpty()) {
            return required ? broken("must not be blank") : Checked.ok(null);
        }
        T value;
        try {
            value = parser.parse(text);
        } catch (IllegalArgumentException e) {
            return broken(e.getMessage());
        }
        return ruled(value, today);
    }

    /** Checks a value already typed, e.g. one read from a stored claim. */
    public Checked<T> checkValue(T value, LocalDate today) {
        if (value == null) {
            return required ? broken("must not be blank") : Checked.ok(null);
        }
        if (value instanceof String s) {
            String normalized = s.strip();
            if (!normalized.equals(s)) {
                return check(s, today);
            }
            try {
                parser.parse(s);
            } catch (IllegalArgumentException e) {
                return broken(e.getMessage());
            }
        }
        return ruled(value, today);
    }

    /** A value its parser gave: kept if it keeps the rule of the day. */
    private Checked<T> ruled(T value, LocalDate today) {
        String broken = rule.broken(value, today);
        return broken == null ? Checked.ok(value) : broken(broken);
    }

    public T valueOf(Claim claim) {
        return getter.apply(claim);
    }

    /** The value as staff would type it back; "" for none. Not masked: callers showing it use {@link #shown}. */
    public String text(T value) {
        return value == null ? "" : formatter.apply(value);
    }

    public String textOf(Claim claim) {
        return text(valueOf(claim));
    }

    /** The value as it may be shown or audited: the tax id masked to its last four digits. */
    public String shown(Object value) {
        if (value == null) {
            return "";
        }
        String text = formatter.apply(cast(value));
        return personal() ? TaxIds.mask(text) : text;
    }

    @SuppressWarnings("unchecked")
    private T cast(Object value) {
        return (T) value;
    }

    private Checked<T> broken(String rule) {
        return Checked.broken(new FieldViolation(name, label, rule));
    }

    /**
     * Reads several fields from text by name: the values read, and every broken rule, an unknown name
     * included. The values map keeps the order of {@code raw}.
     */
    public static Parsed parseAll(Map<String, String> raw, LocalDate today) {
        return parseAll(raw, today, null);
    }

    /**
     * As {@link #parseAll(Map, LocalDate)}, for a claim whose type is {@code claimType} unless {@code raw} gives
     * one: the tax id is read for the claim's type ({@link #taxIdFor}).
     */
    public static Parsed parseAll(Map<String, String> raw, LocalDate today, ClaimType claimType) {
        Map<ClaimField<?>, Object> values = new LinkedHashMap<>();
        List<FieldViolation> violations = new ArrayList<>();
        String[] typedTaxId = {null};
        raw.forEach((fieldName, text) -> {
            Optional<ClaimField<?>> field = byName(fieldName);
            if (field.isEmpty()) {
                violations.add(new FieldViolation(fieldName, fieldName,
                        "is not a claim field; the fields are " + names()));
                return;
            }
            Checked<?> checked = field.get().check(text, today);
            if (checked.isOk()) {
                values.put(field.get(), checked.value());
                if (field.get() == TAX_ID) {
                    typedTaxId[0] = text;
                }
            } else {
                violations.addAll(checked.violations());
            }
        });
        ClaimType type = values.get(CLAIM_TYPE) instanceof ClaimType given ? given : claimType;
        if (values.get(TAX_ID) instanceof String read) {
            values.put(TAX_ID, taxIdFor(type, typedTaxId[0], read));
        }
        return new Parsed(values, violations);
    }

    /**
     * The tax id typed as {@code typed} on a claim of {@code type}, as it is kept: nine bare digits are the
     * business's EIN on a business claim (12-3456789) and an SSN or ITIN on any other (123-45-6789, as the tax id's
     * own rule reads them where the type is not known); written with its dashes, it stays as written.
     *
     * @param read what the tax id's own rule read from {@code typed}
     */
    public static String taxIdFor(ClaimType type, String typed, String read) {
        String text = typed == null ? "" : typed.strip();
        if (type == ClaimType.BUSINESS && NINE_DIGITS.matcher(text).matches()) {
            return text.substring(0, 2) + "-" + text.substring(2);
        }
        return read;
    }

    /**
     * A value as an import compares it with a claim present: the tax id by its digits (one number written as an SSN
     * or as an EIN is one tax id), every other field as it is.
     */
    public Object compared(Object value) {
        return this == TAX_ID && value instanceof String taxId ? taxId.replace("-", "") : value;
    }

    /** Values read by {@link #parseAll} and the rules broken on the way. */
    public record Parsed(Map<ClaimField<?>, Object> values, List<FieldViolation> violations) {
        public Parsed {
            values = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
            violations = List.copyOf(violations);
        }
    }

    /** Every rule a whole claim breaks, e.g. before a new claim is saved or an imported row is taken. */
    public static List<FieldViolation> violations(Claim claim, LocalDate today) {
        List<FieldViolation> found = new ArrayList<>();
        for (ClaimField<?> field : ALL) {
            found.addAll(checkStored(field, claim, today));
        }
        return found;
    }

    private static <V> List<FieldViolation> checkStored(ClaimField<V> field, Claim claim, LocalDate today) {
        return field.checkValue(field.valueOf(claim), today).violations();
    }

    @Override
    public String toString() {
        return name;
    }

    // ---- parsers: each throws IllegalArgumentException whose message is the rule ----

    private static String matching(String text, Pattern pattern, String rule) {
        if (!pattern.matcher(text).matches()) {
            throw new IllegalArgumentException(rule);
        }
        return text;
    }

    private static String email(String text) {
        if (text.length() > MAX_EMAIL || !EMAIL.matcher(text).matches() || CONTROL.matcher(text).find()) {
            throw new IllegalArgumentException("must be an email address like name@example.org");
        }
        refuseFormula(text);
        return text;
    }

    /**
     * A value a spreadsheet opening an export would run (=HYPERLINK(…) sending the cells beside it away), or one an
     * import's errors file marked so with an apostrophe and that came back unchanged.
     */
    private static void refuseFormula(String t) {
        if ("=+-@".indexOf(t.charAt(0)) >= 0) {
            throw new IllegalArgumentException("must not start with =, +, - or @ (a spreadsheet would take it for"
                    + " a formula)");
        }
        if (t.length() > 1 && t.charAt(0) == '\'' && "=+-@".indexOf(t.charAt(1)) >= 0) {
            throw new IllegalArgumentException("must not start with an apostrophe and =, +, - or @ (the errors"
                    + " file's mark of a value a spreadsheet would take for a formula): type the value again");
        }
    }

    private static String phone(String text) {
        long digits = text.chars().filter(c -> c >= '0' && c <= '9').count();
        if (!PHONE.matcher(text).matches() || digits < 7 || digits > 15) {
            throw new IllegalArgumentException("must be a phone number of 7 to 15 digits"
                    + " (spaces, dashes, dots, parentheses and a leading + allowed)");
        }
        return text;
    }

    private static ClaimType claimType(String text) {
        String normalized = text.toUpperCase(Locale.ROOT).replace('-', '_').replace(' ', '_');
        for (ClaimType type : ClaimType.values()) {
            if (type.name().equals(normalized)) {
                return type;
            }
        }
        throw new IllegalArgumentException("must be one of " + Arrays.stream(ClaimType.values())
                .map(Enum::name).collect(Collectors.joining(", ")));
    }

    private static PropertyType propertyType(String text) {
        String normalized = text.toUpperCase(Locale.ROOT);
        for (PropertyType type : PropertyType.values()) {
            if (type.name().equals(normalized)) {
                return type;
            }
        }
        throw new IllegalArgumentException("must be a NAUPA property type code: " + Arrays.stream(PropertyType.values())
                .map(Enum::name).collect(Collectors.joining(", ")));
    }

    private static Long cents(String text) {
        if (!CENTS.matcher(text).matches()) {
            throw new IllegalArgumentException("must be a whole number of cents (e.g. 12345 for $123.45)");
        }
        return Long.parseLong(text);
    }

    /** At least a cent, as the state's contract takes a submission ({@code amountCents minimum: 1}). */
    private static String amountInRange(Long cents, LocalDate today) {
        return cents < 1 || cents > MAX_AMOUNT_CENTS
                ? "must be from 1 to " + MAX_AMOUNT_CENTS + " cents (" + Amounts.dollars(1) + " to "
                        + Amounts.dollars(MAX_AMOUNT_CENTS) + ")"
                : null;
    }

    private static String jurisdiction(String text) {
        String code = text.toUpperCase(Locale.ROOT);
        if (!JURISDICTIONS.contains(code)) {
            throw new IllegalArgumentException("must be a two-letter US state code (e.g. CA, NY, DC)");
        }
        return code;
    }

    private static LocalDate date(String text) {
        try {
            // YYYY-MM-DD read directly, as LocalDate.parse reads it (a day the month lacks is refused), without its
            // general parser; any other form goes to LocalDate.parse
            if (text.length() == 10 && text.charAt(4) == '-' && text.charAt(7) == '-' && digits(text, 0, 4)
                    && digits(text, 5, 7) && digits(text, 8, 10)) {
                return LocalDate.of(Integer.parseInt(text, 0, 4, 10), Integer.parseInt(text, 5, 7, 10),
                        Integer.parseInt(text, 8, 10, 10));
            }
            java.util.regex.Matcher us = US_DATE.matcher(text);
            if (us.matches()) {
                // the US order a spreadsheet saves an ISO date back in (3/1/2026): month, day, four-digit year
                return LocalDate.of(Integer.parseInt(us.group(3)), Integer.parseInt(us.group(1)),
                        Integer.parseInt(us.group(2)));
            }
            return LocalDate.parse(text);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("must be a date written YYYY-MM-DD, or month/day/year as a spreadsheet"
                    + " writes it (e.g. 2026-03-01 or 3/1/2026)");
        }
    }

    private static boolean digits(String text, int from, int to) {
        for (int i = from; i < to; i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static String filingDate(LocalDate date, LocalDate today) {
        if (date.isAfter(today)) {
            return "must not be in the future (today is " + today + ")";
        }
        if (date.isBefore(EARLIEST_FILING)) {
            return "must not be before " + EARLIEST_FILING;
        }
        return null;
    }

    /** Never echoes what was typed: the message may be printed or logged. */
    private static String taxId(String text) {
        if (SSN_OR_ITIN.matcher(text).matches() || EIN.matcher(text).matches()) {
            return text;
        }
        if (NINE_DIGITS.matcher(text).matches()) {
            return text.substring(0, 3) + "-" + text.substring(3, 5) + "-" + text.substring(5);
        }
        throw new IllegalArgumentException("must be an SSN or ITIN written 123-45-6789 or an EIN written 12-3456789");
    }
}
