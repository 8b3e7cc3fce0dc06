package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.PropertyType;
import org.claimdesk.domain.StatusChange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bulk load on a desk's file: the indexes it sets aside while it writes, and what it leaves behind. */
class BulkLoaderTest {
    private static final String SCHEMA = "SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master"
            + " ORDER BY type, name";
    private static final String PROPERTY_PLAN = "EXPLAIN QUERY PLAN SELECT claim_id FROM claim"
            + " WHERE state_property_id = 'P-000777'";

    @TempDir
    Path dir;

    private final ClaimStore claims = new ClaimStore();

    @Test
    void aFinishedLoadLeavesTheSchemaAsItWasWithEveryRowInItsIndexes() {
        try (Database db = Database.open(dir.resolve("loaded.db"))) {
            List<String> schema = strings(db, SCHEMA);
            try (BulkLoader loader = BulkLoader.open(db)) {
                for (int id = 1; id <= 3_000; id++) {
                    add(loader, id);
                    if (id % 1_000 == 0) {
                        loader.flush();
                    }
                }
                loader.finish();
            }
            assertThat(strings(db, SCHEMA)).isEqualTo(schema);
            // integrity_check compares every index with its table: a built index lacking a row fails it
            assertThat(strings(db, "PRAGMA integrity_check"))
                    .containsExactly("ok");
            db.useTransaction(h -> {
                h.execute("INSERT INTO claim_search (claim_search) VALUES ('integrity-check')");
                h.execute("INSERT INTO claim_case_search (claim_case_search) VALUES ('integrity-check')");
            });
            assertThat(plan(db)).contains("claim_property_idx");
            assertThat(strings(db, "SELECT claim_id FROM claim WHERE state_property_id = 'P-000777'"))
                    .containsExactly("777");
            assertThat(strings(db, "SELECT count(*) FROM audit_log WHERE subject_type = 'claim' AND subject_id = '2345'"))
                    .containsExactly("1");
            assertThat(found(db, "Claimant 02999")).isEqualTo(1);
            assertThat(found(db, "CA-2026-9001500")).isEqualTo(1);
            // the search indexes gathered the loaded claims' terms in more memory, and are back to SQLite's own size
            assertThat(strings(db, "SELECT v FROM claim_search_config WHERE k = 'hashsize'"))
                    .containsExactly(Integer.toString(SearchIndex.DEFAULT_HASH_BYTES));
            assertThat(strings(db, "SELECT v FROM claim_case_search_config WHERE k = 'hashsize'"))
                    .containsExactly(Integer.toString(SearchIndex.DEFAULT_HASH_BYTES));
        }
    }

    @Test
    void aBatchThatCannotBeWrittenFailsTheLoadWhichThenLeavesNothing() {
        try (Database db = Database.open(dir.resolve("refused.db"))) {
            List<String> schema = strings(db, SCHEMA);
            try (BulkLoader loader = BulkLoader.open(db)) {
                for (int id = 1; id <= 500; id++) {
                    add(loader, id);
                }
                loader.flush();
                add(loader, 501);
                add(loader, 501);
                // the batch is written behind the caller: its failure comes out of the next flush or the finish
                assertThatThrownBy(() -> {
                    loader.flush();
                    loader.finish();
                }).isInstanceOf(DatabaseException.class).hasMessageContaining("UNIQUE");
                // part of that batch may be written: the load cannot go on to a commit
                assertThatThrownBy(loader::finish).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("can only be closed");
            }
            assertThat(strings(db, SCHEMA)).isEqualTo(schema);
            assertThat(strings(db, "SELECT count(*) FROM claim")).containsExactly("0");
            assertThat(strings(db, "SELECT count(*) FROM claim_status_history")).containsExactly("0");
            assertThat(strings(db, "PRAGMA integrity_check")).containsExactly("ok");
        }
    }

