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
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.OlderSchema;
import org.claimdesk.testing.Sql;
import org.claimdesk.testing.TestClaims;
import org.claimdesk.testing.TestDatabase;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A team database's counts of the outbox per delivery state (schema version 12) and of every claim per status
 * (version 13) come from the tallies their triggers keep: they agree with the rows after every kind of write, from
 * several connections at once, with folds in between; an upgrade counts the rows already there; the staff role needs
 * no grant on the tallies.
 */
class TallyTest {
    private static final List<DeliveryState> STATES = List.of(DeliveryState.PENDING, DeliveryState.SENT,
            DeliveryState.FAILED, DeliveryState.ABANDONED);

    DatabaseLocation.Postgres location;
    Database db;
    final OutboxStore outbox = new OutboxStore();
    final ClaimStore claims = new ClaimStore();

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

        inParallel(4, (writer, random) -> {
            // each writer its own rows, so that no two transactions wait for each other's rows
            List<Long> own = ids.stream().filter(id -> id % 4 == writer).toList();
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
        });

        assertThat(db.read(outbox::countByState)).isEqualTo(Outbox.countsByState(db));
        assertThat(db.read(new HealthStore()::tallyDifferences)).matches(HealthStore.Tallies::agree);

        growPastAFold(ids.get(0));
        Map<DeliveryState, Integer> before = Outbox.countsByState(db);
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
        assertThat(db.read(outbox::countByState)).isEqualTo(Outbox.countsByState(db))
                .containsEntry(DeliveryState.PENDING, 3)
                .containsEntry(DeliveryState.SENT, 0);
        long sent = db.read(h -> new DeliveryStore().countSent(h));
        assertThat(sent).isZero();

