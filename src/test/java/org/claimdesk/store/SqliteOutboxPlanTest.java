package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.testing.StatementsRun;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLite's plans for a worker's lease, read in its order from the delivery state's index ({@link
 * PostgresOutboxPlanTest} for PostgreSQL's), and for the Outbox page's error groups ({@link
 * OutboxStore#failureGroups}): the failed rows' index of schema version 14, read in the order of the error texts, the
 * delivery state bound as a parameter as the store binds it (SQLite prepares the statement again for the bound
 * value, which the partial index's condition needs), for the rows of a jurisdiction (its failed rows from their
 * claims' index while they are few, the state named as a literal), and for whether claims have a pending row.
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
    void withAJurisdictionTheErrorGroupsReadTheFailedRowsClaimsThenProbeTheJurisdictionsIndex() {
        List<String> plan = plan(OutboxQuery.all().withJurisdiction("CA"));
        assertThat(plan).as(String.join("\n", plan)).startsWith(FAILED_OF_A_JURISDICTION);
    }

    /** The failed rows of a jurisdiction: from the failed rows' claims (schema version 19), each probed in its index. */
    static final String[] FAILED_OF_A_JURISDICTION = {"SCAN o USING INDEX outbox_failed_claim_idx",
            "SEARCH c USING COVERING INDEX claim_jurisdiction_idx (jurisdiction=? AND claim_id=?)"};

    /**
     * The Outbox page narrowed to a jurisdiction and a state, and its total: the jurisdiction's claims from their index,
     * each claim's rows in that state from the outbox's index by claim (schema version 19), not every row in the state
     * read from the table to find its claim (3.3 s for a page of the sent rows of one jurisdiction at 1,000,000 rows).
     */
    @Test
    void aJurisdictionsRowsInAStateAreReadFromItsClaimsThroughTheIndexesAlone() {
        try (Database db = TestDatabase.open(TestDatabase.Engine.SQLITE, dir)) {
            seed(db, 500, "UPDATE claim SET jurisdiction = 'NY' WHERE claim_id % 3 = 0",
                    "UPDATE outbox_event SET delivery_state = 'sent' WHERE outbox_event_id % 2 = 0");
            for (DeliveryState state : DeliveryState.values()) {
                OutboxQuery query = OutboxQuery.all().withState(state).withJurisdiction("NY").withPage(50, 50);
                List<String> count = db.read(h -> explain(h, OutboxStore.countStatement(OutboxWhere.of(h, query)),
                        OutboxWhere.of(h, query)));
                List<String> page = db.read(h -> explain(h, OutboxStore.pageStatement(OutboxWhere.of(h, query), query),
                        OutboxWhere.of(h, query)));
                if (state == DeliveryState.FAILED) {
                    assertThat(count).as(String.join("\n", count)).containsExactly(
                            "SCAN o USING COVERING INDEX outbox_failed_claim_idx", FAILED_OF_A_JURISDICTION[1]);
                    assertThat(page).as(String.join("\n", page)).startsWith(FAILED_OF_A_JURISDICTION);
                    continue;
                }
                assertThat(count).as(String.join("\n", count)).containsExactly(
                        "SEARCH c USING COVERING INDEX claim_jurisdiction_idx (jurisdiction=?)",
                        "SEARCH o USING COVERING INDEX outbox_aggregate_idx (aggregate_id=? AND delivery_state=?)");
                assertThat(page).as(String.join("\n", page)).startsWith(
                        "SEARCH c USING COVERING INDEX claim_jurisdiction_idx (jurisdiction=?)",
                        "SEARCH o USING INDEX outbox_aggregate_idx (aggregate_id=? AND delivery_state=?)");
            }
            // the failed rows of NY, page and total, as the rows hold them
            db.useTransaction(h -> h.execute("UPDATE outbox_event SET delivery_state = 'failed' WHERE outbox_event_id % 5 = 0"));
            OutboxQuery failedInNy = OutboxQuery.all().withState(DeliveryState.FAILED).withJurisdiction("NY");
            List<Long> failed = db.read(h -> h.createQuery("SELECT o.outbox_event_id FROM outbox_event o, claim c"
                    + " WHERE c.claim_id = o.aggregate_id AND c.jurisdiction = 'NY' AND o.delivery_state = 'failed'"
                    + " ORDER BY o.outbox_event_id").mapTo(Long.class).list());
            assertThat(failed).hasSizeGreaterThan(20);
            List<org.claimdesk.domain.OutboxEvent> failedPage = db.read(h -> new OutboxStore().list(h,
                    failedInNy.withPage(5, 10)));
            assertThat(failedPage).extracting(org.claimdesk.domain.OutboxEvent::outboxEventId)
                    .containsExactlyElementsOf(failed.subList(5, 15));
            int failedTotal = db.read(h -> new OutboxStore().count(h, failedInNy));
            assertThat(failedTotal).isEqualTo(failed.size());
            // past OutboxWhere.FAILED_FIRST_AT_MOST failed rows (by the tally), the jurisdiction's claims are read first
            db.useTransaction(h -> h.execute("UPDATE outbox_state_tally SET n = n + " + OutboxWhere.FAILED_FIRST_AT_MOST
                    + " WHERE delivery_state = 'failed'"));
            OutboxQuery manyFailed = failedInNy.withPage(0, 50);
            List<String> manyPlan = db.read(h -> explain(h, OutboxStore.pageStatement(OutboxWhere.of(h, manyFailed),
                    manyFailed), OutboxWhere.of(h, manyFailed)));
            assertThat(manyPlan).as(String.join("\n", manyPlan))
                    .first().asString().isEqualTo("SEARCH c USING COVERING INDEX claim_jurisdiction_idx (jurisdiction=?)");
            List<org.claimdesk.domain.OutboxEvent> samePage = db.read(h -> new OutboxStore().list(h,
                    failedInNy.withPage(5, 10)));
            assertThat(samePage).isEqualTo(failedPage);
            OutboxQuery pendingInNy = OutboxQuery.all().withState(DeliveryState.PENDING).withJurisdiction("ny");
            List<Long> expected = db.read(h -> h.createQuery("SELECT o.outbox_event_id FROM outbox_event o, claim c"
                    + " WHERE c.claim_id = o.aggregate_id AND c.jurisdiction = 'NY' AND o.delivery_state = 'pending'"
                    + " ORDER BY o.outbox_event_id").mapTo(Long.class).list());
            assertThat(expected).hasSizeGreaterThan(20);
            OutboxStore store = new OutboxStore();
            List<org.claimdesk.domain.OutboxEvent> page = db.read(h -> store.list(h, pendingInNy.withPage(10, 10)));
            assertThat(page).extracting(org.claimdesk.domain.OutboxEvent::outboxEventId)
                    .containsExactlyElementsOf(expected.subList(10, 20));
            int total = db.read(h -> store.count(h, pendingInNy));
            assertThat(total).isEqualTo(expected.size());
        }
    }

    /**
     * A page narrowed by state or jurisdiction is first read in id order among the outbox's first ids, the read ending
     * with the page ({@link OutboxStore#list}); the page is the one the indexes give, whether the window holds it or
     * not (then it is read again from the indexes).
     */
    @Test
    void aPageIsFirstReadInIdOrderFromTheOutboxsFirstIdsAndIsTheSameWhereverItIsFound() {
        try (Database db = TestDatabase.open(TestDatabase.Engine.SQLITE, dir)) {
            seed(db, 600, "UPDATE claim SET jurisdiction = 'NY' WHERE claim_id % 3 = 0",
                    "UPDATE claim SET jurisdiction = 'WY' WHERE claim_id = 599",
                    "UPDATE outbox_event SET delivery_state = 'sent' WHERE outbox_event_id % 4 <> 0",
                    "UPDATE outbox_event SET delivery_state = 'failed' WHERE outbox_event_id % 50 = 0");
            OutboxQuery sentInNy = OutboxQuery.all().withState(DeliveryState.SENT).withJurisdiction("NY").withPage(0, 50);
            List<String> plan = db.read(h -> {
                OutboxWhere w = OutboxWhere.inIdOrder(h, sentInNy);
                return w.bind(h.createQuery("EXPLAIN QUERY PLAN " + OutboxStore.windowedPageStatement(w, sentInNy)))
                        .bind("window", 20_000).map((rs, ctx) -> rs.getString("detail")).list();
            });
            assertThat(plan).as(String.join("\n", plan))
                    .first().asString().isEqualTo("SEARCH o USING INTEGER PRIMARY KEY (rowid<?)");
            assertThat(plan).as(String.join("\n", plan)).noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));

            OutboxStore store = new OutboxStore();
            List<OutboxQuery> queries = List.of(sentInNy, sentInNy.withPage(100, 50), OutboxQuery.all()
                    .withState(DeliveryState.FAILED).withPage(0, 50), OutboxQuery.all().withJurisdiction("WY")
                    .withPage(0, 50), OutboxQuery.all().withState(DeliveryState.SENT).withPage(400, 50),
                    OutboxQuery.all().withState(DeliveryState.PENDING).withJurisdiction("NY").withPage(0, 20));
            for (OutboxQuery query : queries) {
                List<Long> expected = pageStatementsIds(db, query);
                for (int window : List.of(10, 300, OutboxStore.PAGE_WINDOW)) {
                    List<Long> page = db.read(h -> store.list(h, query, window)).stream()
                            .map(org.claimdesk.domain.OutboxEvent::outboxEventId).toList();
                    assertThat(page).as(query + " in a window of " + window).isEqualTo(expected);
                }
                // read in batches past the last row, as an export reads: every match once, in id order
                List<Long> every = db.read(h -> {
                    OutboxWhere w = OutboxWhere.of(h, query.unpaged());
                    return w.bind(h.createQuery(OutboxStore.pageStatement(w, query.unpaged()))).map(Rows.OUTBOX_EVENT).list();
                }).stream().map(org.claimdesk.domain.OutboxEvent::outboxEventId).toList();
                List<Long> batched = new java.util.ArrayList<>();
                long after = 0;
                for (List<org.claimdesk.domain.OutboxEvent> batch; !(batch = pageAfter(db, store, query, after)).isEmpty(); ) {
                    batch.forEach(e -> batched.add(e.outboxEventId()));
                    after = batch.get(batch.size() - 1).outboxEventId();
                }
                assertThat(batched).as(query + " in batches").isEqualTo(every);
            }
            List<String> batchPlan = db.read(h -> {
                OutboxWhere w = OutboxWhere.inIdOrder(h, sentInNy.unpaged());
                return w.bind(h.createQuery("EXPLAIN QUERY PLAN " + OutboxStore.pageAfterStatement(w)))
                        .bind("after", 0).bind("limit", 7).map((rs, ctx) -> rs.getString("detail")).list();
            });
            assertThat(batchPlan).as(String.join("\n", batchPlan))
                    .first().asString().isEqualTo("SEARCH o USING INTEGER PRIMARY KEY (rowid>?)");
        }
    }

    /**
     * A page of a state that holds most rows (the sent rows) is read in id order wherever it is, its read ending with
     * the page: the state's index would read every row in the state by its key and sort them, for a page past the
     * first 20,000 sent rows of a 564,000-row outbox 2.1 s against 9 ms.
     */
    @Test
    void aDenseStatesPageFarOnIsReadInIdOrderNotGatheredAndSortedFromTheStatesIndex() {
        try (Database db = TestDatabase.open(TestDatabase.Engine.SQLITE, dir)) {
            seed(db, 600, "UPDATE outbox_event SET delivery_state = 'sent' WHERE outbox_event_id % 4 <> 0",
                    "UPDATE outbox_event SET updated_at = outbox_event_id");
            OutboxStore store = new OutboxStore();
            for (OutboxQuery query : List.of(OutboxQuery.all().withState(DeliveryState.SENT).withPage(400, 50),
                    OutboxQuery.all().withState(DeliveryState.SENT).withChangedBefore(java.time.Instant.ofEpochMilli(
                            300)).withPage(100, 50))) {
                StatementsRun.Seen<List<Long>> seen = db.read(h -> StatementsRun.of(h, "SELECT o.*", run -> store
                        .list(run, query, 10).stream().map(org.claimdesk.domain.OutboxEvent::outboxEventId).toList()));
                List<Long> page = seen.result();
                List<String> statements = seen.statements();
                List<Long> expected = pageStatementsIds(db, query);
                assertThat(page).as(query.toString()).hasSize(50).isEqualTo(expected);
                assertThat(statements).as(query.toString()).hasSize(1);
                List<String> plan = db.read(h -> {
                    OutboxWhere w = OutboxWhere.inIdOrder(h, query);
                    return w.bind(h.createQuery("EXPLAIN QUERY PLAN " + statements.get(0)))
                            .map((rs, ctx) -> rs.getString("detail")).list();
                });
                assertThat(plan).as(query + "\n" + String.join("\n", plan)).containsExactly("SCAN o");
            }
        }
    }

    /**
     * A search of error texts in any state but failed reads the rows that have a text from their own index (schema
     * version 21), each text, state, claim and last change tested in the index's entry, and the page's ids first: not
     * every row of the outbox in id order (a text found nowhere) nor every row of a state from the delivery state's
     * index (the sent rows' total, 1.0 s on a 1,000,000-claim demo file, 564,000 outbox rows). The page and the total
     * are those the rows hold.
     */
    @Test
    void aSearchOfErrorTextsReadsTheRowsWithATextFromTheirIndex() {
        try (Database db = TestDatabase.open(TestDatabase.Engine.SQLITE, dir)) {
            seed(db, 600, "UPDATE claim SET jurisdiction = 'NY' WHERE claim_id % 3 = 0",
                    "UPDATE outbox_event SET delivery_state = 'sent' WHERE outbox_event_id % 4 <> 0",
                    "UPDATE outbox_event SET last_error = '503 Service Unavailable: state portal busy'"
                            + " WHERE outbox_event_id % 4 = 0",
                    "UPDATE outbox_event SET delivery_state = 'failed', last_error = 'timeout: no reply'"
                            + " WHERE outbox_event_id % 8 = 0",
                    // a row reconciled as sent keeps the error its last attempt had
                    "UPDATE outbox_event SET last_error = '503 Service Unavailable: maintenance'"
                            + " WHERE outbox_event_id % 30 = 1",
                    "UPDATE outbox_event SET updated_at = outbox_event_id");
            OutboxStore store = new OutboxStore();
            List<OutboxQuery> queries = List.of(OutboxQuery.all().withErrorText("SERVICE unavailable").withPage(20, 30),
                    OutboxQuery.all().withErrorText("nowhere at all").withPage(0, 50),
                    OutboxQuery.all().withState(DeliveryState.SENT).withErrorText("503").withPage(5, 10),
                    OutboxQuery.all().withState(DeliveryState.PENDING).withErrorText("busy").withPage(0, 50),
                    OutboxQuery.all().withJurisdiction("NY").withErrorText("503").withPage(10, 20),
                    OutboxQuery.all().withState(DeliveryState.SENT).withJurisdiction("NY").withErrorText("maint")
                            .withPage(0, 50),
                    OutboxQuery.all().withErrorText("503").withChangedBefore(java.time.Instant.ofEpochMilli(300))
                            .withPage(10, 20));
            for (OutboxQuery query : queries) {
                List<Long> expected = db.read(h -> h.createQuery("SELECT o.outbox_event_id FROM outbox_event o"
                        + " JOIN claim c ON c.claim_id = o.aggregate_id WHERE lower(o.last_error) LIKE :text"
                        + " AND (:state IS NULL OR o.delivery_state = :state)"
                        + " AND (:jurisdiction IS NULL OR c.jurisdiction = :jurisdiction)"
                        + " AND (:before IS NULL OR o.updated_at < :before) ORDER BY 1")
                        .bind("text", "%" + query.errorText().toLowerCase(java.util.Locale.ROOT) + "%")
                        .bind("state", query.state() == null ? null : query.state().dbValue())
                        .bind("jurisdiction", query.jurisdiction())
                        .bind("before", query.changedBefore() == null ? null : query.changedBefore().toEpochMilli())
                        .mapTo(Long.class).list());
                StatementsRun.Seen<List<Long>> seen = db.read(h -> StatementsRun.of(h, "SELECT o.*", run -> store
                        .list(run, query).stream().map(org.claimdesk.domain.OutboxEvent::outboxEventId).toList()));
                assertThat(seen.result()).as(query.toString()).isEqualTo(expected.subList(
                        Math.min(query.offset(), expected.size()), Math.min(query.offset() + query.limit(), expected.size())));
                int total = db.read(h -> store.count(h, query));
                boolean any = db.read(h -> store.any(h, query));
                assertThat(total).as(query.toString()).isEqualTo(expected.size());
                assertThat(any).as(query.toString()).isEqualTo(!expected.isEmpty());
                assertThat(seen.statements()).as(query.toString()).hasSize(1);
                List<String> page = db.read(h -> explain(h, seen.statements().get(0), OutboxWhere.of(h, query)));
                List<String> count = db.read(h -> explain(h, OutboxStore.countStatement(OutboxWhere.of(h, query)),
                        OutboxWhere.of(h, query)));
                for (List<String> plan : List.of(page, count)) {
                    assertThat(plan).as(query + "\n" + String.join("\n", plan))
                            .anySatisfy(step -> assertThat(step)
                                    .startsWith("SEARCH o USING COVERING INDEX outbox_error_idx "))
                            .noneSatisfy(step -> assertThat(step).startsWith("SCAN"))
                            .noneSatisfy(step -> assertThat(step).contains("outbox_due_idx"))
                            .noneSatisfy(step -> assertThat(step).contains("outbox_aggregate_idx"));
                }
            }
            // the failed rows' texts come from their own index, as the error groups' do
            OutboxQuery failed = OutboxQuery.all().withState(DeliveryState.FAILED).withErrorText("timeout").withPage(0, 50);
            List<String> failedPlan = db.read(h -> explain(h, OutboxStore.countStatement(OutboxWhere.of(h, failed)),
                    OutboxWhere.of(h, failed)));
            assertThat(failedPlan).as(String.join("\n", failedPlan))
                    .anySatisfy(step -> assertThat(step).contains("outbox_failed_error_idx"));
            int failedTotal = db.read(h -> store.count(h, failed));
            assertThat(failedTotal).isEqualTo(600 / 8);
        }
    }

    /**
     * A page of a state holding few rows (failed, pending) reads its ids from the state's index alone, then its rows
     * by their keys: not every row in the state read whole to be sorted.
     */
    @Test
    void aSparseStatesPageReadsItsIdsFromTheStatesIndexAloneThenItsRows() {
        try (Database db = TestDatabase.open(TestDatabase.Engine.SQLITE, dir)) {
            seed(db, 600, "UPDATE outbox_event SET delivery_state = 'sent' WHERE outbox_event_id % 4 <> 0",
                    "UPDATE outbox_event SET delivery_state = 'failed', last_error = 'timeout'"
                            + " WHERE outbox_event_id % 8 = 0");
            OutboxStore store = new OutboxStore();
            for (OutboxQuery query : List.of(OutboxQuery.all().withState(DeliveryState.FAILED).withPage(10, 20),
                    OutboxQuery.all().withState(DeliveryState.PENDING).withPage(0, 50))) {
                StatementsRun.Seen<List<Long>> seen = db.read(h -> StatementsRun.of(h, "SELECT o.*", run -> store
                        .list(run, query).stream().map(org.claimdesk.domain.OutboxEvent::outboxEventId).toList()));
                List<Long> page = seen.result();
                List<String> statements = seen.statements();
                List<Long> expected = pageStatementsIds(db, query);
                assertThat(page).as(query.toString()).hasSize(query.limit()).isEqualTo(expected);
                assertThat(statements).as(query.toString()).hasSize(1);
                List<String> plan = db.read(h -> explain(h, statements.get(0), OutboxWhere.of(h, query)));
                assertThat(plan).as(query + "\n" + String.join("\n", plan))
                        .first().asString().isEqualTo("SEARCH o USING INTEGER PRIMARY KEY (rowid=?)");
                assertThat(plan).as(query + "\n" + String.join("\n", plan))
                        .anySatisfy(step -> assertThat(step).startsWith("SEARCH o USING COVERING INDEX"))
                        .noneSatisfy(step -> assertThat(step).startsWith("SCAN"));
            }
        }
    }

    /** The ids of {@code query}'s page as {@link OutboxStore#pageStatement} reads it, through the indexes. */
    private static List<Long> pageStatementsIds(Database db, OutboxQuery query) {
        return db.read(h -> {
            OutboxWhere w = OutboxWhere.of(h, query);
            return w.bind(h.createQuery(OutboxStore.pageStatement(w, query))).map(Rows.OUTBOX_EVENT).list();
        }).stream().map(org.claimdesk.domain.OutboxEvent::outboxEventId).toList();
    }

    private static List<org.claimdesk.domain.OutboxEvent> pageAfter(Database db, OutboxStore store, OutboxQuery query,
            long after) {
        return db.read(h -> store.pageAfter(h, query, after, 7));
    }

    /** {@code claims} SUBMITTING claims in CA with a pending row each, then {@code changes} in one transaction. */
    private static void seed(Database db, int claims, String... changes) {
        BenchmarkStore.seedSubmitting(db, claims);
        db.useTransaction(h -> {
            for (String change : changes) {
                h.execute(change);
            }
        });
    }

    private static List<String> explain(org.jdbi.v3.core.Handle h, String statement, OutboxWhere w) {
        return w.bind(h.createQuery("EXPLAIN QUERY PLAN " + statement)).map((rs, ctx) -> rs.getString("detail")).list();
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
                    .anySatisfy(step -> assertThat(step).startsWith("SEARCH outbox_event USING COVERING INDEX outbox_aggregate_idx"))
                    .noneSatisfy(step -> assertThat(step).contains("outbox_due_idx"));
            java.util.Set<Long> pending = db.read(h -> new OutboxStore().withPending(h, List.of(5L, 17L, 2_001L)));
            assertThat(pending).containsExactlyInAnyOrder(5L, 17L);
        }
    }
}
