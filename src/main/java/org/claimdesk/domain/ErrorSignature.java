package org.claimdesk.domain;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The shape of an error message with its particulars taken out, so that failures that differ only by
 * a claim's ids, amounts, counts or dates fall into one group: "422 invalid_claim: holder id HLD-104233
 * not found in the holder's 2025 report" and the same message about HLD-998120 share one signature.
 * A leading three-digit HTTP status is kept, since it is part of what went wrong.
 */
public final class ErrorSignature {
    /**
     * Any token holding a digit (ids like HLD-104233, UPC-2026-000017, 8f3a0c1e-..., $1,000, 15000ms). A
     * token starts only where the previous character cannot belong to it: without that look-behind the
     * search tries every position inside each word that has no digit, a cost that grows with the square of
     * the word's length, and grouping thousands of failed rows spent most of its time there.
     */
    private static final Pattern TOKEN_WITH_DIGIT = Pattern.compile(
            "(?<![\\p{L}\\p{N}$#._/:-])[\\p{L}\\p{N}$#._/:-]*\\p{N}[\\p{L}\\p{N}$#.,_/:-]*");
    private static final Pattern LEADING_STATUS = Pattern.compile("^([1-5]\\d\\d)(?=\\s|$|:)");
    private static final Pattern QUOTED = Pattern.compile("'[^']*'|\"[^\"]*\"");
    private static final Pattern SPACES = Pattern.compile("\\s+");
    private static final int MAX_CHARS = 200;
    private static final String NO_TEXT = "(no error text)";

    /**
     * How many texts' signatures are remembered. The Outbox page groups the failed rows at each refresh, and
     * with them the same distinct texts again: about 8,000 at 1,000,000 claims, whose signatures take about
     * 100 ms and 34 MB of short-lived objects to work out each time. When more texts than this are seen, the
     * memory starts afresh.
     */
    static final int REMEMBERED = 16_384;
    private static final Map<String, String> REMEMBERED_SIGNATURES = new ConcurrentHashMap<>();

    private ErrorSignature() {
    }

    /** The signature of {@code message}; "(no error text)" for null or blank. */
    public static String of(String message) {
        if (message == null || message.isBlank()) {
            return NO_TEXT;
        }
        String known = REMEMBERED_SIGNATURES.get(message);
        if (known != null) {
            return known;
        }
        String signature = workOut(message, true);
        if (REMEMBERED_SIGNATURES.size() >= REMEMBERED) {
            REMEMBERED_SIGNATURES.clear();
        }
        REMEMBERED_SIGNATURES.put(message, signature);
        return signature;
    }

    /**
     * {@code message}'s signature as written, its letters' case kept ("holder id # is not in CA's holder registry"
     * where the signature says "ca's"): how a group is shown, from one of its messages; "(no error text)" for null or
     * blank.
     */
    public static String shown(String message) {
        return message == null || message.isBlank() ? NO_TEXT : workOut(message, false);
    }

    /** How many signatures are remembered now (at most {@link #REMEMBERED}). */
    static int remembered() {
        return REMEMBERED_SIGNATURES.size();
    }

    private static String workOut(String message, boolean lowerCase) {
        String text = SPACES.matcher(message.strip()).replaceAll(" ");
        String status = "";
        var leading = LEADING_STATUS.matcher(text);
        if (leading.find()) {
            status = leading.group(1);
            text = text.substring(leading.end());
        }
        text = QUOTED.matcher(text).replaceAll("'…'");
        text = TOKEN_WITH_DIGIT.matcher(text).replaceAll(m -> trailingPunctuation(m.group()));
        text = SPACES.matcher(text).replaceAll(" ").strip();
        String signature = (status + " " + text).strip();
        if (lowerCase) {
            signature = signature.toLowerCase(Locale.ROOT);
        }
        return signature.length() <= MAX_CHARS ? signature : signature.substring(0, MAX_CHARS - 1) + "…";
    }

    /** "#" for the token, keeping a sentence's punctuation (":", ",", ".") that ended it. */
    private static String trailingPunctuation(String token) {
        char last = token.charAt(token.length() - 1);
        boolean punct = last == ':' || last == ',' || last == '.';
        return punct ? "#" + last : "#";
    }
}
