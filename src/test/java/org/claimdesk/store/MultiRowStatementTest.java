package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link MultiRowStatement}'s text: plain {@code ?} markers, which both engines' drivers accept. */
class MultiRowStatementTest {

    @Test
    void fixedParametersNamedBeforeAndAfterTheRowsAreWrittenAsPlainMarkersAroundTheRowTuples() {
        try (MultiRowStatement statement = new MultiRowStatement(null, "UPDATE t SET a = ?1, b = ?1 FROM (VALUES %s)"
                + " AS v WHERE t.id = v.column1 AND owner = ?2", 2, 2)) {
            assertThat(statement.sql(3)).isEqualTo("UPDATE t SET a = ?, b = ? FROM (VALUES (?, ?), (?, ?), (?, ?))"
                    + " AS v WHERE t.id = v.column1 AND owner = ?");
        }
    }

    @Test
    void aTemplateNamingAFixedParameterItDoesNotHaveIsRefused() {
        assertThatThrownBy(() -> new MultiRowStatement(null, "INSERT INTO t SELECT ?3 FROM (VALUES %s) AS v", 2, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("?3");
    }
}
