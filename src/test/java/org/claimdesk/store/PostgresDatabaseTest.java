package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;

/** A team database on a real PostgreSQL server: its schema, refusals and the audit trail the server guards. */
class PostgresDatabaseTest {

    @Test
    void anEmptyDatabaseGetsTheSchemaAtTheVersionTheFilesHave() {
        DatabaseLocation.Postgres empty = TestDatabase.newEmptyServerDatabase();
        List<String> told = new ArrayList<>();
        try (Database db = Database.open(empty, (found, version, latest) -> told.add(found + " " + version + " " + latest))) {
            // a team database's schema begins at version 8, the version that brought team mode, in one script
            assertThat(told).as("each version, from nothing").isEqualTo(java.util.stream.IntStream
                    .rangeClosed(8, Migrations.latestVersion())
                    .mapToObj(v -> "0 " + v + " " + Migrations.latestVersion()).toList());
            assertThat(db.onServer()).isTrue();
            assertThat(db.schemaVersion()).isEqualTo(Migrations.latestVersion());
            int claims = db.read(h -> h.createQuery("SELECT count(*) FROM claim").mapTo(Integer.class).one());
            assertThat(claims).isZero();
            List<String> extensions = db.read(h -> h.createQuery(
                    "SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'").mapTo(String.class).list());
            assertThat(extensions).containsExactly("pg_trgm");
        }
    }

