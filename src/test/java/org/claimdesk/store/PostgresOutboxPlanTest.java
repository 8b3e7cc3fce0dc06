package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL's plan for the workers' lease ({@link DeliveryStore}) when many pending rows fall due at one instant, as
 * after a re-queue of thousands of rows or an import: the due rows are read in the lease's order (due time, then id)
 * straight from the delivery state's index, which ends with the id (schema version 15), the first few of them, not
 * every row of that instant sorted by id at each lease. SQLite's index ends with the row's id by itself (its rowid).
 * The leased rows, listed by id, are then taken and read by their keys, in a small outbox as in a large one.
 */
class PostgresOutboxPlanTest {
    @TempDir
    Path dir;

    @Test
    void aLeaseReadsTheDueRowsInItsOrderWithoutSortingTheRowsDueAtOneInstant() {
        try (Database db = TestDatabase.open(TestDatabase.Engine.POSTGRESQL, dir)) {
            db.useTransaction(h -> {
                h.execute("""
                        INSERT INTO claim (claim_number, jurisdiction, state_property_id, holder_name, property_type,
                            claim_type, claimant_name, tax_id, amount_cents, status, filed_on, created_at, updated_at)
                        VALUES ('UPC-2026-000001', 'CA', 'CA-1', 'Holder', 'CHECKING', 'OWNER', 'Ann Lee', '123-45-6789',
                            100, 'SUBMITTING', '2026-01-01', 0, 0)""");
                // among 100,000 rows, one in five due at one instant (20,000), one in five due one by one later,
                // the rest delivered long ago; the pending rows spread over the table as a drain leaves them
                h.execute("""
                        INSERT INTO outbox_event (aggregate_id, event_type, payload, delivery_state, idempotency_key,
                            next_attempt_at, created_at, updated_at, sent_at)
                        SELECT (SELECT min(claim_id) FROM claim), 'claim.submit', repeat('x', 400),
                            CASE WHEN i % 5 IN (0, 1) THEN 'pending' ELSE 'sent' END, 'key-' || i,
                            CASE i % 5 WHEN 0 THEN 0 WHEN 1 THEN 2000000 - i ELSE i END, i, i,
                            CASE WHEN i % 5 NOT IN (0, 1) THEN i END
                        FROM generate_series(1, 100000) AS i""");
                h.execute("ANALYZE outbox_event");
            });
            List<String> plan = db.read(h -> h.createQuery("EXPLAIN " + DeliveryStore.dueSql(Dialect.POSTGRESQL))
                    .bind(0, 2_000_000L).bind(1, 16).mapTo(String.class).list());
            assertThat(plan).as(String.join("\n", plan))
                    .anySatisfy(step -> assertThat(step).contains("Index Scan using outbox_due_idx "))
                    .noneSatisfy(step -> assertThat(step).contains("Sort"));
            List<String> take = db.read(h -> h.createQuery("EXPLAIN " + DeliveryStore.takeSql(Dialect.POSTGRESQL))
                    .bind(0, "worker-1").bind(1, 60_000L).bind(2, 2_000_000L).bind(3, "[3,5,8]")
                    .mapTo(String.class).list());
            assertThat(take).as(String.join("\n", take))
                    .anySatisfy(step -> assertThat(step).contains("Index Scan using outbox_event_pkey"))
                    .noneSatisfy(step -> assertThat(step).contains("Seq Scan"));
            // the snapshot's count of rows waiting out a backoff reads only those, from the same index
            List<String> waiting = db.read(h -> h.createQuery("EXPLAIN " + DeliveryStore.WAITING_ROWS)
                    .bind("now", 2_000_000L).mapTo(String.class).list());
            assertThat(waiting).as(String.join("\n", waiting))
                    .anySatisfy(step -> assertThat(step).contains("Index Only Scan using outbox_due_idx "))
                    .noneSatisfy(step -> assertThat(step).contains("Seq Scan"));
        }
    }

    @Test
    void aLeaseOfAFewRowsTakesAndReadsThemByTheirKeysInAnOutboxOfAFewThousandRows() {
        try (Database db = TestDatabase.open(TestDatabase.Engine.POSTGRESQL, dir)) {
            // an office's first months, or the bench's drain: every row pending, the table small enough that reading
            // it whole looks cheap next to a hundred key lookups, the planner's guess for a list of unknown length
            BenchmarkStore.seedSubmitting(db, 4_000);
            db.useTransaction(h -> h.execute("ANALYZE outbox_event"));
            String ids = "[3,5,8,13]";
            List<String> take = db.read(h -> h.createQuery("EXPLAIN " + DeliveryStore.takeSql(Dialect.POSTGRESQL))
                    .bind(0, "worker-1").bind(1, 60_000L).bind(2, 2_000_000L).bind(3, ids)
                    .mapTo(String.class).list());
            assertThat(take).as(String.join("\n", take))
                    .anySatisfy(step -> assertThat(step).contains("outbox_event_pkey"))
                    .noneSatisfy(step -> assertThat(step).contains("Seq Scan"));
            List<String> read = db.read(h -> h.createQuery("EXPLAIN " + DeliveryStore.leasedSql(Dialect.POSTGRESQL))
                    .bind("owner", "worker-1").bind("ids", ids).mapTo(String.class).list());
            assertThat(read).as(String.join("\n", read))
                    .anySatisfy(step -> assertThat(step).contains("outbox_event_pkey"))
                    .noneSatisfy(step -> assertThat(step).contains("Seq Scan"));
        }
    }

