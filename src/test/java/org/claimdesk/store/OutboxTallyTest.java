package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.SchemaBefore12;
import org.claimdesk.testing.Sql;
import org.claimdesk.testing.TestDatabase;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A team database's outbox counts come from the tally its triggers keep (schema version 12): they agree with the
 * rows after every kind of write, from several connections at once, with folds in between; an upgrade counts the
 * rows already there; the staff role needs no grant on the tally.
 */
class OutboxTallyTest {
    private static final List<DeliveryState> STATES = List.of(DeliveryState.PENDING, DeliveryState.SENT,
            DeliveryState.FAILED, DeliveryState.ABANDONED);

    DatabaseLocation.Postgres location;
    Database db;
    final OutboxStore outbox = new OutboxStore();

    @BeforeEach
    void open() {
        location = TestDatabase.newServerDatabase();
        db = Database.open(location);
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void countsAgreeWithTheRowsAfterConcurrentWritesRollbacksAndFolds() throws Exception {
        Outbox.submitted(db, 60);
        assertThat(db.read(outbox::countByState)).containsEntry(DeliveryState.PENDING, 60)
                .containsEntry(DeliveryState.SENT, 0);
        List<Long> ids = db.read(h -> h.createQuery("SELECT outbox_event_id FROM outbox_event ORDER BY 1")
                .mapTo(Long.class).list());

        ExecutorService writers = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                Random random = new Random(w);
                int writer = w;
                // each writer its own rows, so that no two transactions wait for each other's rows
                List<Long> own = ids.stream().filter(id -> id % 4 == writer).toList();
                done.add(writers.submit(() -> {
                    for (int i = 0; i < 150; i++) {
                        long id = own.get(random.nextInt(own.size()));
                        String state = STATES.get(random.nextInt(STATES.size())).dbValue();
                        boolean keep = random.nextInt(5) > 0;
                        try (Handle h = db.jdbi().open()) {
                            h.begin();
                            h.createUpdate("UPDATE outbox_event SET delivery_state = :s WHERE outbox_event_id = :id")
                                    .bind("s", state).bind("id", id).execute();
                            // many rows at once, in one statement: one tally row per state it changed
                            h.createUpdate("UPDATE outbox_event SET delivery_state = :s WHERE outbox_event_id % 4 = :w"
                                    + " AND delivery_state = 'failed'").bind("s", state).bind("w", writer).execute();
                            if (keep) {
                                h.commit();
                            } else {
                                h.rollback();
                            }
                        }
                        if (i % 10 == 0) {
                            db.read(outbox::countByState);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            writers.shutdownNow();
        }

        assertThat(db.read(outbox::countByState)).isEqualTo(rows());
        assertThat(db.read(new HealthStore()::tallyDifferences)).isEmpty();

        growPastAFold(ids.get(0));
        Map<DeliveryState, Integer> before = rows();
        assertThat(db.read(outbox::countByState)).isEqualTo(before);
        assertThat(Sql.count(db, "outbox_state_tally")).as("folded: one row per state").isLessThanOrEqualTo(STATES.size());
        assertThat(db.read(outbox::countByState)).isEqualTo(before);
    }

    @Test
    void insertsDeletesAndTruncationAreCounted() {
        Outbox.submitted(db, 5);
        db.useTransaction(h -> h.execute("UPDATE outbox_event SET delivery_state = 'sent' WHERE outbox_event_id IN"
                + " (SELECT outbox_event_id FROM outbox_event ORDER BY 1 LIMIT 2)"));
        db.useTransaction(h -> h.execute("DELETE FROM outbox_event WHERE delivery_state = 'sent'"));
        assertThat(db.read(outbox::countByState)).isEqualTo(rows()).containsEntry(DeliveryState.PENDING, 3)
                .containsEntry(DeliveryState.SENT, 0);
        long sent = db.read(h -> new DeliveryStore().countSent(h));
        assertThat(sent).isZero();

        db.useTransaction(h -> h.execute("TRUNCATE outbox_event CASCADE"));
        assertThat(db.read(outbox::countByState)).containsOnlyKeys(DeliveryState.values()).allSatisfy((s, n) ->
                assertThat(n).isZero());
    }

    @Test
    void aRebuildWaitsForAFoldUnderWayAndCountsOnce() throws Exception {
        Outbox.submitted(db, 3);
        growPastAFold(db.read(h -> h.createQuery("SELECT min(outbox_event_id) FROM outbox_event")
                .mapTo(Long.class).one()));
        Map<DeliveryState, Integer> expected = rows();
        ExecutorService other = Executors.newSingleThreadExecutor();
        try (Handle folding = db.jdbi().open()) {
            folding.begin();
            // a count that folds, its transaction not yet committed
            assertThat(outbox.countByState(folding)).isEqualTo(expected);
            Future<?> rebuild = other.submit(() -> db.read(h -> h.createQuery(
                    "SELECT count(*) FROM (SELECT claimdesk_outbox_tally_rebuild()) r").mapTo(Integer.class).one()));
            await().atMost(Duration.ofSeconds(10)).until(() -> Sql.scalar(db, "SELECT count(*) FROM pg_locks"
                    + " WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database"
                    + " WHERE datname = current_database())", Integer.class) == 1);
            folding.commit();
            rebuild.get(10, TimeUnit.SECONDS);
        } finally {
            other.shutdownNow();
        }
        assertThat(db.read(outbox::countByState)).isEqualTo(expected);
        assertThat(db.read(new HealthStore()::tallyDifferences)).isEmpty();
    }

    @Test
    void aSessionsTemporaryTableOfTheSameNameDoesNotTakeTheTallysPlace() {
        Outbox.submitted(db, 2);
        try (Handle h = db.jdbi().open()) {
            h.execute("CREATE TEMPORARY TABLE outbox_state_tally (delivery_state TEXT, n BIGINT)");
            h.execute("UPDATE outbox_event SET delivery_state = 'failed'");
            assertThat(outbox.countByState(h)).containsEntry(DeliveryState.FAILED, 2);
            assertThat(h.createQuery("SELECT count(*) FROM pg_temp.outbox_state_tally").mapTo(Integer.class).one())
                    .isZero();
        }
        assertThat(db.read(new HealthStore()::tallyDifferences)).isEmpty();
    }

    @Test
    void anUpgradeToVersion12CountsTheRowsAlreadyThere() {
        Outbox.submitted(db, 7);
        db.useTransaction(h -> h.execute("UPDATE outbox_event SET delivery_state = 'failed' WHERE outbox_event_id IN"
                + " (SELECT outbox_event_id FROM outbox_event ORDER BY 1 LIMIT 3)"));
        // the database as schema version 11 left it: no tally, its rows already written
        db.useTransaction(h -> SchemaBefore12.undo(h, true));
        db.close();

        db = Database.open(location);
        assertThat(db.schemaVersion()).isEqualTo(12);
        assertThat(db.read(outbox::countByState)).containsEntry(DeliveryState.PENDING, 4)
                .containsEntry(DeliveryState.FAILED, 3);
        DeliveryStore.Counts counts = db.read(h -> new DeliveryStore().counts(h, java.time.Instant.now()));
        assertThat(counts).isEqualTo(new DeliveryStore.Counts(4, 4, 3));
    }

    @Test
    void theStaffRoleCountsAndWritesTheOutboxWithoutAnyGrantOnTheTally() {
        String staff = "staff_" + location.database();
        db.useTransaction(h -> {
            h.execute("CREATE ROLE " + staff + " LOGIN");
            h.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO " + staff);
            h.execute("REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM " + staff);
            h.execute("GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO " + staff);
            // as where IT granted staff the tables before the upgrade that added the tally
            h.execute("REVOKE ALL ON outbox_state_tally FROM " + staff);
        });
        DatabaseLocation.Postgres asStaff = new DatabaseLocation.Postgres(location.host(), location.port(),
                location.database(), staff, Map.of());
        try (Database staffDb = Database.open(asStaff)) {
            Outbox.submitted(staffDb, 3);
            staffDb.useTransaction(h -> h.execute("UPDATE outbox_event SET delivery_state = 'sent' WHERE"
                    + " outbox_event_id = (SELECT min(outbox_event_id) FROM outbox_event)"));
            assertThat(staffDb.read(outbox::countByState)).containsEntry(DeliveryState.PENDING, 2)
                    .containsEntry(DeliveryState.SENT, 1);
            assertThatThrownBy(() -> staffDb.read(h -> h.createQuery(
                    "SELECT count(*) FROM (SELECT claimdesk_outbox_tally_rebuild()) r").mapTo(Integer.class).one())).hasMessageContaining("permission denied");
        }
    }

    /** Moves one row from state to state, one statement at a time, until the tally has grown past what a count folds. */
    private void growPastAFold(long id) {
        for (int i = 0; Sql.count(db, "outbox_state_tally") <= 100; i++) {
            String state = STATES.get(i % STATES.size()).dbValue();
            db.useTransaction(h -> h.createUpdate("UPDATE outbox_event SET delivery_state = :s WHERE outbox_event_id"
                    + " = :id").bind("s", state).bind("id", id).execute());
        }
    }

    private Map<DeliveryState, Integer> rows() {
        Map<DeliveryState, Integer> rows = new EnumMap<>(DeliveryState.class);
        for (DeliveryState s : DeliveryState.values()) {
            rows.put(s, (int) Outbox.count(db, s));
        }
        return rows;
    }
}
