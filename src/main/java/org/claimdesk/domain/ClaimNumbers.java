package org.claimdesk.domain;

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
        // as String.format("UPC-%04d-%06d") writes it, without its parser: an import numbers thousands at a time
        StringBuilder number = new StringBuilder(16).append("UPC-");
        pad(number, year, 4);
        number.append('-');
        pad(number, sequence, 6);
        return number.toString();
    }

    private static void pad(StringBuilder to, long value, int width) {
        String digits = Long.toString(Math.abs(value));
        if (value < 0) {
            to.append('-');
            width--;
        }
        for (int i = digits.length(); i < width; i++) {
            to.append('0');
        }
        to.append(digits);
    }
}
