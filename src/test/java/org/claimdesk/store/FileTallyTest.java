package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.testing.OlderSchema;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.Sql;
import org.claimdesk.testing.TestClaims;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A desk's file counts its outbox per delivery state and its claims per status from the tallies its triggers keep
 * (schema version 16): they agree with the rows after inserts, updates of one row and of many, deletes and a rolled
 * back transaction; an update that changes no state writes nothing to them; an upgrade counts the rows already there.
 * A team database's tallies: TallyTest.
 */
class FileTallyTest {
    @TempDir
    Path dir;

    Database db;
    final OutboxStore outbox = new OutboxStore();
    final ClaimStore claims = new ClaimStore();

    @BeforeEach
    void open() {
        db = Database.open(dir.resolve("desk.db"));
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void countsAgreeWithTheRowsAfterEveryKindOfWrite() {
        Outbox.submitted(db, 12);
        TestClaims.insert(db, ClaimStatus.PAID);
        assertAgree();
        assertThat(db.read(outbox::countByState)).containsEntry(DeliveryState.PENDING, 12);
        assertThat(claimCounts()).containsEntry(ClaimStatus.SUBMITTING, 12)
                .containsEntry(ClaimStatus.PAID, 1);

        db.useTransaction(h -> h.execute("UPDATE outbox_event SET delivery_state = 'sent' WHERE outbox_event_id ="
                + " (SELECT min(outbox_event_id) FROM outbox_event)"));
        db.useTransaction(h -> h.execute("UPDATE outbox_event SET delivery_state = 'failed' WHERE outbox_event_id IN"
                + " (SELECT outbox_event_id FROM outbox_event WHERE delivery_state = 'pending' ORDER BY 1 LIMIT 4)"));
        db.useTransaction(h -> h.execute("UPDATE claim SET status = 'SUBMITTED_TO_STATE' WHERE claim_id IN"
                + " (SELECT aggregate_id FROM outbox_event WHERE delivery_state = 'sent')"));
        assertAgree();
        assertThat(db.read(outbox::countByState)).containsEntry(DeliveryState.PENDING, 7)
                .containsEntry(DeliveryState.SENT, 1).containsEntry(DeliveryState.FAILED, 4);
        assertThat(claimCounts()).containsEntry(ClaimStatus.SUBMITTING, 11)
                .containsEntry(ClaimStatus.SUBMITTED_TO_STATE, 1).containsEntry(ClaimStatus.PAID, 1);
        assertThat(deliveryCounts())
                .isEqualTo(new DeliveryStore.Counts(7, 7, 4));
        assertThat(sent()).isEqualTo(1);

        Map<String, Long> before = tallies();
        db.useTransaction(h -> h.execute("UPDATE claim SET jurisdiction = jurisdiction"));
        db.useTransaction(h -> h.execute("UPDATE outbox_event SET attempts = attempts"));
        assertThat(tallies()).as("updates that change no state or status").isEqualTo(before);

        assertThatThrownBy(() -> db.useTransaction(h -> {
            h.execute("UPDATE outbox_event SET delivery_state = 'abandoned'");
            h.execute("UPDATE claim SET status = 'WITHDRAWN'");
            throw new IllegalStateException("rolled back");
        })).hasMessage("rolled back");
        assertThat(tallies()).as("a rolled back transaction's changes").isEqualTo(before);

        db.useTransaction(h -> {
            h.execute("DELETE FROM delivery_attempt");
            h.execute("DELETE FROM outbox_event WHERE delivery_state = 'failed'");
        });
        assertAgree();
        assertThat(db.read(outbox::countByState)).containsEntry(DeliveryState.FAILED, 0)
                .containsEntry(DeliveryState.PENDING, 7);
        assertThat(Sql.count(db, "outbox_state_tally")).as("one row per state ever counted").isEqualTo(3);

        long withdrawn = TestClaims.insert(db, ClaimStatus.WITHDRAWN);
        assertThat(claimCounts()).containsEntry(ClaimStatus.WITHDRAWN, 1);
        db.useTransaction(h -> {
            h.execute("DELETE FROM claim_status_history WHERE claim_id = ?", withdrawn);
            h.execute("DELETE FROM claim WHERE claim_id = ?", withdrawn);
        });
        assertAgree();
        assertThat(claimCounts()).containsEntry(ClaimStatus.WITHDRAWN, 0);
    }

    @Test
    void anUpgradeFromVersion15CountsTheRowsAlreadyThere() {
        // the file as schema version 15 left it: no tallies, its rows already written
        OlderSchema.rowsThenVersion(db, 5, 2, 15);

        db = Database.open(dir.resolve("desk.db"));
        assertThat(db.schemaVersion()).isEqualTo(Migrations.latestVersion());
        assertThat(db.read(outbox::countByState)).containsEntry(DeliveryState.PENDING, 3)
                .containsEntry(DeliveryState.FAILED, 2);
        assertThat(claimCounts()).containsEntry(ClaimStatus.SUBMITTING, 5)
                .containsEntry(ClaimStatus.PAID, 1);
        assertAgree();
    }

    /** doctor's check reads: it neither takes the file's write lock nor waits for a writer holding it. */
    @Test
    void theCheckReadsBesideAWriterWithoutWaitingForIt() throws Exception {
        Outbox.submitted(db, 2);
        try (Connection writer = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("desk.db"));
                Statement s = writer.createStatement()) {
            s.execute("BEGIN IMMEDIATE");
            s.execute("UPDATE outbox_event SET delivery_state = 'sent'");
            HealthStore.Tallies beside = assertTimeoutPreemptively(Duration.ofSeconds(5),
                    () -> db.read(new HealthStore()::tallyDifferences));
            assertThat(beside.agree()).isTrue();
            s.execute("ROLLBACK");
        }
    }

    private void assertAgree() {
        assertThat(db.read(new HealthStore()::tallyDifferences)).matches(HealthStore.Tallies::agree);
        assertThat(db.read(outbox::countByState)).isEqualTo(Outbox.countsByState(db));
    }

    /** Both tallies' rows as they are, "table value" to its count. */
    private Map<String, Long> tallies() {
        return db.read((Handle h) -> {
            Map<String, Long> rows = new java.util.TreeMap<>();
            h.createQuery("SELECT 'outbox ' || delivery_state, n FROM outbox_state_tally UNION ALL"
                    + " SELECT 'claim ' || status, n FROM claim_status_tally")
                    .map((rs, ctx) -> Map.entry(rs.getString(1), rs.getLong(2))).forEach(e -> rows.put(e.getKey(), e.getValue()));
            return rows;
        });
    }

    private Map<ClaimStatus, Integer> claimCounts() {
        Map<ClaimStatus, Integer> counts = db.read(h -> claims.countByStatus(h, ClaimQuery.all()));
        return counts;
    }

    /** The worker's counts, with every pending row due. */
    private DeliveryStore.Counts deliveryCounts() {
        DeliveryStore.Counts counts = db.read(h -> new DeliveryStore().counts(h, Instant.now().plusSeconds(3600)));
        return counts;
    }

    private long sent() {
        Long sent = db.read(h -> new DeliveryStore().countSent(h));
        return sent;
    }
}
