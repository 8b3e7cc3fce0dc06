package org.claimdesk.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.claimdesk.domain.Amounts;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.PropertyType;

/**
 * Why the simulated state refuses a submission: every rule it applies, written down once, judged on
 * the submission's content alone (the JSON body: the fields of a submission payload and an optional
 * {@code evidence} array). Pure and deterministic: the same body gets the same verdict every time, in
 * every instance. The rules run in this order and the first broken one is the answer:
 * <ol>
 *   <li>each required field present and well formed, in the payload's field order:
 *       400 {@code missing_field} or {@code invalid_field}, naming the field;
 *   <li>each evidence reference an object whose {@code kind} is one of {@link #EVIDENCE_KINDS}:
 *       400 {@code missing_field} / {@code invalid_field}, field {@code evidence[i].kind};
 *   <li>an amount at or above the jurisdiction's {@link #addressEvidenceThresholdCents threshold} needs an
 *       evidence reference of kind {@code address}: 400 {@code missing_field}, field {@code evidence.address};
 *   <li>the holder id registered for the jurisdiction in the {@link HolderRegistry}: 422
 *       {@code invalid_claim}, field {@code holderId};
 *   <li>the property not already paid ({@link PropertyLedger#paid}): 422 {@code already_paid}, field
 *       {@code statePropertyId};
 *   <li>the tax id's last four equal to the owner record's, where the state holds one
 *       ({@link PropertyLedger#ownerTaxIdLast4}): 422 {@code identity_mismatch}, field {@code taxIdLast4}.
 * </ol>
 * Messages never repeat the tax id.
 */
public final class StateRules {
    /** The jurisdictions the simulated state answers for: the 50 states, DC and the inhabited territories. */
    public static final Set<String> JURISDICTIONS = Set.of("AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA",
            "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV",
            "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA",
            "WA", "WV", "WI", "WY", "DC", "PR", "GU", "VI", "AS", "MP");

    /** The kinds of evidence reference the state knows. */
    public static final List<String> EVIDENCE_KINDS = List.of("identity", "address", "ownership", "heirship", "business");

    /**
     * Claims of this many cents or more need proof of address. California's follows its notarization
     * rule ($1,000 or more); the others are the simulated state's own.
     */
    private static final Map<String, Long> ADDRESS_EVIDENCE_THRESHOLDS = Map.of(
            "CA", 100_000L,
            "NY", 100_000L,
            "TX", 250_000L,
            "FL", 250_000L,
            "IL", 200_000L,
            "HI", 50_000L);
    /** The threshold of every jurisdiction not in the table: $5,000. */
    public static final long DEFAULT_ADDRESS_EVIDENCE_THRESHOLD_CENTS = 500_000L;

    private static final List<String> PROPERTY_TYPES = Arrays.stream(PropertyType.values()).map(Enum::name).toList();
    private static final List<String> CLAIM_TYPES = Arrays.stream(ClaimType.values()).map(Enum::name).toList();
    private static final Pattern PROPERTY_ID = Pattern.compile("\\d{7,9}");
    private static final Pattern LAST4 = Pattern.compile("\\d{4}");
    private static final int MAX_TEXT = 200;

    /** One refusal: the HTTP status, the error code, the field at fault (or null) and a message for staff. */
    public record Refusal(int status, String error, String field, String message) {
    }

    private final HolderRegistry holders;

    public StateRules(HolderRegistry holders) {
        this.holders = holders;
    }

    /** The rules with the registry shipped with ClaimDesk. */
    public static StateRules standard() {
        return Standard.RULES;
    }

    private static final class Standard {
        static final StateRules RULES = new StateRules(HolderRegistry.standard());
    }

    public HolderRegistry holders() {
        return holders;
    }

    /** The amount (in cents) at or above which a claim in {@code jurisdiction} needs proof of address. */
    public static long addressEvidenceThresholdCents(String jurisdiction) {
        return ADDRESS_EVIDENCE_THRESHOLDS.getOrDefault(jurisdiction, DEFAULT_ADDRESS_EVIDENCE_THRESHOLD_CENTS);
    }

    /** The verdict on a submission body: empty when the state accepts it. */
    public Optional<Refusal> judge(JsonNode body) {
        if (body == null || !body.isObject()) {
            return Optional.of(new Refusal(400, "invalid_body", null, "the body must be a JSON object"));
        }
        Refusal refusal = fields(body);
        if (refusal == null) {
            refusal = evidence(body.get("evidence"));
        }
        if (refusal == null) {
            refusal = claim(body);
        }
        return Optional.ofNullable(refusal);
    }