    @Test
    void aLoadLeftUnfinishedLeavesNothingAndOthersReadThroughTheIndexesMeanwhile() {
        try (Database db = Database.open(dir.resolve("unfinished.db"))) {
            List<String> schema = strings(db, SCHEMA);
            try (BulkLoader loader = BulkLoader.open(db)) {
                for (int id = 1; id <= 1_000; id++) {
                    add(loader, id);
                }
                loader.flush();
                assertThat(strings(db, SCHEMA))
                        .as("another connection sees the committed schema").isEqualTo(schema);
                assertThat(plan(db)).contains("claim_property_idx");
            }
            assertThat(strings(db, SCHEMA)).isEqualTo(schema);
            assertThat(strings(db, "SELECT count(*) FROM claim")).containsExactly("0");
            assertThat(strings(db, "SELECT count(*) FROM audit_log")).containsExactly("0");
            // the search triggers are back: a claim written afterwards is found
            db.useTransaction(h -> claims.insert(h, new NewClaim("UPC-2026-000001", "CA", "P-1", "Holder", null,
                    PropertyType.AC01, ClaimType.OWNER, "Later Claimant", "123-00-4567", 1_000,
                    ClaimStatus.IDENTITY_PENDING, null, LocalDate.of(2026, 3, 1), null), Instant.EPOCH));
            assertThat(found(db, "Later Claim")).isEqualTo(1);
            assertThat(strings(db, "PRAGMA integrity_check"))
                    .containsExactly("ok");
        }
    }

    @Test
    void theIndexesSetAsideAreTheSecondaryOnesOfTheTablesNamedAndComeBackAsTheSchemaDefinesThem() {
        try (Database db = Database.open(dir.resolve("deferred.db"))) {
            List<String> schema = strings(db, SCHEMA);
            db.useTransaction(h -> {
                DeferredIndexes deferred = DeferredIndexes.setAside(h, List.of("claim", "audit_log"));
                assertThat(deferred.names()).contains("claim_property_idx", "claim_claimant_idx", "audit_subject_idx")
                        .noneMatch(name -> name.startsWith("sqlite_autoindex") || name.startsWith("outbox"));
                assertThat(h.createQuery("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'claim'"
                        + " AND sql IS NOT NULL").mapTo(Integer.class).one()).isZero();
                deferred.build();
            });
            assertThat(strings(db, SCHEMA)).isEqualTo(schema);
        }
    }

