package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.testing.Sql;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A database left by the first release (schema version 1) is migrated on first start and keeps its data. */
class UpgradeTest {
    @TempDir
    Path dir;

    @Test
    void aVersionOneDatabaseIsMigratedAndKeepsItsRows() throws Exception {
        Path file = dir.resolve("v1.db");
        String v1;
        try (InputStream in = Migrations.class.getResourceAsStream("migrations/V1__schema.sql")) {
            v1 = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            for (String statement : SqlScript.statements(v1)) {
                s.execute(statement);
            }
            s.execute("PRAGMA user_version = 1");
            s.execute("PRAGMA application_id = " + Migrations.APPLICATION_ID);
            s.execute("""
                    INSERT INTO claim (claim_id, claim_number, jurisdiction, state_property_id, holder_name, property_type,
                        claim_type, claimant_name, tax_id, amount_cents, status, filed_on, created_at, updated_at)
                    VALUES (1, 'UPC-2025-000001', 'CA', '1234567', 'Holder', 'AC01', 'OWNER', 'Maria Garcia',
                        '123-00-4567', 1000, 'SUBMITTING', '2025-06-01', 0, 0)""");
            s.execute("""
                    INSERT INTO outbox_event (outbox_event_id, aggregate_id, event_type, payload, delivery_state, attempts,
                        idempotency_key, next_attempt_at, created_at, updated_at)
                    VALUES (1, 1, 'state_claim_submission_requested', '{}', 'failed', 8, 'sub-old-1', 0, 0, 0)""");
            s.execute("""
                    INSERT INTO delivery_attempt (outbox_event_id, attempt_no, started_at, duration_ms, outcome,
                        http_status, detail, worker_id)
                    VALUES (1, 8, 0, 120, 'PERMANENT', 422, '422 invalid_claim: holder id not found', 'worker-1')""");
        }

        try (Database db = Database.open(file)) {
            assertThat(db.schemaVersion()).isEqualTo(Migrations.latestVersion()).isGreaterThan(1);
            assertThat(Sql.count(db, "claim")).isEqualTo(1);
            assertThat(Sql.scalar(db, "SELECT attempts FROM outbox_event", Integer.class)).isEqualTo(8);
            List<String> columns = db.read(h -> h.createQuery("SELECT name FROM pragma_table_info('outbox_event')")
                    .mapTo(String.class).list());
            assertThat(columns).contains("retry_count");
            assertThat(Sql.scalar(db, "SELECT retry_count FROM outbox_event", Integer.class)).isZero();
            // an attempt made before the state named fields reads back without one
            List<DeliveryAttempt> attempts = db.read(h -> new OutboxStore().attempts(h, 1));
            assertThat(attempts).singleElement().satisfies(a -> {
                assertThat(a.detail()).isEqualTo("422 invalid_claim: holder id not found");
                assertThat(a.field()).isNull();
            });
            // the trigram search index is built from the claims already there
            int found = db.read(h -> new ClaimStore().count(h, ClaimQuery.all().withSearch("garcia")));
            assertThat(found).isEqualTo(1);
        }
        try (Database again = Database.open(file)) {
            assertThat(again.schemaVersion()).isEqualTo(Migrations.latestVersion());
        }
    }

