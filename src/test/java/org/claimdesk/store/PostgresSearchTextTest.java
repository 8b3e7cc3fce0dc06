package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The words a PostgreSQL search names before its whole text ({@link PostgresSearchText}), and its clause. */
class PostgresSearchTextTest {

    @Test
    void aClaimNumberNamesItsLongestWordsFirst() {
        assertThat(PostgresSearchText.words("UPC-2026-054321")).containsExactly("054321", "2026", "UPC");
    }

    @Test
    void oneWordShortWordsAndRepeatsAreNotNamedTwice() {
        assertThat(PostgresSearchText.words("48213")).isEmpty();
        assertThat(PostgresSearchText.words("heir of")).containsExactly("heir");
        assertThat(PostgresSearchText.words("Ng Li")).isEmpty();
        assertThat(PostgresSearchText.words("okafor, okafor")).containsExactly("okafor");
        assertThat(PostgresSearchText.words("no claim has this text")).containsExactly("claim", "this", "text");
    }

    @Test
    void lettersOfEveryAlphabetMakeWords() {
        assertThat(PostgresSearchText.words("Ærø–Łódź 𝔸𝔹ℂ")).containsExactly("Łódź", "Ærø", "𝔸𝔹ℂ");
    }

    @Test
    void theClauseBindsEachWordAndEndsWithTheWholeText() {
        List<Object[]> bindings = new ArrayList<>();
        String clause = PostgresSearchText.clause("UPC-2026-054321", bindings, "fields");

        assertThat(clause).isEqualTo("(search_text LIKE lower(:searchWord0) ESCAPE '!' AND search_text LIKE"
                + " lower(:searchWord1) ESCAPE '!' AND search_text LIKE lower(:searchWord2) ESCAPE '!' AND"
                + " search_text LIKE lower(:search) ESCAPE '!')");
        assertThat(bindings).extracting(b -> b[0] + "=" + b[1])
                .containsExactly("searchWord0=%054321%", "searchWord1=%2026%", "searchWord2=%UPC%");
    }

    @Test
    void aTextHoldingTheSeparatorIsMatchedFieldByField() {
        List<Object[]> bindings = new ArrayList<>();
        assertThat(PostgresSearchText.clause("Ann\u001fUPC", bindings, "fields")).isEqualTo("fields");
        assertThat(bindings).isEmpty();
    }
}
