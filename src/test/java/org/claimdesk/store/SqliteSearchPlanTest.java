package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SQLite's plan for a searched page in id order ({@link Dialect#sqliteSearchedPageIds}). */
class SqliteSearchPlanTest {
    @TempDir
    Path dir;

    @Test
    void onSqliteASearchedPageIsReadFromTheIndexesInIdOrderWithoutScanningOrSortingTheClaims() {
        try (Database db = TestDatabase.open(TestDatabase.Engine.SQLITE, dir)) {
            String ids = Dialect.sqliteSearchedPageIds("status IN ('SUBMITTED_TO_STATE')", false, 400, 200);
            record Step(int id, int parent, String detail) {
            }
            List<Step> plan = db.read(h -> h.createQuery("EXPLAIN QUERY PLAN " + ids).bind("phrase", "\"heir\"")
                    .map((rs, ctx) -> new Step(rs.getInt("id"), rs.getInt("parent"), rs.getString("detail"))).list());
            java.util.Map<Integer, String> details = new java.util.HashMap<>();
            plan.forEach(step -> details.put(step.id(), step.detail()));
            String shown = plan.stream().map(Step::detail).collect(java.util.stream.Collectors.joining("\n"));
            assertThat(plan).extracting(Step::detail).as(shown)
                    .anySatisfy(step -> assertThat(step).startsWith("SCAN claim_search VIRTUAL TABLE"))
                    .anySatisfy(step -> assertThat(step).startsWith("SCAN claim_case_search VIRTUAL TABLE"))
                    .noneSatisfy(step -> assertThat(step).startsWith("SCAN claim "));
            // each index is read in id order inside its own sub-query, which therefore stops at its LIMIT; only
            // what the two sub-queries handed on (the page's reach at most) is sorted to be merged
            assertThat(plan).filteredOn(step -> step.detail().contains("TEMP B-TREE"))
                    .as(shown).allSatisfy(sort -> assertThat(details.getOrDefault(sort.parent(), ""))
                            .doesNotStartWith("CO-ROUTINE").doesNotStartWith("MATERIALIZE"));
        }
    }
}