    @Test
    void aVersionThreeDatabaseGainsTheSupersededStateAndKeepsRowsAttemptsIndexesAndSearch() throws Exception {
        Path file = dir.resolve("v3.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            schemaAt(s, 3);
            s.execute("""
                    INSERT INTO claim (claim_id, claim_number, jurisdiction, state_property_id, holder_name, property_type,
                        claim_type, claimant_name, tax_id, amount_cents, status, filed_on, created_at, updated_at)
                    VALUES (1, 'UPC-2025-000001', 'CA', '1234567', 'Holder', 'AC01', 'OWNER', 'Maria Garcia',
                        '123-00-4567', 1000, 'SUBMITTING', '2025-06-01', 0, 0)""");
            s.execute("""
                    INSERT INTO outbox_event (outbox_event_id, aggregate_id, event_type, payload, delivery_state, attempts,
                        last_error, idempotency_key, next_attempt_at, created_at, updated_at, retry_count)
                    VALUES (1, 1, 'state_claim_submission_requested', '{"holderId":"HLD"}', 'failed', 2,
                        '422 invalid_claim: holder id not found', 'sub-old-1', 0, 0, 5, 2),
                           (2, 1, 'state_claim_submission_requested', '{}', 'sent', 1, NULL, 'sub-old-2', 0, 0, 6, 0)""");
            s.execute("""
                    INSERT INTO delivery_attempt (outbox_event_id, attempt_no, started_at, duration_ms, outcome, http_status, detail)
                    VALUES (1, 1, 1, 10, 'TRANSIENT', 503, 'busy'), (1, 2, 2, 10, 'PERMANENT', 422, 'holder id not found'),
                           (2, 1, 3, 10, 'DELIVERED', 201, 'case')""");
        }

        try (Database db = Database.open(file)) {
            assertThat(db.schemaVersion()).isEqualTo(Migrations.latestVersion()).isGreaterThanOrEqualTo(4);
            OutboxEvent kept = db.read(h -> new OutboxStore().find(h, 1).orElseThrow());
            assertThat(kept)
                    .satisfies(e -> {
                        assertThat(e.deliveryState()).isEqualTo(DeliveryState.FAILED);
                        assertThat(e.lastError()).isEqualTo("422 invalid_claim: holder id not found");
                        assertThat(e.payload()).isEqualTo("{\"holderId\":\"HLD\"}");
                        assertThat(e.supersededBy()).isNull();
                        assertThat(e.updatedAt().toEpochMilli()).isEqualTo(5);
                    });
            assertThat(Sql.scalar(db, "SELECT retry_count FROM outbox_event WHERE outbox_event_id = 1", Integer.class)).isEqualTo(2);
            List<DeliveryAttempt> attempts = db.read(h -> new OutboxStore().attempts(h, 1));
            assertThat(attempts).hasSize(2);
            assertThat(Sql.count(db, "delivery_attempt")).isEqualTo(3);
            List<String> indexes = db.read(h -> h.createQuery(
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'outbox_event' AND sql IS NOT NULL")
                    .mapTo(String.class).list());
            assertThat(indexes).contains("outbox_due_idx", "outbox_aggregate_idx", "outbox_superseded_by_idx");
            assertThat(Sql.scalar(db, "SELECT count(*) FROM sqlite_master WHERE name = 'outbox_event_v4'", Integer.class)).isZero();
            assertThat(Sql.scalar(db, "SELECT count(*) FROM pragma_foreign_key_check", Integer.class)).isZero();
            assertThat(Sql.scalar(db, "PRAGMA foreign_keys", Integer.class)).isEqualTo(1);
            // the search index and its triggers on claim survive
            int found = db.read(h -> new ClaimStore().count(h, ClaimQuery.all().withSearch("garcia")));
            assertThat(found).isEqualTo(1);
            // the new state, its successor and the rule that ties them
            db.useTransaction(h -> h.execute("UPDATE outbox_event SET delivery_state = 'superseded', superseded_by = 2"
                    + " WHERE outbox_event_id = 1"));
            Long successor = db.read(h -> new OutboxStore().find(h, 1).orElseThrow().supersededBy());
            assertThat(successor).isEqualTo(2L);
            assertThatThrownBy(() -> db.useTransaction(h -> h.execute(
                    "UPDATE outbox_event SET delivery_state = 'failed' WHERE outbox_event_id = 1")))
                    .hasMessageContaining("CHECK");
            assertThatThrownBy(() -> db.useTransaction(h -> h.execute(
                    "UPDATE outbox_event SET superseded_by = 99 WHERE outbox_event_id = 1")))
                    .hasMessageContaining("FOREIGN KEY");
        }
    }

    @Test
    void aVersionEightDatabaseFindsItsCaseIdsThroughTheirOwnIndexAndKeepsItInStep() throws Exception {
        Path file = dir.resolve("v8.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            schemaAt(s, 8);
            for (int id = 1; id <= 3; id++) {
                s.execute("""
                        INSERT INTO claim (claim_id, claim_number, jurisdiction, state_property_id, holder_name,
                            property_type, claim_type, claimant_name, tax_id, amount_cents, status, state_case_id,
                            filed_on, created_at, updated_at)
                        VALUES (%d, 'UPC-2025-00000%d', 'CA', '123456%d', 'Holder', 'AC01', 'OWNER', 'Maria Garcia',
                            '123-00-4567', 1000, %s, '2025-06-01', 0, 0)""".formatted(id, id, id,
                        id == 3 ? "'SUBMITTING', NULL" : "'SUBMITTED_TO_STATE', 'CA-2025-88000" + id + "'"));
            }
        }

        try (Database db = Database.open(file)) {
            assertThat(db.schemaVersion()).isEqualTo(Migrations.latestVersion()).isGreaterThanOrEqualTo(9);
            ClaimStore claims = new ClaimStore();
            ClaimQuery caseIds = ClaimQuery.all().withSearch("ca-2025-880");
            List<Claim> before = db.read(h -> claims.list(h, caseIds.withPage(0, 200)));
            assertThat(before).extracting(Claim::claimId).as("the claims that had case ids before the upgrade")
                    .containsExactly(1L, 2L);
            int counted = db.read(h -> claims.count(h, caseIds));
            assertThat(counted).isEqualTo(2);

            db.useTransaction(h -> h.execute("UPDATE claim SET status = 'SUBMITTED_TO_STATE',"
                    + " state_case_id = 'CA-2025-880003' WHERE claim_id = 3"));
            db.useTransaction(h -> h.execute("UPDATE claim SET state_case_id = 'CA-2025-770001' WHERE claim_id = 1"));
            db.useTransaction(h -> h.execute("DELETE FROM claim WHERE claim_id = 2"));
            List<Claim> after = db.read(h -> claims.list(h, caseIds.withPage(0, 200)));
            assertThat(after).extracting(Claim::claimId)
                    .as("a case id given, one changed and a claim deleted after the upgrade").containsExactly(3L);
            List<Claim> changed = db.read(h -> claims.list(h, ClaimQuery.all().withSearch("770001").withPage(0, 200)));
            assertThat(changed).extracting(Claim::claimId).containsExactly(1L);
            db.useTransaction(h -> h.execute(
                    "INSERT INTO claim_case_search (claim_case_search, rank) VALUES ('integrity-check', 1)"));
        }
    }

    @Test
    void versionTenChangesNothingOnSqliteBeyondTheLaterVersionsOwnStatements() throws Exception {
        Path file = dir.resolve("v9.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            schemaAt(s, 9);
            s.execute("""
                    INSERT INTO claim (claim_id, claim_number, jurisdiction, state_property_id, holder_name,
                        property_type, claim_type, claimant_name, tax_id, amount_cents, status, filed_on, created_at,
                        updated_at)
                    VALUES (1, 'UPC-2025-000001', 'CA', '1234561', 'Holder', 'AC01', 'OWNER', 'Maria Garcia',
                        '123-00-4567', 1000, 'IDENTITY_PENDING', '2025-06-01', 0, 0)""");
        }
        // what version 9 and the later versions' own statements make (versions 10, 12, 13, 15, 18 and 20 have none here)
        Path expected = dir.resolve("expected.db");
        List<String> schemaExpected = new java.util.ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + expected); Statement s = c.createStatement()) {
            schemaAt(s, 9);
            for (String later : List.of("V10__search_text.sql", "V11__audit_filters.sql", "V14__failed_errors.sql",
                    "V16__tallies.sql", "V17__evidence_withdrawal.sql", "V19__jurisdiction_reads.sql",
                    "V21__error_search.sql", "V22__overdue_reads.sql")) {
                for (String statement : SqlScript.statements(script(later))) {
                    s.execute(statement);
                }
            }
            try (java.sql.ResultSet rs = s.executeQuery("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")) {
                while (rs.next()) {
                    schemaExpected.add(rs.getString(1));
                }
            }
        }
        assertThat(SqlScript.statements(script("V10__search_text.sql"))).as("version 10 on SQLite").isEmpty();

