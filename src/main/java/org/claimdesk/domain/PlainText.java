package org.claimdesk.domain;

import java.util.regex.Pattern;

/**
 * Text staff type or a file name brings that must read as it is: one line, nothing hidden. Refused are ASCII's and
 * Latin-1's controls, line and paragraph separators, format characters such as a right-to-left override (U+202E,
 * which shows "invoice\u202Efdp.exe" as "invoiceexe.pdf") and a lone half of a surrogate pair; the joiners some
 * scripts write names with (U+200C, U+200D) are taken.
 */
public final class PlainText {
    public static final Pattern HIDDEN = Pattern.compile("[\\p{Cc}\\p{Cf}\\p{Cs}\\p{Zl}\\p{Zp}&&[^\\u200C\\u200D]]");

    private PlainText() {
    }

    /** Whether {@code text} holds a character that is not shown as itself. */
    public static boolean hasHidden(String text) {
        return text != null && HIDDEN.matcher(text).find();
    }

    /** {@code text} with each such character shown as '?': for a name a file brings, which staff did not type. */
    public static String shown(String text) {
        return text == null ? null : HIDDEN.matcher(text).replaceAll("?");
    }
}
