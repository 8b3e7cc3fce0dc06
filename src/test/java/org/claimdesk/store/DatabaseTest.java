package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.testing.TestClaims;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatabaseTest {
    @TempDir
    Path dir;

    /**
     * A desk's file in a folder whose name holds what the driver or a URI gives a meaning ('?', '#', '%'): the file
     * opened, written and opened again is that one, not one the name's beginning names.
     */
    @Test
    void aFileInAFolderOfAnyNameIsTheOneOpened() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("Desk #2 why? 100%25"));
        Path file = folder.resolve("claims.db");
        try (Database db = Database.open(file)) {
            TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
        }
        try (Database db = Database.open(file)) {
            assertThat(scalar(db, "SELECT count(*) FROM claim", Integer.class)).isEqualTo(1);
            assertThat(scalar(db, "PRAGMA journal_mode", String.class)).isEqualTo("wal");
        }
        try (java.util.stream.Stream<Path> files = Files.list(folder)) {
            assertThat(files.map(p -> p.getFileName().toString())).allMatch(n -> n.startsWith("claims.db"));
        }
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            assertThat(files).containsExactly(folder);
        }
        assertThat(Database.sqliteUrl(Path.of("/mnt/backups/Desk #2 100%/claims.db")))
                .as("a plain path where the driver reads it as it is")
                .isEqualTo("jdbc:sqlite:/mnt/backups/Desk #2 100%/claims.db");
    }

    /**
     * Every connection of a desk's file cuts the write-ahead log back to 64 MiB at a checkpoint: a burst's log does not
     * stay on disk at its largest for as long as a console keeps the file open.
     */
    @Test
    void everyConnectionCutsTheLogBackAfterACheckpoint() {
        try (Database db = Database.open(dir.resolve("desk.db"))) {
            for (int i = 0; i < 3; i++) {
                long limit = db.read(h -> h.createQuery("PRAGMA journal_size_limit").mapTo(Long.class).one());
                assertThat(limit).isEqualTo(64L * 1024 * 1024);
            }
        }
    }

    @Test
    void anEmptyFileIsMigratedToTheLatestSchema() {
        Path file = dir.resolve("sub/dir/new.db");
        try (Database db = Database.open(file)) {
            assertThat(db.schemaVersion()).isEqualTo(Migrations.latestVersion());
            List<String> tables = db.read(h -> h.createQuery(
                    "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").mapTo(String.class).list());
            assertThat(tables).contains("claim", "outbox_event", "delivery_attempt", "audit_log", "claim_status_history",
                    "worker_pause");
            List<String> outboxColumns = db.read(h -> h.createQuery("SELECT name FROM pragma_table_info('outbox_event')")
                    .mapTo(String.class).list());
            assertThat(outboxColumns).contains("outbox_event_id", "aggregate_id", "event_type", "payload",
                    "delivery_state", "attempts", "last_error", "idempotency_key", "next_attempt_at", "lease_owner",
                    "lease_expires_at", "created_at", "sent_at");
            assertThat(scalar(db, "PRAGMA journal_mode", String.class)).isEqualTo("wal");
            assertThat(scalar(db, "PRAGMA foreign_keys", Integer.class)).isEqualTo(1);
            assertThat(scalar(db, "PRAGMA busy_timeout", Integer.class)).isEqualTo(Database.DEFAULT_BUSY_TIMEOUT_MS);
        }
    }

    @Test
    void aCancellableReadStopsItsStatementWhenToldAndTheConnectionServesTheNextRead() {
        String count = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000000)"
                + " SELECT count(*) FROM n";
        try (Database db = Database.open(dir.resolve("cancel.db"))) {
            assertThatThrownBy(() -> db.read(h -> h.createQuery(count).mapTo(Integer.class).one(), () -> true))
                    .isInstanceOf(java.util.concurrent.CancellationException.class);
            Integer notCancelled = db.read(h -> h.createQuery(count).mapTo(Integer.class).one(), () -> false);
            Integer plain = db.read(h -> h.createQuery(count).mapTo(Integer.class).one());
            assertThat(notCancelled).isEqualTo(1_000_000);
            assertThat(plain).isEqualTo(1_000_000);
        }
    }

    @Test
    void reopeningKeepsDataAndDoesNotMigrateAgain() {
        Path file = dir.resolve("again.db");
        try (Database db = Database.open(file)) {
            TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
        }
        try (Database db = Database.open(file)) {
            assertThat(scalar(db, "SELECT count(*) FROM claim", Integer.class)).isEqualTo(1);
            assertThat(db.schemaVersion()).isEqualTo(Migrations.latestVersion());
        }
    }

    @Test
    void aDatabaseFromANewerClaimDeskIsRefusedAndLeftUntouched() throws Exception {
        Path file = dir.resolve("newer.db");
        try (Database db = Database.open(file)) {
            TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            s.execute("PRAGMA user_version = 99");
            s.execute("PRAGMA wal_checkpoint(TRUNCATE)");
        }
        String before = sha256(file);

        assertThatThrownBy(() -> Database.open(file))
                .isInstanceOf(DatabaseException.class)
                .hasMessageContaining("newer ClaimDesk")
                .hasMessageContaining("schema version 99")
                .hasMessageContaining("not modified");

        assertThat(sha256(file)).isEqualTo(before);
    }

    @Test
    void anotherApplicationsSqliteFileIsRefused() throws Exception {
        Path file = dir.resolve("other.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE recipes (name TEXT)");
        }
        assertThatThrownBy(() -> Database.open(file)).hasMessageContaining("not a ClaimDesk one");
    }

    @Test
    void aFileThatIsNotADatabaseIsRefusedWithAClearMessage() throws Exception {
        Path file = dir.resolve("notes.db");
        Files.writeString(file, "these are my meeting notes, not a database ".repeat(100));
        String before = sha256(file);

        assertThatThrownBy(() -> Database.open(file))
                .isInstanceOf(DatabaseException.class)
                .hasMessageContaining("is not a ClaimDesk database");
        assertThat(sha256(file)).isEqualTo(before);
    }

    @Test
    void aFolderIsNotADatabase() {
        assertThatThrownBy(() -> Database.open(dir)).hasMessageContaining("is a folder");
    }

    @Test
    void theAuditLogIsAppendOnly() {
        try (Database db = Database.open(dir.resolve("audit.db"))) {
            AuditStore audit = new AuditStore();
            db.useTransaction(h -> audit.append(h, java.time.Instant.now(), "j.chen", "claim.advance", "claim", "1",
                    "why", "{}"));
            assertThatThrownBy(() -> db.useTransaction(h -> h.execute("UPDATE audit_log SET actor = 'someone else'")))
                    .hasMessageContaining("append-only");
            assertThatThrownBy(() -> db.useTransaction(h -> h.execute("DELETE FROM audit_log")))
                    .hasMessageContaining("append-only");
            List<org.claimdesk.domain.AuditEntry> entries = db.read(h -> audit.list(h, null, null, null, 0, 0));
            assertThat(entries).singleElement()
                    .satisfies(e -> assertThat(e.actor()).isEqualTo("j.chen"));
        }
    }

    @Test
    void aNewDatabaseIsOwnerOnly() throws Exception {
        Path file = dir.resolve("private/claims.db");
        try (Database db = Database.open(file)) {
            assertThat(db.schemaVersion()).isPositive();
            // its write-ahead log and shared memory too, made while the first session's claims go in
            db.useTransaction(h -> h.execute("CREATE TEMP TABLE touch (x INTEGER)"));
            TestClaims.insert(db, org.claimdesk.domain.ClaimStatus.IDENTITY_PENDING);
            for (String side : new String[] {"-wal", "-shm"}) {
                Path sideFile = file.resolveSibling(file.getFileName() + side);
                assertThat(sideFile).exists();
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(sideFile))).as(side)
                        .isEqualTo("rw-------");
            }
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent()))).isEqualTo("rwx------");
    }

    @Test
    void scriptsSplitAroundTriggerBodies() {
        List<String> statements = SqlScript.statements("""
                -- a comment
                CREATE TABLE a (x INTEGER);
                CREATE TRIGGER t BEFORE DELETE ON a
                BEGIN
                    SELECT RAISE(ABORT, 'no');
                END;
                INSERT INTO a VALUES (1);
                """);
        assertThat(statements).hasSize(3);
        assertThat(statements.get(1)).startsWith("CREATE TRIGGER").endsWith("END;");
    }

    @Test
    void searchTreatsWildcardsAndQuotesLiterally() {
        try (Database db = Database.open(dir.resolve("search.db"))) {
            long id = TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
            ClaimStore claims = new ClaimStore();
            assertThat(count(db, claims, ClaimQuery.all().withSearch("%"))).isZero();
            assertThat(count(db, claims, ClaimQuery.all().withSearch("_"))).isZero();
            assertThat(count(db, claims, ClaimQuery.all().withSearch("!"))).isZero();
            assertThat(count(db, claims, ClaimQuery.all().withSearch("' OR 1=1 --"))).isZero();
            assertThat(count(db, claims, ClaimQuery.all().withSearch("maria garcia"))).isEqualTo(1);
            List<org.claimdesk.domain.Claim> found = db.read(h -> claims.list(h, ClaimQuery.all().withSearch("UPC-T")));
            assertThat(found).extracting(c -> c.claimId()).containsExactly(id);
        }
    }

    static <T> T scalar(Database db, String sql, Class<T> type) {
        return db.read(h -> h.createQuery(sql).mapTo(type).one());
    }

    static int count(Database db, ClaimStore claims, ClaimQuery query) {
        return db.read(h -> claims.count(h, query));
    }

    static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