        db.useTransaction(h -> h.execute("TRUNCATE outbox_event CASCADE"));
        assertThat(db.read(outbox::countByState)).containsOnlyKeys(DeliveryState.values()).allSatisfy((s, n) ->
                assertThat(n).isZero());
    }

    @Test
    void claimsPerStatusAgreeWithTheClaimsAfterConcurrentWritesAndFoldsAndAFilterStillCountsTheClaims()
            throws Exception {
        List<ClaimStatus> statuses = List.of(ClaimStatus.IDENTITY_PENDING, ClaimStatus.READY_FOR_SUBMISSION,
                ClaimStatus.SUBMITTED_TO_STATE, ClaimStatus.PAID);
        for (int i = 0; i < 40; i++) {
            TestClaims.insert(db, statuses.get(i % statuses.size()), i % 2 == 0 ? "CA" : "NY");
        }
        int tallyRows = Sql.count(db, "claim_status_tally");
        db.useTransaction(h -> h.execute("UPDATE claim SET jurisdiction = jurisdiction"));
        assertThat(Sql.count(db, "claim_status_tally")).as("an update that changes no status").isEqualTo(tallyRows);

        inParallel(3, (writer, random) -> {
            for (int i = 0; i < 60; i++) {
                String status = statuses.get(random.nextInt(statuses.size())).name();
                boolean keep = random.nextInt(4) > 0;
                try (Handle h = db.jdbi().open()) {
                    h.begin();
                    // each writer its own claims, several in one statement
                    h.createUpdate("UPDATE claim SET status = :s WHERE claim_id % 3 = :w AND claim_id % 7 = :r")
                            .bind("s", status).bind("w", writer).bind("r", random.nextInt(7)).execute();
                    if (keep) {
                        h.commit();
                    } else {
                        h.rollback();
                    }
                }
                if (i % 10 == 0) {
                    claimCounts(db, ClaimQuery.all());
                }
            }
        });
        assertThat(claimCounts(db, ClaimQuery.all())).isEqualTo(claimsPerStatus(null));
        assertThat(claimCounts(db, ClaimQuery.all().withJurisdiction("ny")))
                .isEqualTo(claimsPerStatus("NY")).isNotEqualTo(claimsPerStatus(null));

        db.useTransaction(h -> h.execute("DELETE FROM claim WHERE claim_id % 2 = 0"));
        assertThat(claimCounts(db, ClaimQuery.all())).isEqualTo(claimsPerStatus(null));
        db.useTransaction(h -> h.execute("TRUNCATE claim CASCADE"));
        assertThat(claimCounts(db, ClaimQuery.all()))
                .allSatisfy((s, n) -> assertThat(n).isZero());
        assertThat(db.read(new HealthStore()::tallyDifferences)).matches(HealthStore.Tallies::agree);
    }

    @Test
    void aRebuildWaitsForAFoldUnderWayAndCountsOnce() throws Exception {
        Outbox.submitted(db, 3);
        growPastAFold(db.read(h -> h.createQuery("SELECT min(outbox_event_id) FROM outbox_event")
                .mapTo(Long.class).one()));
        Map<DeliveryState, Integer> expected = Outbox.countsByState(db);
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
        assertThat(db.read(new HealthStore()::tallyDifferences)).matches(HealthStore.Tallies::agree);
    }

    @Test
    void aSessionsTemporaryTableOfTheSameNameDoesNotTakeTheTallysPlace() {
        Outbox.submitted(db, 2);
        try (Handle h = db.jdbi().open()) {
            h.execute("CREATE TEMPORARY TABLE outbox_state_tally (delivery_state TEXT, n BIGINT)");
            h.execute("CREATE TEMPORARY TABLE claim_status_tally (status TEXT, n BIGINT)");
            h.execute("UPDATE outbox_event SET delivery_state = 'failed'");
            h.execute("UPDATE claim SET status = 'SUBMITTED_TO_STATE'");
            assertThat(outbox.countByState(h)).containsEntry(DeliveryState.FAILED, 2);
            assertThat(claims.countByStatus(h, ClaimQuery.all())).containsEntry(ClaimStatus.SUBMITTED_TO_STATE, 2);
            assertThat(h.createQuery("SELECT (SELECT count(*) FROM pg_temp.outbox_state_tally)"
                    + " + (SELECT count(*) FROM pg_temp.claim_status_tally)").mapTo(Integer.class).one()).isZero();
        }
        assertThat(db.read(new HealthStore()::tallyDifferences)).matches(HealthStore.Tallies::agree);
    }

    @Test
    void anUpgradeFromVersion11CountsTheRowsAlreadyThere() {
        // the database as schema version 11 left it: no tallies, its rows already written
        OlderSchema.rowsThenVersion(db, 7, 3, 11);

        db = Database.open(location);
        assertThat(db.schemaVersion()).isEqualTo(Migrations.latestVersion());
        assertThat(db.read(outbox::countByState)).containsEntry(DeliveryState.PENDING, 4)
                .containsEntry(DeliveryState.FAILED, 3);
        DeliveryStore.Counts counts = db.read(h -> new DeliveryStore().counts(h, java.time.Instant.now()));
        assertThat(counts).isEqualTo(new DeliveryStore.Counts(4, 4, 3));
        assertThat(claimCounts(db, ClaimQuery.all())).containsEntry(ClaimStatus.SUBMITTING, 7)
                .containsEntry(ClaimStatus.PAID, 1);
        assertThat(Sql.count(db, "claim_status_tally")).as("counted by the upgrade").isEqualTo(2);
    }

    @Test
    void theStaffRoleCountsAndWritesWithoutAnyGrantOnTheTallies() {
        String staff = "staff_" + location.database();
        DatabaseLocation.Postgres asStaff = TestDatabase.staffRole(db, staff);
        // as where IT granted staff the tables before the upgrades that added the tallies
        db.useTransaction(h -> h.execute("REVOKE ALL ON outbox_state_tally, claim_status_tally FROM " + staff));
        try (Database staffDb = Database.open(asStaff)) {
            Outbox.submitted(staffDb, 3);
            staffDb.useTransaction(h -> h.execute("UPDATE outbox_event SET delivery_state = 'sent' WHERE"
                    + " outbox_event_id = (SELECT min(outbox_event_id) FROM outbox_event)"));
            assertThat(staffDb.read(outbox::countByState)).containsEntry(DeliveryState.PENDING, 2)
                    .containsEntry(DeliveryState.SENT, 1);
            assertThat(claimCounts(staffDb, ClaimQuery.all()))
                    .containsEntry(ClaimStatus.SUBMITTING, 3);
            for (String rebuild : List.of("claimdesk_outbox_tally_rebuild()", "claimdesk_claim_tally_rebuild()")) {
                assertThatThrownBy(() -> staffDb.read(h -> h.createQuery("SELECT count(*) FROM (SELECT " + rebuild
                        + ") r").mapTo(Integer.class).one())).as(rebuild).hasMessageContaining("permission denied");
            }
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

    /** One writer's work: its number and a random source seeded with it. */
    private interface Writer {
        void write(int writer, Random random) throws Exception;
    }

    /** Runs {@code writers} writers at once, each on a thread of its own, and waits for them all. */
    private static void inParallel(int writers, Writer work) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                done.add(threads.submit(() -> {
                    work.write(writer, new Random(writer));
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            threads.shutdownNow();
        }
    }

    /** The claims per status as staff's counts read them. */
    private Map<ClaimStatus, Integer> claimCounts(Database database, ClaimQuery query) {
        Map<ClaimStatus, Integer> counts = database.read(h -> claims.countByStatus(h, query));
        return counts;
    }

    /** The claims per status counted claim by claim, in {@code jurisdiction} only unless it is null. */
    private Map<ClaimStatus, Integer> claimsPerStatus(String jurisdiction) {
        Map<ClaimStatus, Integer> counts = new EnumMap<>(ClaimStatus.class);
        for (ClaimStatus s : ClaimStatus.values()) {
            counts.put(s, Sql.scalar(db, "SELECT count(*) FROM claim WHERE status = '" + s.name() + "'"
                    + (jurisdiction == null ? "" : " AND jurisdiction = '" + jurisdiction + "'"), Integer.class));
        }
        return counts;
    }
}
