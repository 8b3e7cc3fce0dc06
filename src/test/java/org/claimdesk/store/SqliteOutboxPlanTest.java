package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLite's plan for the Outbox page's error groups ({@link OutboxStore#failureGroups}): the failed rows' index of
 * schema version 14, read in the order of the error texts, the delivery state bound as a parameter as the store
 * binds it (SQLite prepares the statement again for the bound value, which the partial index's condition needs).
 */
class SqliteOutboxPlanTest {
    @TempDir
    Path dir;

    @Test
    void theErrorGroupsReadOnlyTheFailedRowsIndexWithoutSortingTheTexts() {
        List<String> plan = plan(OutboxQuery.all());
        assertThat(plan).as(String.join("\n", plan))
                .anySatisfy(step -> assertThat(step).startsWith("SEARCH o USING COVERING INDEX outbox_failed_error_idx"))
                .noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
    }

    @Test
    void withAJurisdictionTheFailedRowsIndexStillLeadsAndEachClaimIsLookedUp() {
        List<String> plan = plan(OutboxQuery.all().withJurisdiction("CA"));
        assertThat(plan).as(String.join("\n", plan))
                .anySatisfy(step -> assertThat(step).startsWith("SEARCH o USING INDEX outbox_failed_error_idx"))
                .anySatisfy(step -> assertThat(step).startsWith("SEARCH c USING"))
                .noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
    }

    private List<String> plan(OutboxQuery query) {
        try (Database db = TestDatabase.open(TestDatabase.Engine.SQLITE, dir)) {
            return db.read(h -> {
                OutboxWhere failed = OutboxStore.failedRowsOf(h, query);
                return failed.bind(h.createQuery("EXPLAIN QUERY PLAN " + OutboxStore.failureGroupsStatement(failed)))
                        .map((rs, ctx) -> rs.getString("detail")).list();
            });
        }
    }
}