    @Test
    void aSoleLoadOfAFileNobodyElseHasGoesThroughARollbackJournalAndLeavesTheFileInTheLog() throws Exception {
        Path file = dir.resolve("sole.db");
        try (Database db = Database.open(file)) {
            List<String> schema = strings(db, SCHEMA);
            CompletableFuture<String> waiting;
            try (BulkLoader loader = BulkLoader.open(db, BulkLoader.Access.SOLE)) {
                assertThat(loader.throughRollbackJournal()).isTrue();
                for (int id = 1; id <= 2_000; id++) {
                    add(loader, id);
                    if (id % 1_000 == 0) {
                        loader.flush();
                    }
                }
                // this process's other callers wait for the load: the pool lends no connection meanwhile
                assertThat(db.lendsConnections()).isFalse();
                waiting = CompletableFuture.supplyAsync(() -> strings(db, "SELECT count(*) FROM claim").get(0));
                CompletableFuture<String> read = waiting;
                assertThatThrownBy(() -> read.get(300, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
                assertThat(Files.exists(dir.resolve("sole.db-journal"))).as("the rollback journal").isTrue();
                loader.finish();
                assertThat(waiting).isNotDone();
            }
            assertThat(waiting.get(30, TimeUnit.SECONDS)).as("read once the loader is closed").isEqualTo("2000");
            assertThat(db.lendsConnections()).isTrue();
            assertThat(strings(db, "PRAGMA journal_mode")).containsExactly("wal");
            assertThat(strings(db, SCHEMA)).isEqualTo(schema);
            assertThat(strings(db, "PRAGMA integrity_check")).containsExactly("ok");
            assertThat(strings(db, "SELECT count(*) FROM audit_log")).containsExactly("2000");
            assertThat(found(db, "Claimant 01999")).isEqualTo(1);
        }
        try (Database again = Database.open(file)) {
            assertThat(strings(again, "PRAGMA journal_mode")).containsExactly("wal");
            assertThat(strings(again, "SELECT count(*) FROM claim")).containsExactly("2000");
        }
    }

    @Test
    void aSecondSoleLoadOfOneDatabaseAtOnceIsRefusedAndTheFirstGoesOn() {
        try (Database db = Database.open(dir.resolve("twice.db"))) {
            try (BulkLoader loader = BulkLoader.open(db, BulkLoader.Access.SOLE)) {
                assertThatThrownBy(() -> BulkLoader.open(db, BulkLoader.Access.SOLE)).isInstanceOf(DatabaseException.class)
                        .hasMessageContaining("another load has the database");
                assertThat(db.lendsConnections()).isFalse();
                add(loader, 1);
                loader.finish();
            }
            assertThat(strings(db, "SELECT count(*) FROM claim")).containsExactly("1");
        }
    }

    @Test
    void aFinishedLoadIsNotFinishedAgainAndLeavesNoTemporaryFileBesideTheDatabase() throws Exception {
        try (Database db = Database.open(dir.resolve("once.db"))) {
            BulkLoader loader = BulkLoader.open(db, BulkLoader.Access.SOLE);
            try {
                for (int id = 1; id <= 100; id++) {
                    add(loader, id);
                }
                assertThat(loader.finish()).isEqualTo(100);
                assertThatThrownBy(loader::finish).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("can only be closed");
                assertThatThrownBy(loader::flush).isInstanceOf(IllegalStateException.class);
            } finally {
                loader.close();
            }
            loader.close();
            assertThat(db.lendsConnections()).isTrue();
            assertThat(strings(db, "SELECT count(*) FROM audit_log")).containsExactly("100");
            try (java.util.stream.Stream<Path> files = Files.list(dir)) {
                assertThat(files.map(f -> f.getFileName().toString()))
                        .allMatch(name -> name.startsWith("once.db"), "the database's own files");
            }
        }
    }

    @Test
    void aSoleLoadLeftUnfinishedLeavesNothingAndTheFileInTheLog() {
        try (Database db = Database.open(dir.resolve("sole-unfinished.db"))) {
            List<String> schema = strings(db, SCHEMA);
            try (BulkLoader loader = BulkLoader.open(db, BulkLoader.Access.SOLE)) {
                assertThat(loader.throughRollbackJournal()).isTrue();
                for (int id = 1; id <= 1_000; id++) {
                    add(loader, id);
                }
                loader.flush();
            }
            assertThat(strings(db, "PRAGMA journal_mode")).containsExactly("wal");
            assertThat(strings(db, SCHEMA)).isEqualTo(schema);
            assertThat(strings(db, "SELECT count(*) FROM claim")).containsExactly("0");
            assertThat(strings(db, "PRAGMA integrity_check")).containsExactly("ok");
        }
    }

    @Test
    void aSoleLoadOfAFileOpenElsewhereStaysInTheLogAndOthersReadMeanwhile() {
        Path file = dir.resolve("shared.db");
        try (Database db = Database.open(file); Database elsewhere = Database.open(file)) {
            assertThat(strings(elsewhere, "SELECT count(*) FROM claim")).containsExactly("0");
            try (BulkLoader loader = BulkLoader.open(db, BulkLoader.Access.SOLE)) {
                assertThat(loader.throughRollbackJournal()).isFalse();
                for (int id = 1; id <= 1_000; id++) {
                    add(loader, id);
                }
                loader.flush();
                assertThat(strings(elsewhere, "SELECT count(*) FROM claim")).as("the committed database")
                        .containsExactly("0");
                loader.finish();
            }
            assertThat(strings(elsewhere, "SELECT count(*) FROM claim")).containsExactly("1000");
            assertThat(strings(db, "PRAGMA journal_mode")).containsExactly("wal");
            assertThat(strings(db, "PRAGMA integrity_check")).containsExactly("ok");
        }
    }

    private static String plan(Database db) {
        List<String> details = db.read(h -> h.createQuery(PROPERTY_PLAN).map((rs, ctx) -> rs.getString("detail")).list());
        return String.join("\n", details);
    }

    private static List<String> strings(Database db, String sql) {
        return db.read(h -> h.createQuery(sql).mapTo(String.class).list());
    }

    private int found(Database db, String search) {
        int count = db.read(h -> claims.count(h, ClaimQuery.all().withSearch(search)));
        return count;
    }

    private static void add(BulkLoader loader, long id) {
        Instant at = Instant.parse("2026-03-01T10:00:00Z").plusSeconds(id);
        String caseId = id % 2 == 0 ? "CA-2026-" + (9_000_000 + id) : null;
        loader.claim(new Claim(id, String.format("UPC-2026-%06d", id), "CA", String.format("P-%06d", id), "Holder",
                null, PropertyType.AC01, ClaimType.OWNER, String.format("Claimant %05d", id), "123-00-4567", 1_000,
                caseId == null ? ClaimStatus.IDENTITY_PENDING : ClaimStatus.SUBMITTED_TO_STATE, caseId,
                LocalDate.of(2026, 3, 1), null, 0, at, at));
        loader.statusChange(new StatusChange(id, null, ClaimStatus.IDENTITY_PENDING, "intake", null, at));
        // added out of time order: the loader numbers them by time
        loader.auditEntry(new AuditEntry(0, at.minusSeconds(id * 2), "m.alvarez", "claim.advance", "claim",
                Long.toString(id), null, null));
    }
}