    @Test
    void twoWorkstationsOpeningAnEmptyDatabaseAtOnceApplyTheSchemaOnce() throws Exception {
        DatabaseLocation.Postgres empty = TestDatabase.newEmptyServerDatabase();
        List<CompletableFuture<Integer>> opening = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            opening.add(CompletableFuture.supplyAsync(() -> {
                try (Database db = Database.open(empty)) {
                    return db.schemaVersion();
                }
            }));
        }
        for (CompletableFuture<Integer> f : opening) {
            assertThat(f.get()).isEqualTo(Migrations.latestVersion());
        }
        try (Database db = Database.open(empty)) {
            List<Integer> versioned = db.read(h -> h.createQuery("SELECT CAST(version AS INTEGER) FROM"
                    + " flyway_schema_history WHERE success AND version IS NOT NULL ORDER BY installed_rank")
                    .mapTo(Integer.class).list());
            int repeatable = db.read(h -> h.createQuery("SELECT count(*) FROM flyway_schema_history"
                    + " WHERE success AND version IS NULL").mapTo(Integer.class).one());
            // the team schema starts whole at version 8; every later version is applied once, in order
            assertThat(versioned).as("each version of the schema, applied once")
                    .isEqualTo(java.util.stream.IntStream.rangeClosed(8, Migrations.latestVersion()).boxed().toList());
            assertThat(repeatable).as("the change feed's triggers, applied once").isEqualTo(1);
        }
    }

    @Test
    void eachRepeatableScriptIsKnownWithTheChecksumFlywayRecordsForIt() throws Exception {
        try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(java.nio.file.Path.of(
                "src/main/resources", PostgresDatabase.MIGRATIONS.substring("classpath:".length())))) {
            assertThat(files.map(f -> f.getFileName().toString()).filter(name -> name.startsWith("R__")))
                    .containsExactlyInAnyOrderElementsOf(PostgresDatabase.REPEATABLE);
        }
        try (Database db = Database.open(TestDatabase.newEmptyServerDatabase())) {
            for (String script : PostgresDatabase.REPEATABLE) {
                int recorded = db.read(h -> h.createQuery("SELECT checksum FROM flyway_schema_history"
                        + " WHERE script = :script").bind("script", script).mapTo(Integer.class).one());
                assertThat(PostgresDatabase.flywayChecksum(script)).as(script).isEqualTo(recorded);
            }
        }
    }

    @Test
    void aCurrentDatabaseOpensAsItIsAndARepeatableScriptThatChangedIsAppliedAgain() {
        DatabaseLocation.Postgres location = TestDatabase.newEmptyServerDatabase();
        String history = "SELECT installed_rank || ' ' || coalesce(version, 'R') || ' ' || checksum"
                + " FROM flyway_schema_history ORDER BY installed_rank";
        List<String> applied;
        try (Database db = Database.open(location)) {
            applied = db.read(h -> h.createQuery(history).mapTo(String.class).list());
        }
        List<String> told = new ArrayList<>();
        SchemaProgress listening = (found, version, latest) -> told.add(found + " " + version);
        try (Database db = Database.open(location, listening)) {
            List<String> reopened = db.read(h -> h.createQuery(history).mapTo(String.class).list());
            assertThat(reopened).isEqualTo(applied);
            // as if this build's change feed script differed from the one applied by an earlier build
            db.useTransaction(h -> h.execute("UPDATE flyway_schema_history SET checksum = checksum + 1"
                    + " WHERE version IS NULL"));
        }
        try (Database db = Database.open(location, listening)) {
            List<String> now = db.read(h -> h.createQuery(history).mapTo(String.class).list());
            assertThat(now).hasSize(applied.size() + 1);
            assertThat(told).as("no schema version applied: a repeatable script is not one").isEmpty();
            assertThat(now.get(now.size() - 1)).endsWith(" R " + PostgresDatabase.flywayChecksum("R__change_feed.sql"));
        }
    }

    /**
     * An older build meets the change feed script of a newer one (another checksum): it does not put its own
     * triggers back over the newer ones, whatever role it connects as; it refuses the database untouched.
     */
    @Test
    void aChangeFeedOfANewerRevisionIsRefusedUntouched() throws java.sql.SQLException {
        DatabaseLocation.Postgres location = TestDatabase.newEmptyServerDatabase();
        int newer = PostgresDatabase.CHANGE_FEED_REVISION + 1;
        String history = "SELECT installed_rank || ' ' || coalesce(version, 'R') || ' ' || checksum"
                + " FROM flyway_schema_history ORDER BY installed_rank";
        String comment = "SELECT obj_description('claimdesk_changed()'::regprocedure, 'pg_proc')";
        List<String> before;
        try (Database db = Database.open(location)) {
            String recorded = db.read(h -> h.createQuery(comment).mapTo(String.class).one());
            assertThat(recorded).isEqualTo("ClaimDesk change feed, revision " + PostgresDatabase.CHANGE_FEED_REVISION);
            db.useTransaction(h -> {
                h.execute("UPDATE flyway_schema_history SET checksum = checksum + 1 WHERE version IS NULL");
                h.execute("COMMENT ON FUNCTION claimdesk_changed() IS 'ClaimDesk change feed, revision " + newer + "'");
            });
            before = db.read(h -> h.createQuery(history).mapTo(String.class).list());
        }

        assertThatThrownBy(() -> Database.open(location)).hasMessageContaining("written by a newer ClaimDesk")
                .hasMessageContaining("triggers are revision " + newer).hasMessageContaining("it was not modified");

        try (Connection c = java.sql.DriverManager.getConnection(location.jdbcUrl(), location.user(), "");
             Statement s = c.createStatement()) {
            List<String> after = new ArrayList<>();
            try (ResultSet rs = s.executeQuery(history)) {
                while (rs.next()) {
                    after.add(rs.getString(1));
                }
            }
            assertThat(after).isEqualTo(before);
            try (ResultSet rs = s.executeQuery(comment)) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("ClaimDesk change feed, revision " + newer);
            }
        }
    }

    @Test
    void aDatabaseWrittenByANewerClaimDeskIsRefusedUntouched() {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();
        try (Database db = Database.open(location)) {
            db.useTransaction(h -> h.execute("""
                    INSERT INTO flyway_schema_history (installed_rank, version, description, type, script, checksum,
                        installed_by, execution_time, success)
                    VALUES (99, '99', 'later', 'SQL', 'V99__later.sql', 0, 'it', 1, true)"""));
        }
        assertThatThrownBy(() -> Database.open(location))
                .isInstanceOf(DatabaseException.class)
                .hasMessageStartingWith("the team " + location.describe() + " was written by a newer ClaimDesk")
                .hasMessageContaining("schema version 99")
                .hasMessageContaining("not modified");
    }

    @Test
    void aDatabaseHoldingOtherTablesIsRefusedUntouched() {
        DatabaseLocation.Postgres other = TestDatabase.newEmptyServerDatabase();
        try (Database db = Database.open(other)) {
            db.useTransaction(h -> {
                h.execute("DROP TABLE flyway_schema_history");
                h.execute("CREATE TABLE payroll (id int)");
            });
        }
        assertThatThrownBy(() -> Database.open(other))
                .isInstanceOf(DatabaseException.class)
                .hasMessageContaining("not a ClaimDesk database").hasMessageContaining("not modified");
    }

    @Test
    void aMissingDatabaseOrServerIsOneSentenceNamingIt() {
        DatabaseLocation.Postgres some = TestDatabase.newServerDatabase();
        DatabaseLocation.Postgres missing = new DatabaseLocation.Postgres(some.host(), some.port(), "no_such_db",
                some.user(), Map.of());
        assertThatThrownBy(() -> Database.open(missing)).isInstanceOf(DatabaseException.class)
                .hasMessageContaining("has no database no_such_db");
        DatabaseLocation.Postgres nowhere = new DatabaseLocation.Postgres("127.0.0.1", 1, "claims", "kim", Map.of());
        assertThatThrownBy(() -> Database.open(nowhere)).isInstanceOf(DatabaseException.class)
                .hasMessageContaining("cannot reach").hasMessageContaining("127.0.0.1:1");
    }

    /** A role the server does not know is not a password problem: the server's reason is in the sentence. */
    @Test
    void aRoleTheServerRefusesIsNamedWithTheServersReasonNotAPasswordHint() {
        DatabaseLocation.Postgres some = TestDatabase.newServerDatabase();
        DatabaseLocation.Postgres stranger = new DatabaseLocation.Postgres(some.host(), some.port(), some.database(),
                "no_such_role", Map.of());
        assertThatThrownBy(() -> Database.open(stranger)).isInstanceOf(DatabaseException.class)
                .hasMessageContaining("refused the login of no_such_role")
                .hasMessageContaining("\"no_such_role\" does not exist")
                .hasMessageContaining("pg_hba.conf").hasMessageNotContaining("PGPASSWORD");
    }

    /** TLS asked of a server that offers none is not a password problem either: the driver's reason is named. */
    @Test
    void tlsRequiredOfAServerWithoutItIsNamedAsSuchNotAPasswordHint() {
        DatabaseLocation.Postgres some = TestDatabase.newServerDatabase();
        DatabaseLocation.Postgres tls = new DatabaseLocation.Postgres(some.host(), some.port(), some.database(),
                some.user(), Map.of("sslmode", "require"));
        assertThatThrownBy(() -> Database.open(tls)).isInstanceOf(DatabaseException.class)
                .hasMessageContaining("rejected the connection (The server does not support SSL.)")
                .hasMessageContaining("sslmode").hasMessageNotContaining("PGPASSWORD");
    }

    @Test
    void aStaffRoleOpeningADatabaseThatNeedsAnUpgradeIsToldTheOwnerDoesItAndChangesNothing() {
        DatabaseLocation.Postgres owned = TestDatabase.newServerDatabase();
        String staff = "staff_" + owned.database();
        try (Database db = Database.open(owned)) {
            TestDatabase.staffRole(db, staff);
            db.useTransaction(h -> {
                h.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
                // as if this build's live-update triggers were new to the database: an upgrade is due
                h.execute("DELETE FROM flyway_schema_history WHERE version IS NULL");
            });
        }
        DatabaseLocation.Postgres asStaff = TestDatabase.as(owned, staff);

        assertThatThrownBy(() -> Database.open(asStaff)).isInstanceOf(DatabaseException.class)
                .hasMessageContaining("needs its schema brought up to date by its owner")
                .hasMessageContaining("doctor").hasMessageContaining("not modified");

        try (Database db = Database.open(owned)) {
            assertThat(db.schemaVersion()).isEqualTo(Migrations.latestVersion());
        }
        try (Database db = Database.open(asStaff)) {
            int claims = db.read(h -> h.createQuery("SELECT count(*) FROM claim").mapTo(Integer.class).one());
            assertThat(claims).isZero();
        }
    }

    @Test
    void theAuditTrailIsAppendOnlyInTheDatabaseItself() {
        try (Database db = Database.open(TestDatabase.newServerDatabase())) {
            AuditStore audit = new AuditStore();
            db.useTransaction(h -> audit.append(h, Instant.EPOCH, "kim", "claim.advance", "claim", "1", "why", "{}"));
            for (String change : List.of("UPDATE audit_log SET actor = 'mallory'", "DELETE FROM audit_log",
                    "TRUNCATE audit_log")) {
                assertThatThrownBy(() -> db.useTransaction(h -> h.execute(change))).as(change)
                        .hasStackTraceContaining("append-only");
            }
            List<String> actors = db.read(h -> h.createQuery("SELECT actor FROM audit_log").mapTo(String.class).list());
            assertThat(actors).containsExactly("kim");
        }
    }

    @Test
    void aWorkstationsStatementsRunWithoutParallelWorkers() {
        try (Database db = Database.open(TestDatabase.newServerDatabase())) {
            String workers = db.read(h -> h.createQuery("SHOW max_parallel_workers_per_gather").mapTo(String.class).one());
            assertThat(workers).isEqualTo("0");
            String server = db.read(h -> h.createQuery("SELECT boot_val FROM pg_settings"
                    + " WHERE name = 'max_parallel_workers_per_gather'").mapTo(String.class).one());
            assertThat(server).as("the server's own setting").isNotEqualTo("0");
        }
    }

    /**
     * The server ends the session of a workstation gone in the middle of a transaction (asleep, cut off) within about
     * two minutes, or one idle inside a transaction for five, so the locks it held do not stop the office's writes
     * for hours; a move's own long transaction is exempt.
     */
    @Test
    void aWorkstationGoneMidTransactionHasItsSessionEndedByTheServerSoonNotInHours() {
        try (Database db = Database.open(TestDatabase.newServerDatabase())) {
            java.util.function.Function<String, String> show = name -> db.read(h -> h.createQuery("SHOW " + name)
                    .mapTo(String.class).one());
            assertThat(show.apply("tcp_keepalives_idle")).isEqualTo("60");
            assertThat(show.apply("tcp_keepalives_interval")).isEqualTo("10");
            assertThat(show.apply("tcp_keepalives_count")).isEqualTo("6");
            assertThat(show.apply("idle_in_transaction_session_timeout")).isEqualTo("5min");
            String inMove = db.inTransaction(h -> {
                DatabaseMove.keepOthersOut(h);
                return h.createQuery("SHOW idle_in_transaction_session_timeout").mapTo(String.class).one();
            });
            assertThat(inMove).isEqualTo("0");
            assertThat(show.apply("idle_in_transaction_session_timeout")).as("after the move's transaction")
                    .isEqualTo("5min");
        }
    }

    /** The live updates' listening connection, held as long as the console runs, has the same keepalives. */
    @Test
    void theListeningConnectionOfAWorkstationGoneLeavesTheServerSoonToo() throws Exception {
        DatabaseLocation.Postgres server = TestDatabase.newServerDatabase();
        try (java.sql.Connection listening = PostgresDatabase.connect(server, "ClaimDesk live updates",
                PostgresChangeFeed.properties(10)); java.sql.Statement s = listening.createStatement()) {
            for (String[] setting : new String[][] {{"tcp_keepalives_idle", "60"}, {"tcp_keepalives_interval", "10"},
                    {"tcp_keepalives_count", "6"}}) {
                try (java.sql.ResultSet rs = s.executeQuery("SHOW " + setting[0])) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).as(setting[0]).isEqualTo(setting[1]);
                }
            }
        }
    }

    /** The server's detail of a refused row ("Failing row contains …", a tax id among it) stays out of messages. */
    @Test
    void aRefusedRowsValuesAreNotInTheMessage() {
        try (Database db = Database.open(TestDatabase.newServerDatabase())) {
            long id = org.claimdesk.testing.TestClaims.insert(db, org.claimdesk.domain.ClaimStatus.EVIDENCE_PENDING);
            String taxId = db.read(h -> h.createQuery("SELECT tax_id FROM claim WHERE claim_id = :id").bind("id", id)
                    .mapTo(String.class).one());

            Throwable refused = org.assertj.core.api.Assertions.catchThrowable(() -> db.useTransaction(
                    h -> h.execute("UPDATE claim SET amount_cents = -1 WHERE claim_id = ?", id)));

            assertThat(refused).hasStackTraceContaining("violates check constraint");
            for (Throwable t = refused; t != null; t = t.getCause()) {
                assertThat(String.valueOf(t.getMessage())).as(t.getClass().getName()).doesNotContain(taxId)
                        .doesNotContain("Failing row");
            }
        }
    }

    @Test
    void aVersionNineDatabaseIsUpgradedAndFindsItsClaimsThroughOneSearchIndex() {
        DatabaseLocation.Postgres location = OlderTeamDatabases.at("9", """
                    INSERT INTO claim (claim_number, jurisdiction, state_property_id, holder_name, property_type,
                        claim_type, claimant_name, tax_id, amount_cents, status, state_case_id, filed_on, created_at,
                        updated_at)
                    VALUES ('UPC-2026-054321', 'CA', 'CA-PROP-77810', 'Acme Bank', 'AC01', 'OWNER',
                        'Ngozi Okafor', '123-45-6789', 125000, 'SUBMITTED_TO_STATE', 'CASE-ÅSA-9', '2026-01-05', 0, 0)""");

        try (Database db = Database.open(location)) {
            assertThat(db.schemaVersion()).isEqualTo(Migrations.latestVersion());
            List<String> indexes = db.read(h -> h.createQuery(
                    "SELECT indexname FROM pg_indexes WHERE tablename = 'claim' AND indexdef LIKE '%gin_trgm_ops%'")
                    .mapTo(String.class).list());
            assertThat(indexes).containsExactly("claim_search_trgm");
            ClaimStore claims = new ClaimStore();
            for (String search : new String[] {"upc-2026-054321", "054321", "OKAFOR", "prop-778", "case-åsa"}) {
                List<String> found = db.read(h -> claims.list(h, ClaimQuery.all().withSearch(search))).stream()
                        .map(org.claimdesk.domain.Claim::claimNumber).toList();
                assertThat(found).as(search).containsExactly("UPC-2026-054321");
            }
            // one field's end and the next one's start are not one text
            List<org.claimdesk.domain.Claim> across = db.read(h -> claims.list(h,
                    ClaimQuery.all().withSearch("054321 Ngozi")));
            assertThat(across).isEmpty();
        }
    }

    /** A statement the server stops (its time limit) and a write to a server that takes none: one sentence each. */
    @Test
    void aStatementTheServerStopsAndAWriteToAStandbyAreSaidInStaffsWords() {
        DatabaseLocation.Postgres team = TestDatabase.newServerDatabase();
        try (Database db = Database.open(team)) {
            assertThatThrownBy(() -> db.read(h -> {
                h.execute("SET statement_timeout = 50");
                try {
                    return h.createQuery("SELECT pg_sleep(2)").mapTo(String.class).one();
                } finally {
                    h.execute("RESET statement_timeout");
                }
            })).isInstanceOf(DatabaseException.class).hasMessageStartingWith("the team " + team.describe()
                    + " stopped the statement before it ended (a time limit set on the server, or cancelled there)");
            assertThatThrownBy(() -> db.useTransaction(h -> {
                h.execute("SET TRANSACTION READ ONLY");
                h.execute("DELETE FROM claim");
            })).isInstanceOf(DatabaseException.class).hasMessage("the team " + team.describe() + " takes no changes"
                    + " (a standby server, e.g. after a failover); nothing was written: IT points ClaimDesk at the"
                    + " primary server");
        }
    }

    /**
     * A move's look at a team database before opening it waits for a table another session holds locked (an upgrade
     * under way) only as long as the pool's statements would, then says so in one sentence: it does not hang.
     */
    @Test
    void aMovesCheckOfALockedTableEndsInOneSentenceInsteadOfWaiting() throws Exception {
        DatabaseLocation.Postgres team = TestDatabase.newServerDatabase();
        try (Connection upgrading = java.sql.DriverManager.getConnection(team.jdbcUrl(), team.user(), "")) {
            upgrading.setAutoCommit(false);
            try (Statement s = upgrading.createStatement()) {
                s.execute("LOCK TABLE claim IN ACCESS EXCLUSIVE MODE");
            }
            assertTimeoutPreemptively(Duration.ofSeconds(5), () ->
                    assertThatThrownBy(() -> DatabaseMove.isEmpty(team, "-c lock_timeout=200"))
                            .isInstanceOf(DatabaseException.class)
                            .hasMessage("the team " + team.describe() + ": another workstation holds what this needs;"
                                    + " try again"));
            upgrading.rollback();
        }
    }

    @Test
    void aVersionTenDatabaseGainsAnIndexForEachAuditFilterAndKeepsItsEntries() {
        DatabaseLocation.Postgres location = OlderTeamDatabases.at("10", AuditStoreTest.ENTRIES_BEFORE_THE_UPGRADE);

        List<String> told = new ArrayList<>();
        try (Database db = Database.open(location, (found, version, latest) -> told.add(found + " " + version + " " + latest))) {
            assertThat(told).as("each version Flyway applied, told before it ran").containsExactly("10 11 22", "10 12 22", "10 13 22", "10 14 22", "10 15 22",
                    "10 16 22", "10 17 22", "10 18 22", "10 19 22", "10 20 22", "10 21 22", "10 22 22");
            assertThat(db.schemaVersion()).isEqualTo(Migrations.latestVersion());
            List<String> indexes = db.read(h -> h.createQuery("SELECT indexdef FROM pg_indexes"
                    + " WHERE tablename = 'audit_log' AND indexname <> 'audit_log_pkey' ORDER BY indexname")
                    .mapTo(String.class).list());
            assertThat(indexes).hasSize(3).satisfiesExactly(
                    action -> assertThat(action).contains("audit_action_idx").endsWith("(action, audit_id)"),
                    actor -> assertThat(actor).contains("audit_actor_idx").endsWith("(actor, audit_id)"),
                    subject -> assertThat(subject).contains("audit_subject_idx").endsWith("(subject_id, audit_id)"));
            AuditStoreTest.assertFoundAfterTheUpgrade(db);
        }
    }
}
