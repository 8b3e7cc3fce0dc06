package org.claimdesk.domain;

import java.util.regex.Pattern;

/**
 * The field a state's refusal names, a field of the submission (resources/state-api.yaml), as staff fix it on the
 * claim: {@code taxIdLast4} is the claim's tax id (replaced whole), {@code evidence[2].kind} or {@code evidence[2]}
 * its evidence; {@code evidence.KIND} (evidence of a kind missing), {@code holderId} and the other fields of the claim
 * keep their names.
 */
public final class StateFields {
    /** What {@link #onTheClaim} names the claim's evidence, and the start of evidence of a kind ("evidence.KIND"). */
    public static final String EVIDENCE = "evidence";
    private static final Pattern EVIDENCE_ITEM = Pattern.compile("evidence\\[\\d+\\](?:\\..*)?");

    private StateFields() {
    }

    /** The claim's field, or "evidence" / "evidence.KIND", that the state's {@code field} is about; blank stays blank. */
    public static String onTheClaim(String field) {
        String name = field == null ? "" : field.strip();
        if (name.equals("taxIdLast4")) {
            return ClaimField.TAX_ID.name();
        }
        if (EVIDENCE_ITEM.matcher(name).matches()) {
            return EVIDENCE;
        }
        return name;
    }

    /** Whether {@code onTheClaim} (as {@link #onTheClaim} names it) is the claim's evidence, or evidence of a kind. */
    public static boolean isEvidence(String onTheClaim) {
        return onTheClaim.equals(EVIDENCE) || onTheClaim.startsWith(EVIDENCE + ".");
    }
}
