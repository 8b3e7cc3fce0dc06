package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL's plan for the Claims page sorted by decision due date (schema version 18): the page's ids are read in the
 * page's order from the due date's index, forwards or backwards, claims without a due date first ascending as SQLite
 * puts them, not every claim read and sorted. SQLite's index gives that order by itself (nulls first, the rowid last).
 */
class PostgresClaimSortPlanTest {
    @TempDir
    Path dir;

    @Test
    void aPageByDueDateIsReadFromTheDueDatesIndexInEitherDirection() {
        try (Database db = TestDatabase.open(TestDatabase.Engine.POSTGRESQL, dir)) {
            db.useTransaction(h -> {
                // one claim in ten without a due date yet, the others due over a year
                h.execute("""
                        INSERT INTO claim (claim_number, jurisdiction, state_property_id, holder_name, property_type,
                            claim_type, claimant_name, tax_id, amount_cents, status, state_case_id, decision_due_on,
                            filed_on, created_at, updated_at)
                        SELECT 'UPC-2026-' || lpad(i::text, 6, '0'), 'CA', 'CA-' || i, 'Holder', 'AC01', 'OWNER',
                            'Ann Lee', '123-45-6789', 100, 'SUBMITTED_TO_STATE', 'CASE-' || i,
                            CASE WHEN i % 10 = 0 THEN NULL
                                 ELSE to_char(date '2026-01-01' + i % 365, 'YYYY-MM-DD') END,
                            '2026-01-01', 0, 0
                        FROM generate_series(1, 20000) AS i""");
                h.execute("ANALYZE claim");
            });
            for (boolean descending : List.of(false, true)) {
                ClaimQuery byDue = ClaimQuery.all().withSort(ClaimQuery.Sort.DECISION_DUE_ON, descending);
                List<String> plan = db.read(h -> h.createQuery("EXPLAIN SELECT claim_id FROM claim"
                        + ClaimStore.orderBy(Dialect.POSTGRESQL, byDue) + " LIMIT 50").mapTo(String.class).list());
                assertThat(plan).as((descending ? "descending\n" : "ascending\n") + String.join("\n", plan))
                        .anySatisfy(step -> assertThat(step).contains("using claim_due_idx"))
                        .noneSatisfy(step -> assertThat(step).contains("Sort"))
                        .noneSatisfy(step -> assertThat(step).contains("Seq Scan"));
                List<Long> page = db.read(h -> new ClaimStore().list(h, byDue.withPage(0, 3)))
                        .stream().map(org.claimdesk.domain.Claim::claimId).toList();
                assertThat(page).as("without a due date first ascending, last descending")
                        .hasSize(3).allSatisfy(id -> assertThat(id % 10 == 0).isEqualTo(!descending));
            }
        }
    }
}
