package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLite's plans for a worker's lease, read in its order from the delivery state's index ({@link
 * PostgresOutboxPlanTest} for PostgreSQL's), and for the Outbox page's error groups ({@link
 * OutboxStore#failureGroups}): the failed rows' index of schema version 14, read in the order of the error texts, the
 * delivery state bound as a parameter as the store binds it (SQLite prepares the statement again for the bound
 * value, which the partial index's condition needs), and for whether claims have a pending row.
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

    @Test
    void aLeaseReadsTheDueRowsInItsOrderWithoutSortingThem() {
        try (Database db = TestDatabase.open(TestDatabase.Engine.SQLITE, dir)) {
            List<String> plan = db.read(h -> h.createQuery("EXPLAIN QUERY PLAN " + DeliveryStore.dueSql(Dialect.SQLITE))
                    .bind(0, 2_000_000L).bind(1, 2_000_000L).bind(2, 16).map((rs, ctx) -> rs.getString("detail"))
                    .list());
            // the index on (delivery_state, next_attempt_at) ends with the rowid, which outbox_event_id is
            assertThat(plan).as(String.join("\n", plan))
                    .anySatisfy(step -> assertThat(step).startsWith("SEARCH outbox_event USING INDEX outbox_due_idx"))
                    .noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE FOR ORDER BY"));
            List<String> take = db.read(h -> h.createQuery("EXPLAIN QUERY PLAN " + DeliveryStore.takeSql(Dialect.SQLITE))
                    .bind(0, "worker-1").bind(1, 2_060_000L).bind(2, 2_000_000L).bind(3, "[3,5,8]")
                    .map((rs, ctx) -> rs.getString("detail")).list());
            assertThat(take).as(String.join("\n", take))
                    .anySatisfy(step -> assertThat(step).startsWith("SEARCH outbox_event USING INTEGER PRIMARY KEY"))
                    .noneSatisfy(step -> assertThat(step).startsWith("SCAN outbox_event"));
            List<String> waiting = db.read(h -> h.createQuery("EXPLAIN QUERY PLAN " + DeliveryStore.WAITING_ROWS)
                    .bind("now", 2_000_000L).map((rs, ctx) -> rs.getString("detail")).list());
            assertThat(waiting).as(String.join("\n", waiting)).singleElement().asString()
                    .startsWith("SEARCH outbox_event USING COVERING INDEX outbox_due_idx");
        }
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

    /** Whether claims have a pending row (a claim's edit, its detail during a drain): by the claims' index. */
    @Test
    void theClaimsWithAPendingRowAreReadByTheClaimsIndexNotEveryPendingRow() {
        try (Database db = TestDatabase.open(TestDatabase.Engine.SQLITE, dir)) {
            BenchmarkStore.seedSubmitting(db, 2_000);
            List<String> plan = db.read(h -> h.createQuery("EXPLAIN QUERY PLAN " + OutboxStore.withPendingSql(Dialect.SQLITE))
                    .bind("ids", "[5,17]").bind("pending", "pending").map((rs, ctx) -> rs.getString("detail")).list());
            assertThat(plan).as(String.join("\n", plan))
                    .anySatisfy(step -> assertThat(step).startsWith("SEARCH outbox_event USING INDEX outbox_aggregate_idx"))
                    .noneSatisfy(step -> assertThat(step).contains("outbox_due_idx"));
            java.util.Set<Long> pending = db.read(h -> new OutboxStore().withPending(h, List.of(5L, 17L, 2_001L)));
            assertThat(pending).containsExactlyInAnyOrder(5L, 17L);
        }
    }
}