        try (Database db = Database.open(file)) {
            assertThat(db.schemaVersion()).isEqualTo(Migrations.latestVersion()).isGreaterThanOrEqualTo(11);
            List<String> schemaAfter = db.read(h -> h.createQuery(
                    "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name").mapTo(String.class).list());
            assertThat(schemaAfter).isEqualTo(schemaExpected);
            List<Claim> found = db.read(h -> new ClaimStore().list(h, ClaimQuery.all().withSearch("garcia")));
            assertThat(found).extracting(Claim::claimNumber).containsExactly("UPC-2025-000001");
            int applicationId = db.read(h -> h.createQuery("PRAGMA application_id").mapTo(Integer.class).one());
            assertThat(applicationId).isEqualTo(Migrations.APPLICATION_ID);
        }
    }

    @Test
    void aVersionTenDatabaseGainsAnIndexForEachAuditFilterAndKeepsItsEntries() throws Exception {
        Path file = dir.resolve("v10.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            schemaAt(s, 9);
            s.execute("PRAGMA user_version = 10");
            s.execute(AuditStoreTest.ENTRIES_BEFORE_THE_UPGRADE);
        }
        List<String> told = new java.util.ArrayList<>();
        try (Database db = Database.open(new DatabaseLocation.SqliteFile(file), (found, version, latest) -> told.add(
                found + " " + version + " " + latest + " on " + Thread.currentThread().getName()))) {
            assertThat(told).as("each version applied, told on the opening thread before it ran")
                    .containsExactly("10 11 22 on " + Thread.currentThread().getName(),
                            "10 12 22 on " + Thread.currentThread().getName(),
                            "10 13 22 on " + Thread.currentThread().getName(),
                            "10 14 22 on " + Thread.currentThread().getName(),
                            "10 15 22 on " + Thread.currentThread().getName(),
                            "10 16 22 on " + Thread.currentThread().getName(),
                            "10 17 22 on " + Thread.currentThread().getName(),
                            "10 18 22 on " + Thread.currentThread().getName(),
                            "10 19 22 on " + Thread.currentThread().getName(),
                            "10 20 22 on " + Thread.currentThread().getName(),
                            "10 21 22 on " + Thread.currentThread().getName(),
                            "10 22 22 on " + Thread.currentThread().getName());
            assertThat(db.schemaVersion()).isEqualTo(Migrations.latestVersion());
            List<String> indexes = db.read(h -> h.createQuery("SELECT sql FROM sqlite_master WHERE type = 'index'"
                    + " AND tbl_name = 'audit_log' AND sql IS NOT NULL ORDER BY name").mapTo(String.class).list());
            assertThat(indexes).hasSize(3).satisfiesExactly(
                    action -> assertThat(action).contains("audit_action_idx").endsWith("(action)"),
                    actor -> assertThat(actor).contains("audit_actor_idx").endsWith("(actor)"),
                    subject -> assertThat(subject).contains("audit_subject_idx").endsWith("(subject_id)"));
            AuditStoreTest.assertFoundAfterTheUpgrade(db);
        }
    }

    /**
     * Two programs opening one file of an older schema at once (a console started twice, a scheduled backup beside
     * it): the second brings it up to date while the first waits between two versions; the first applies none of them
     * again, and the file opens at the current version ever after.
     */
    @Test
    void aFileUpgradedByAnotherProgramMeanwhileIsNotUpgradedTwice() throws Exception {
        Path file = atVersionTen("v10.db");
        List<Integer> otherFound = new java.util.ArrayList<>();
        SchemaProgress meanwhile = (found, version, latest) -> {
            if (version == 12) {
                try (Database other = Database.open(new DatabaseLocation.SqliteFile(file),
                        (f, v, l) -> otherFound.add(v))) {
                    assertThat(other.schemaVersion()).isEqualTo(Migrations.latestVersion());
                }
            }
        };
        try (Database db = Database.open(new DatabaseLocation.SqliteFile(file), meanwhile)) {
            assertThat(db.schemaVersion()).isEqualTo(Migrations.latestVersion());
        }
        assertThat(otherFound).as("the other program applied what was left").first().isEqualTo(12);
        try (Database again = Database.open(file)) {
            assertThat(again.schemaVersion()).isEqualTo(Migrations.latestVersion());
            int tallies = again.read(h -> h.createQuery("SELECT count(*) FROM sqlite_master WHERE name ="
                    + " 'outbox_state_tally'").mapTo(Integer.class).one());
            assertThat(tallies).isEqualTo(1);
        }
    }

    /** A newer ClaimDesk upgrading the file while this one waits between two versions: refused, as at the start. */
    @Test
    void aFileANewerClaimDeskUpgradedMeanwhileIsRefused() throws Exception {
        Path file = atVersionTen("v10-newer.db");
        SchemaProgress newerMeanwhile = (found, version, latest) -> {
            if (version == 12) {
                try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                        Statement s = c.createStatement()) {
                    s.execute("PRAGMA user_version = " + (Migrations.latestVersion() + 1));
                } catch (java.sql.SQLException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
        assertThatThrownBy(() -> Database.open(new DatabaseLocation.SqliteFile(file), newerMeanwhile).close())
                .isInstanceOf(DatabaseException.class).hasMessageContaining("was written by a newer ClaimDesk")
                .hasMessageContaining("schema version " + (Migrations.latestVersion() + 1));
    }

    @Test
    void aNewFileIsToldOfEachVersionFromNothingAndACurrentOneOfNone() {
        Path file = dir.resolve("new.db");
        List<int[]> told = new java.util.ArrayList<>();
        try (Database db = Database.open(new DatabaseLocation.SqliteFile(file),
                (found, version, latest) -> told.add(new int[] {found, version, latest}))) {
            assertThat(db.schemaVersion()).isEqualTo(Migrations.latestVersion());
        }
        assertThat(told).hasSize(Migrations.latestVersion());
        for (int i = 0; i < told.size(); i++) {
            assertThat(told.get(i)).containsExactly(0, i + 1, Migrations.latestVersion());
        }
        told.clear();
        try (Database again = Database.open(new DatabaseLocation.SqliteFile(file),
                (found, version, latest) -> told.add(new int[] {found, version, latest}))) {
            assertThat(told).isEmpty();
        }
        assertThat(SchemaProgress.describe(0, 3, 11)).isEqualTo("Creating the database (schema version 3 of 11)");
        assertThat(SchemaProgress.describe(10, 11, 11))
                .isEqualTo("Bringing the database up to date for this ClaimDesk: schema version 11 of 11 (it was at 10)");
    }

    /**
     * A version that rebuilds no table (11's indexes, 16's tallies) reads no table's rows to check references: a file
     * that already holds a dangling one (left by a tool with foreign keys off, which doctor reports) is upgraded all
     * the same.
     */
    @Test
    void aVersionThatRebuildsNoTableDoesNotCheckEveryReference() throws Exception {
        assertThat(Migrations.rebuildsTable(SqlScript.statements(script("V11__audit_filters.sql")))).isFalse();
        assertThat(Migrations.rebuildsTable(SqlScript.statements(script("V16__tallies.sql")))).isFalse();
        assertThat(Migrations.rebuildsTable(SqlScript.statements(script("V17__evidence_withdrawal.sql")))).isFalse();
        assertThat(Migrations.rebuildsTable(SqlScript.statements(script("V6__claim_editing.sql")))).as("columns added")
                .isFalse();
        assertThat(Migrations.rebuildsTable(SqlScript.statements(script("V7__resubmit.sql")))).isTrue();
        assertThat(Migrations.rebuildsTable(List.of("CREATE TABLE claim_new (claim_id INTEGER)",
                "INSERT INTO claim_new SELECT claim_id FROM claim", "DROP TABLE claim",
                "ALTER TABLE claim_new RENAME TO claim"))).isTrue();
        Path file = dir.resolve("dangling.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            schemaAt(s, 9);
            s.execute("PRAGMA user_version = 10");
            s.execute("INSERT INTO claim_status_history (claim_id, to_status, actor, at) VALUES (404, 'PAID', 'x', 0)");
        }
        try (Database db = Database.open(file)) {
            assertThat(db.schemaVersion()).isEqualTo(Migrations.latestVersion());
            int dangling = db.read(h -> h.createQuery("SELECT count(*) FROM pragma_foreign_key_check")
                    .mapTo(Integer.class).one());
            assertThat(dangling).as("left for doctor to report").isEqualTo(1);
        }
    }

    private static String script(String name) throws java.io.IOException {
        try (InputStream in = Migrations.class.getResourceAsStream("migrations/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The scripts of schema versions 1 to 9, as the build that wrote such a file had them. */
    private static final List<String> SCRIPTS = List.of("V1__schema.sql", "V2__delivery.sql", "V3__search.sql",
            "V4__worker_pause.sql", "V5__attempt_field.sql", "V6__claim_editing.sql", "V7__resubmit.sql",
            "V8__claim_numbers.sql", "V9__case_search.sql");

    /** A new file {@code name} with the schema of version 9 marked version 10, as version 10 left it on SQLite. */
    private Path atVersionTen(String name) throws Exception {
        Path file = dir.resolve(name);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            schemaAt(s, 9);
            s.execute("PRAGMA user_version = 10");
        }
        return file;
    }

    /** Gives the empty file behind {@code s} the schema at {@code version}, as a ClaimDesk of that version left it. */
    private static void schemaAt(Statement s, int version) throws Exception {
        for (String name : SCRIPTS.subList(0, version)) {
            for (String statement : SqlScript.statements(script(name))) {
                s.execute(statement);
            }
        }
        s.execute("PRAGMA user_version = " + version);
        s.execute("PRAGMA application_id = " + Migrations.APPLICATION_ID);
    }
}
