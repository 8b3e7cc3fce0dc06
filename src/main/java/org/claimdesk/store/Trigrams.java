package org.claimdesk.store;

/**
 * Text for the trigram index {@code claim_search} (schema version 3). A search of three or more characters
 * is one quoted FTS5 phrase, which the trigram tokenizer matches wherever the text occurs inside a column,
 * as {@code LIKE '%text%'} does; a shorter one has no trigram to look up and is matched with LIKE instead.
 */
final class Trigrams {
    private Trigrams() {
    }

    static boolean indexable(String text) {
        return text.codePointCount(0, text.length()) >= 3;
    }

    /** The text as one FTS5 string: every character literal, a double quote written twice. */
    static String phrase(String text) {
        return '"' + text.replace("\"", "\"\"") + '"';
    }
}