    /** Presence and form of the required fields, in the payload's order. */
    private static Refusal fields(JsonNode body) {
        Refusal r = positiveWhole(body, "claimId", Long.MAX_VALUE);
        if (r == null) {
            r = text(body, "claimNumber", 40);
        }
        if (r == null) {
            r = text(body, "jurisdiction", MAX_TEXT);
            if (r == null && !JURISDICTIONS.contains(body.get("jurisdiction").asText())) {
                r = invalid("jurisdiction", "jurisdiction must be a US state or territory code in capitals, such as CA");
            }
        }
        if (r == null) {
            r = matching(body, "statePropertyId", PROPERTY_ID, "statePropertyId must be 7 to 9 digits");
        }
        if (r == null) {
            r = text(body, "holderName", MAX_TEXT);
        }
        if (r == null) {
            r = matching(body, "holderId", HolderRegistry.HOLDER_ID, "holderId must be HLD- and six digits");
        }
        if (r == null) {
            r = oneOf(body, "propertyType", PROPERTY_TYPES);
        }
        if (r == null) {
            r = oneOf(body, "claimType", CLAIM_TYPES);
        }
        if (r == null) {
            r = text(body, "claimantName", MAX_TEXT);
        }
        if (r == null) {
            r = matching(body, "taxIdLast4", LAST4, "taxIdLast4 must be the last four digits of the tax id");
        }
        if (r == null) {
            r = positiveWhole(body, "amountCents", 100_000_000_000L);
        }
        if (r == null) {
            r = text(body, "filedOn", MAX_TEXT);
            if (r == null) {
                try {
                    LocalDate.parse(body.get("filedOn").asText());
                } catch (DateTimeParseException e) {
                    r = invalid("filedOn", "filedOn must be a date written YYYY-MM-DD");
                }
            }
        }
        return r;
    }

    /** The evidence array, when there is one: objects with a known kind. */
    private static Refusal evidence(JsonNode evidence) {
        if (evidence == null || evidence.isNull()) {
            return null;
        }
        if (!evidence.isArray()) {
            return invalid("evidence", "evidence must be a list of evidence references");
        }
        for (int i = 0; i < evidence.size(); i++) {
            JsonNode item = evidence.get(i);
            String field = "evidence[" + i + "].kind";
            if (!item.isObject()) {
                return invalid("evidence[" + i + "]", "each evidence reference must be an object with a kind");
            }
            JsonNode kind = item.get("kind");
            if (kind == null || kind.isNull() || (kind.isTextual() && kind.asText().isBlank())) {
                return missing(field);
            }
            if (!kind.isTextual() || !EVIDENCE_KINDS.contains(kind.asText())) {
                return invalid(field, "the kind of an evidence reference must be one of " + String.join(", ", EVIDENCE_KINDS));
            }
        }
        return null;
    }

    /** The rules about the claim itself, once it is complete and well formed. */
    private Refusal claim(JsonNode body) {
        String jurisdiction = body.get("jurisdiction").asText();
        long amount = body.get("amountCents").asLong();
        long threshold = addressEvidenceThresholdCents(jurisdiction);
        if (amount >= threshold && !hasEvidence(body.get("evidence"), "address")) {
            return new Refusal(400, "missing_field", "evidence.address", "proof of address required: " + jurisdiction
                    + " needs an evidence reference of kind address for claims of " + Amounts.dollars(threshold)
                    + " or more");
        }
        String holderId = body.get("holderId").asText();
        if (!holders.registered(holderId, jurisdiction)) {
            return new Refusal(422, "invalid_claim", "holderId", "holder id " + holderId + " is not in " + jurisdiction
                    + "'s holder registry");
        }
        String propertyId = body.get("statePropertyId").asText();
        if (PropertyLedger.paid(jurisdiction, propertyId)) {
            return new Refusal(422, "already_paid", "statePropertyId", "state property id " + propertyId
                    + " was already paid to another claimant");
        }
        Optional<String> owner = PropertyLedger.ownerTaxIdLast4(jurisdiction, propertyId);
        if (owner.isPresent() && !owner.get().equals(body.get("taxIdLast4").asText())) {
            return new Refusal(422, "identity_mismatch", "taxIdLast4", "the claimant's tax id does not match the owner"
                    + " record of state property id " + propertyId);
        }
        return null;
    }

    private static boolean hasEvidence(JsonNode evidence, String kind) {
        if (evidence == null || !evidence.isArray()) {
            return false;
        }
        for (JsonNode item : evidence) {
            if (kind.equals(item.path("kind").asText(null))) {
                return true;
            }
        }
        return false;
    }

    private static Refusal text(JsonNode body, String field, int maxChars) {
        JsonNode value = body.get(field);
        if (absent(value)) {
            return missing(field);
        }
        if (!value.isTextual()) {
            return invalid(field, field + " must be text");
        }
        // characters as the contract's JSON Schema counts them: code points, not UTF-16 units
        if (value.asText().codePointCount(0, value.asText().length()) > maxChars) {
            return invalid(field, field + " must be at most " + maxChars + " characters");
        }
        return null;
    }

    private static Refusal matching(JsonNode body, String field, Pattern pattern, String rule) {
        Refusal r = text(body, field, MAX_TEXT);
        if (r != null) {
            return r;
        }
        return pattern.matcher(body.get(field).asText()).matches() ? null : invalid(field, rule);
    }

    private static Refusal oneOf(JsonNode body, String field, List<String> values) {
        Refusal r = text(body, field, MAX_TEXT);
        if (r != null) {
            return r;
        }
        return values.contains(body.get(field).asText()) ? null
                : invalid(field, field + " must be one of " + String.join(", ", values));
    }

    private static Refusal positiveWhole(JsonNode body, String field, long max) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return missing(field);
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 1 || value.asLong() > max) {
            return invalid(field, field + " must be a whole number from 1 to " + max);
        }
        return null;
    }

    private static boolean absent(JsonNode value) {
        return value == null || value.isNull() || (value.isTextual() && value.asText().isBlank());
    }

    private static Refusal missing(String field) {
        return new Refusal(400, "missing_field", field, field + " is required");
    }

    private static Refusal invalid(String field, String message) {
        return new Refusal(400, "invalid_field", field, message);
    }
}