    /**
     * A search of error texts reads the rows that have one from their indexes (schema version 21), not every row of
     * the outbox (at 1,000,000 rows a text found nowhere took 269 ms that way): a text found nowhere from its trigrams,
     * no row read; a search among the sent rows from the rows' ids with their delivery state, the state tested in the
     * index. PostgreSQL sees for itself that ILIKE names only rows with a text (the indexes' condition).
     */
    @Test
    void aSearchOfErrorTextsReadsTheRowsWithATextFromTheirIndex() {
        try (Database db = TestDatabase.open(TestDatabase.Engine.POSTGRESQL, dir)) {
            BenchmarkStore.seedSubmitting(db, 1);
            db.useTransaction(h -> {
                // 100,000 rows, most of them sent long ago; one in thirty with the text of a failed last attempt
                h.execute("""
                        INSERT INTO outbox_event (aggregate_id, event_type, payload, delivery_state, idempotency_key,
                            next_attempt_at, created_at, updated_at, sent_at, last_error)
                        SELECT (SELECT min(claim_id) FROM claim), 'claim.submit', repeat('x', 400),
                            CASE WHEN i % 30 = 0 THEN 'failed' WHEN i % 30 = 1 THEN 'pending' ELSE 'sent' END,
                            'key-' || i, i, i, i, CASE WHEN i % 30 > 1 THEN i END,
                            CASE WHEN i % 30 IN (0, 1) THEN '503 Service Unavailable: state portal busy' END
                        FROM generate_series(1, 100000) AS i""");
                h.execute("ANALYZE outbox_event");
            });
            OutboxQuery nowhere = OutboxQuery.all().withErrorText("nowhere at all").withPage(0, 200);
            OutboxQuery sent = OutboxQuery.all().withState(org.claimdesk.domain.DeliveryState.SENT).withErrorText("503")
                    .withPage(0, 200);
            OutboxStore store = new OutboxStore();
            for (OutboxQuery query : List.of(nowhere, sent)) {
                for (String statement : List.of(db.read(h -> OutboxStore.pageStatement(OutboxWhere.of(h, query), query)),
                        db.read(h -> OutboxStore.countStatement(OutboxWhere.of(h, query))))) {
                    List<String> plan = db.read(h -> OutboxWhere.of(h, query).bind(h.createQuery("EXPLAIN " + statement))
                            .mapTo(String.class).list());
                    assertThat(plan).as(query + "\n" + String.join("\n", plan))
                            .anySatisfy(step -> assertThat(step).contains(query == nowhere
                                    ? "Bitmap Index Scan on outbox_error_trgm" : "outbox_error"))
                            .noneSatisfy(step -> assertThat(step).contains("Seq Scan"));
                }
                int total = db.read(h -> store.count(h, query));
                assertThat(total).as(query.toString()).isZero();
            }
            int withText = db.read(h -> store.count(h, OutboxQuery.all().withErrorText("SERVICE")));
            assertThat(withText).as("i % 30 in (0, 1) for i in 1..100,000").isEqualTo(6_667);
        }
    }

    /**
     * The upgrade to version 21 on a team database whose pg_trgm was dropped since (doctor warns of it; the extension's
     * indexes went with it): the extension is created again with the outbox's trigram index, as version 8 created it,
     * instead of the upgrade failing on an unknown operator class.
     */
    @Test
    void theUpgradeToVersion21CreatesPgTrgmAgainWhereItWasDropped() {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();
        try (Database db = Database.open(location)) {
            db.useTransaction(h -> {
                org.claimdesk.testing.OlderSchema.undoDownTo(h, true, 20);
                h.execute("DROP EXTENSION pg_trgm CASCADE");
            });
        }
        try (Database db = Database.open(location)) {
            assertThat(db.schemaVersion()).isEqualTo(Migrations.latestVersion());
            List<String> indexes = db.read(h -> h.createQuery("SELECT indexname FROM pg_indexes"
                    + " WHERE tablename = 'outbox_event' AND indexname LIKE 'outbox_error%' ORDER BY 1")
                    .mapTo(String.class).list());
            assertThat(indexes).containsExactly("outbox_error_idx", "outbox_error_trgm");
            boolean extension = db.read(h -> h.createQuery("SELECT EXISTS (SELECT 1 FROM pg_extension"
                    + " WHERE extname = 'pg_trgm')").mapTo(Boolean.class).one());
            assertThat(extension).isTrue();
        }
    }
}
