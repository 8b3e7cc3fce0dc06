package org.claimdesk.domain;

import java.text.Normalizer;
import java.util.Locale;

/**
 * What makes two claims the same claim for intake: the jurisdiction, the state property id and the claimant, whose
 * name is compared in its {@linkplain #matchForm match form} — "MARIA GARCIA", "Maria  Garcia", "María García" and a
 * decomposed "María" are one claimant. A new claim with the key of one present needs a reason; an imported row with
 * it is already present or a conflict; an edit may not give a claim the key of another.
 *
 * @param claimant the claimant's name in its match form, whatever form it was given in
 */
public record ClaimKey(String jurisdiction, String statePropertyId, String claimant) {

    public ClaimKey {
        claimant = matchForm(claimant);
    }

    public static ClaimKey of(Claim claim) {
        return new ClaimKey(claim.jurisdiction(), claim.statePropertyId(), claim.claimantName());
    }

    /**
     * A name as intake compares it: compatibility forms folded (full-width letters, ligatures, non-breaking spaces),
     * case folded, accents on Latin, Greek and Cyrillic letters dropped (a name written with or without them), and
     * only letters, digits and the marks other scripts spell with kept (a Devanagari vowel sign, a kana voicing mark:
     * "राम" is not "रमा"), so that spacing and punctuation ("Mary-Ann", "Mary Ann", "O'Brien", "OBrien") do not tell
     * two writings of one name apart. Applying it again changes nothing.
     */
    public static String matchForm(String name) {
        if (name == null) {
            return null;
        }
        // a final sigma is lowercased as ς at a word's end and σ inside one: the form has no spaces, so one letter
        String folded = Normalizer.normalize(name, Normalizer.Form.NFKD)
                .toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT).replace('ς', 'σ');
        folded = Normalizer.normalize(folded, Normalizer.Form.NFKD);
        StringBuilder kept = new StringBuilder(folded.length());
        boolean accentsDropped = false;
        for (int i = 0; i < folded.length(); ) {
            int c = folded.codePointAt(i);
            i += Character.charCount(c);
            if (Character.isLetterOrDigit(c)) {
                Character.UnicodeScript script = Character.UnicodeScript.of(c);
                accentsDropped = script == Character.UnicodeScript.LATIN || script == Character.UnicodeScript.GREEK
                        || script == Character.UnicodeScript.CYRILLIC;
                kept.appendCodePoint(c);
            } else if (isMark(c) && !accentsDropped && kept.length() > 0) {
                kept.appendCodePoint(c);
            }
        }
        return kept.toString();
    }

    private static boolean isMark(int c) {
        int type = Character.getType(c);
        return type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK
                || type == Character.ENCLOSING_MARK;
    }
}
