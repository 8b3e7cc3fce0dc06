package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.concurrent.TimeUnit;
import org.claimdesk.app.Queries;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.PropertyType;
import org.claimdesk.testing.LockHolder;
import org.claimdesk.testing.Sql;
import org.claimdesk.testing.TestClaims;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What staff see when the database file is damaged, full or held by another program. */
class DatabaseFailuresTest {
    @TempDir
    Path dir;

    /**
     * The file moved (or deleted, or replaced) under an open database: every read and write after it is refused with
     * what happened and what to do, and no new, empty file is made where it was.
     */
    @Test
    void aFileMovedOrDeletedUnderTheOpenDatabaseStopsItsWorkAndMakesNoNewFile() throws Exception {
        for (String how : new String[] {"moved", "deleted", "replaced"}) {
            Path file = dir.resolve(how + ".db");
            try (Database db = Database.open(file)) {
                assertThat(Sql.count(db, "claim")).isZero();
                switch (how) {
                    case "moved" -> java.nio.file.Files.move(file, dir.resolve(how + "-elsewhere.db"));
                    case "deleted" -> java.nio.file.Files.delete(file);
                    default -> {
                        Path other = dir.resolve("other.db");
                        Database.open(other).close();
                        java.nio.file.Files.move(other, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    }
                }
                String said = "the database file " + file + " was moved, replaced or deleted while ClaimDesk had it"
                        + " open; nothing more is written: close ClaimDesk, put the file back where it was (with its"
                        + " -wal and -shm files) and start ClaimDesk again";
                assertThatThrownBy(() -> Sql.count(db, "claim")).as(how).isInstanceOf(DatabaseException.class)
                        .hasMessage(said);
                assertThatThrownBy(() -> db.useTransaction(h -> h.execute("DELETE FROM claim"))).as(how)
                        .hasMessage(said);
                assertThatThrownBy(() -> db.snapshot(h -> 1)).as(how).hasMessage(said);
                if (!how.equals("replaced")) {
                    // a connection opened now (as the pool opens one, past the check) makes no new, empty file
                    assertThatThrownBy(() -> db.unpooledHandle().close()).as(how).isInstanceOf(RuntimeException.class);
                    assertThat(file).as(how + ": no new file where it was").doesNotExist();
                }
            }
        }
    }

    @Test
    void aTruncatedDatabaseIsReportedAsDamaged() throws Exception {
        Path file = dir.resolve("truncated.db");
        try (Database db = Database.open(file)) {
            for (int i = 0; i < 300; i++) {
                TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
            }
            db.read(h -> h.execute("PRAGMA wal_checkpoint(TRUNCATE)"));
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(raf.length() / 2);
        }

        assertThatThrownBy(() -> {
            try (Database db = Database.open(file)) {
                new Queries(db, java.time.Clock.systemUTC()).claims(ClaimQuery.all());
            }
        }).isInstanceOf(DatabaseException.class).hasMessageContaining("damaged or truncated")
                .hasMessageContaining("backup");
    }

    @Test
    void aFullDiskFailsTheWriteWithAClearMessageAndKeepsTheData() {
        try (Database db = Database.open(dir.resolve("full.db"))) {
            TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
            ClaimStore claims = new ClaimStore();

            assertThatThrownBy(() -> db.useTransaction(h -> {
                int pages = h.createQuery("PRAGMA page_count").mapTo(Integer.class).one();
                h.execute("PRAGMA max_page_count = " + pages);
                for (int i = 0; i < 5_000; i++) {
                    claims.insert(h, new NewClaim("UPC-FULL-" + i, "CA", "1234567", "Holder ".repeat(40), null,
                            PropertyType.AC01, ClaimType.OWNER, "Name ".repeat(40), "123-00-4567", 100,
                            ClaimStatus.IDENTITY_PENDING, null, LocalDate.of(2026, 1, 1), null), Instant.now());
                }
            })).isInstanceOf(DatabaseException.class).hasMessageContaining("is full")
                    .hasMessageContaining("nothing was written");

            assertThat(Sql.count(db, "claim"))
                    .isEqualTo(1);
        }
    }

    /**
     * A failure that can pass with time (work tried again later may go through) against one that refuses the work
     * itself: a constraint broken, a damaged file, a refused login, or what is not the database's at all.
     */
    @Test
    void onlyFailuresThatCanPassWithTimeAreSaidToPass() {
        try (Database db = Database.open(dir.resolve("pass.db"))) {
            TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
            assertThatThrownBy(() -> db.useTransaction(h -> h.execute(
                    "INSERT INTO claim SELECT * FROM claim")))
                    .satisfies(broken -> assertThat(db.mayPass(broken)).as("a constraint broken").isFalse());
            assertThat(db.mayPass(new org.jdbi.v3.core.transaction.TransactionException("x",
                    new org.sqlite.SQLiteException("busy", org.sqlite.SQLiteErrorCode.SQLITE_BUSY)))).isTrue();
            assertThat(db.mayPass(new org.jdbi.v3.core.transaction.TransactionException("x",
                    new org.sqlite.SQLiteException("damaged", org.sqlite.SQLiteErrorCode.SQLITE_CORRUPT)))).isFalse();
            assertThat(db.mayPass(new java.sql.SQLTransientConnectionException("no connection in time"))).isTrue();
            assertThat(db.mayPass(new IllegalStateException("a defect"))).isFalse();
        }
        for (String state : new String[] {"08006", "08001", "57P01", "57P03", "53300", "40001", "40P01", "55P03"}) {
            assertThat(PostgresDatabase.mayPass(new java.sql.SQLException("server", state))).as(state).isTrue();
        }
        for (String state : new String[] {"08004", "28P01", "23505", "42501", "53100", "22021"}) {
            assertThat(PostgresDatabase.mayPass(new java.sql.SQLException("server", state))).as(state).isFalse();
        }
    }

    @Test
    void aDatabaseLockedByAnotherProcessMakesWritesWaitThenFailClearlyWhileReadsGoOn() throws Exception {
        Path file = dir.resolve("locked.db");
        long id;
        try (Database db = Database.open(file)) {
            id = TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
        }
        Process holder = LockHolder.hold(file, 30);
        try (Database db = Database.open(file, 300)) {
            // Reads go on under WAL while the other process holds the write lock.
            assertThat(new Queries(db, java.time.Clock.systemUTC()).claim(id)).isPresent();

            long started = System.nanoTime();
            assertThatThrownBy(() -> db.useTransaction(h -> h.execute("UPDATE claim SET version = version + 1")))
                    .isInstanceOf(DatabaseException.class)
                    .hasMessageContaining("locked by another program")
                    .satisfies(locked -> assertThat(db.mayPass(locked)).as("a lock passes with time").isTrue());
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isGreaterThanOrEqualTo(250);

            holder.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            db.useTransaction(h -> h.execute("UPDATE claim SET version = version + 1"));
            assertThat(Sql.scalar(db, "SELECT version FROM claim", Long.class)).isEqualTo(1L);
        } finally {
            holder.destroyForcibly();
        }
    }
}
