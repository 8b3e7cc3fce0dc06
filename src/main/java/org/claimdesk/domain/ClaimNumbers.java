package org.claimdesk.domain;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The claim number staff quote: {@code UPC-YYYY-NNNNNN}, the year the claim was entered and a sequence number
 * of at least six digits. The sequence is the store's and never goes back, so a number is never given twice,
 * even after a claim is removed.
 */
public final class ClaimNumbers {
    public static final Pattern FORMAT = Pattern.compile("UPC-[0-9]{4}-[0-9]{6,}");

    private ClaimNumbers() {
    }

    public static String format(int year, long sequence) {
        if (sequence < 1) {
            throw new IllegalArgumentException("a claim number's sequence starts at 1, got " + sequence);
        }
        return String.format(Locale.ROOT, "UPC-%04d-%06d", year, sequence);
    }
}
