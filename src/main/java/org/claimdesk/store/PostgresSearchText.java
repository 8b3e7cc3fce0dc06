package org.claimdesk.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A text search on PostgreSQL: the generated column {@code search_text} (schema version 10) holds a claim's four
 * searched fields lower-cased, apart by {@link #SEPARATOR}, with one pg_trgm GIN index. The clause is
 * {@code search_text LIKE lower(:search)}: ILIKE lower-cases both sides the same way, so it finds what an ILIKE on
 * each field finds.
 * <p>
 * pg_trgm cuts a text into words (runs of letters and digits) and looks up every trigram of every word. In a claim
 * number such as {@code UPC-2026-054321}, the trigrams of "upc" and "2026" are in every claim, and the index reads
 * their whole lists when they come first (60–80 ms at 1,000,000 claims). The clause therefore names the text's
 * longest words first, each as a pattern of its own, and the whole text last; a row that contains the text contains
 * each of its words, so the extra patterns change nothing in what is found, only the order the index reads its
 * lists in (5 ms for that number).
 */
final class PostgresSearchText {
    /** Between two fields in {@code search_text}: a control character, which no claim field may hold. */
    static final char SEPARATOR = '\u001f';
    /** Words named before the whole text, at most. */
    static final int MOST_WORDS = 3;
    /** Words shorter than this have no trigram of their own in a pattern and are not named. */
    static final int SHORTEST_WORD = 3;

    private PostgresSearchText() {
    }

    /**
     * The search clause for {@code text}, its whole pattern bound as {@code :search} by the caller and the words'
     * patterns added to {@code bindings}. A text holding the separator could match across two fields there, so it is
     * matched field by field instead ({@code fieldByField}).
     */
    static String clause(String text, List<Object[]> bindings, String fieldByField) {
        if (text.indexOf(SEPARATOR) >= 0) {
            return fieldByField;
        }
        StringBuilder sql = new StringBuilder("(");
        List<String> words = words(text);
        for (int i = 0; i < words.size(); i++) {
            String name = "searchWord" + i;
            sql.append("search_text LIKE lower(:").append(name).append(") ESCAPE '!' AND ");
            bindings.add(new Object[] {name, Like.contains(words.get(i))});
        }
        return sql.append("search_text LIKE lower(:search) ESCAPE '!')").toString();
    }

    /**
     * The words of {@code text} worth naming: runs of letters and digits of {@value #SHORTEST_WORD} characters or more,
     * each once, longest first (in the order they come when as long), at most {@value #MOST_WORDS}, and none when the
     * text is one word.
     */
    static List<String> words(String text) {
        Set<String> words = new LinkedHashSet<>();
        int start = -1;
        for (int i = 0; i <= text.length(); ) {
            int cp = i < text.length() ? text.codePointAt(i) : ' ';
            boolean inWord = i < text.length() && Character.isLetterOrDigit(cp);
            if (inWord && start < 0) {
                start = i;
            } else if (!inWord && start >= 0) {
                String word = text.substring(start, i);
                if (word.codePointCount(0, word.length()) >= SHORTEST_WORD) {
                    words.add(word);
                }
                start = -1;
            }
            i += i < text.length() ? Character.charCount(cp) : 1;
        }
        List<String> named = new ArrayList<>(words);
        if (named.size() == 1 && named.get(0).equals(text)) {
            return List.of();
        }
        named.sort(Comparator.comparingInt((String w) -> w.codePointCount(0, w.length())).reversed());
        return List.copyOf(named.subList(0, Math.min(MOST_WORDS, named.size())));
    }
}
