package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Claims page's counts per status under a jurisdiction (schema version 19): read from the jurisdiction's index,
 * which holds each claim's status, without reading a claim from the table; the counts those of the claims themselves.
 */
class JurisdictionCountsPlanTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(TestDatabase.Engine.class)
    void aJurisdictionsCountsPerStatusAreReadFromItsIndexAlone(TestDatabase.Engine engine) {
        try (Database db = TestDatabase.open(engine, dir)) {
            // 6,000 claims over 30 jurisdictions (J00 to J29) and four statuses
            String numbers = engine == TestDatabase.Engine.POSTGRESQL ? "SELECT i FROM generate_series(1, 6000) AS i"
                    : "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 6000) SELECT i FROM n";
            db.useTransaction(h -> {
                h.execute("INSERT INTO claim (claim_number, jurisdiction, state_property_id, holder_name, property_type,"
                        + " claim_type, claimant_name, tax_id, amount_cents, status, filed_on, created_at, updated_at)"
                        + " SELECT 'UPC-2026-' || (100000 + i), 'J' || substr(CAST(100 + i % 30 AS TEXT), 2), 'P-' || i,"
                        + " 'Holder', 'AC01', 'OWNER', 'Ann Lee', '123-45-6789', 100,"
                        + " CASE i % 4 WHEN 0 THEN 'PAID' WHEN 1 THEN 'APPROVED' WHEN 2 THEN 'IDENTITY_PENDING'"
                        + " ELSE 'REJECTED' END, '2026-01-01', 0, 0 FROM (" + numbers + ") AS s");
            });
            if (engine == TestDatabase.Engine.POSTGRESQL) {
                // the server's statistics, as its autovacuum keeps them; a workstation's file has none
                db.useTransaction(h -> h.execute("ANALYZE claim"));
            }
            ClaimQuery inJ07 = ClaimQuery.all().withJurisdiction("j07");
            String explain = engine == TestDatabase.Engine.POSTGRESQL ? "EXPLAIN " : "EXPLAIN QUERY PLAN ";
            List<String> plan = db.read(h -> {
                if (engine == TestDatabase.Engine.POSTGRESQL) {
                    // the plan that reads the fewest pages once the server's autovacuum has marked the table's pages
                    // visible to all, which an index-only read needs (a table just written has none marked: the
                    // planner then counts a visit to the table for each entry and prefers a bitmap scan)
                    h.execute("SET enable_bitmapscan = off");
                    h.execute("SET enable_seqscan = off");
                }
                try {
                    return ClaimStore.countByStatusQuery(h, inJ07, explain)
                            .map((rs, ctx) -> rs.getString(engine == TestDatabase.Engine.POSTGRESQL ? 1 : 4)).list();
                } finally {
                    if (engine == TestDatabase.Engine.POSTGRESQL) {
                        h.execute("RESET enable_bitmapscan");
                        h.execute("RESET enable_seqscan");
                    }
                }
            });
            if (engine == TestDatabase.Engine.POSTGRESQL) {
                // with the status out of the index, an index scan reading each claim from the table
                assertThat(plan).as(String.join("\n", plan))
                        .anySatisfy(step -> assertThat(step).contains("Index Only Scan using claim_jurisdiction_idx"));
            } else {
                assertThat(plan).as(String.join("\n", plan))
                        .first().asString().isEqualTo("SEARCH claim USING COVERING INDEX claim_jurisdiction_idx (jurisdiction=?)");
            }
            Map<ClaimStatus, Integer> counts = db.read(h -> new ClaimStore().countByStatus(h, inJ07));
            // J07: i % 30 == 7, so i % 4 is 3 or 1 by turns (i = 7, 37, 67, ...): 100 claims each REJECTED and APPROVED
            assertThat(counts).containsEntry(ClaimStatus.REJECTED, 100).containsEntry(ClaimStatus.APPROVED, 100)
                    .containsEntry(ClaimStatus.PAID, 0).containsEntry(ClaimStatus.IDENTITY_PENDING, 0);
        }
    }
}
