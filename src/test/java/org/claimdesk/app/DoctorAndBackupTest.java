package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.Database;
import org.claimdesk.testing.Sql;
import org.claimdesk.testing.TestClaims;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DoctorAndBackupTest {
    @TempDir
    Path dir;

    @Test
    void aHealthyDatabasePassesEveryCheck() {
        try (Database db = Database.open(dir.resolve("ok.db"))) {
            long id = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
            new Workflow(db, Clock.systemUTC(), Deadlines.statutory()).submit(id, "kim", null);

            Doctor.Report report = new Doctor(db, Clock.systemUTC(), Duration.ofHours(24)).examine();

            assertThat(report.healthy()).isTrue();
            assertThat(report.findings()).allSatisfy(f -> assertThat(f.level()).isEqualTo(Doctor.Level.OK));
        }
    }

    @Test
    void doctorReportsOrphansExpiredLeasesStuckRowsAndInconsistentClaims() {
        Instant now = Instant.parse("2026-11-02T12:00:00Z");
        try (Database db = Database.open(dir.resolve("sick.db"))) {
            long id = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
            new Workflow(db, Clock.fixed(now.minus(Duration.ofDays(3)), ZoneOffset.UTC), Deadlines.statutory())
                    .submit(id, "kim", "key-stuck");
            TestClaims.insert(db, ClaimStatus.SUBMITTING);
            db.useTransaction(h -> {
                h.execute("UPDATE outbox_event SET lease_owner = 'worker-gone', lease_expires_at = ?",
                        now.minusSeconds(60).toEpochMilli());
                h.execute("PRAGMA foreign_keys = OFF");
            });
            db.read(h -> {
                h.execute("PRAGMA foreign_keys = OFF");
                h.execute("INSERT INTO delivery_attempt (outbox_event_id, attempt_no, started_at, duration_ms, outcome)"
                        + " VALUES (999, 1, 0, 1, 'TRANSIENT')");
                h.execute("PRAGMA foreign_keys = ON");
                return null;
            });

            Doctor.Report report = new Doctor(db, Clock.fixed(now, ZoneOffset.UTC), Duration.ofHours(24)).examine();

            assertThat(report.healthy()).isFalse();
            assertThat(report.findings()).anySatisfy(f -> {
                assertThat(f.check()).isEqualTo("orphans");
                assertThat(f.level()).isEqualTo(Doctor.Level.FAIL);
                assertThat(f.message()).contains("delivery_attempt");
            });
            assertThat(report.findings()).anySatisfy(f -> {
                assertThat(f.check()).isEqualTo("leases");
                assertThat(f.message()).startsWith("1 pending row(s) hold an expired lease");
            });
            assertThat(report.findings()).anySatisfy(f -> {
                assertThat(f.check()).isEqualTo("stuck");
                assertThat(f.message()).startsWith("1 row(s) pending for more than 24 h");
            });
            assertThat(report.findings()).anySatisfy(f -> {
                assertThat(f.check()).isEqualTo("workflow");
                assertThat(f.message()).startsWith("1 SUBMITTING claim(s) have no pending or failed outbox row");
            });
        }
    }

    @Test
    void backupIsConsistentAndPrivateWhileWritesGoOn() throws Exception {
        try (Database db = Database.open(dir.resolve("live.db"))) {
            new DemoData(db, java.time.LocalDate.of(2026, 11, 2), Deadlines.statutory()).generate(3_000, 3, n -> { });
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicInteger written = new AtomicInteger();
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                while (writing.get()) {
                    TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
                    written.incrementAndGet();
                }
            });
            org.awaitility.Awaitility.await().until(() -> written.get() > 5);

            Backup.Result result = new Backup(db).to(dir.resolve("copy.db"));

            writing.set(false);
            writer.get();
            assertThat(result.claims()).isGreaterThanOrEqualTo(3_005);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(result.file()))).isEqualTo("rw-------");
            try (Database copy = Database.open(result.file())) {
                assertThat(new Doctor(copy, Clock.systemUTC(), Duration.ofDays(3650)).examine().findings())
                        .filteredOn(f -> !f.check().equals("stuck") && !f.check().equals("leases"))
                        .allSatisfy(f -> assertThat(f.level()).isEqualTo(Doctor.Level.OK));
                assertThat(Sql.count(copy, "claim"))
                        .isEqualTo(result.claims());
            }
        }
    }

    @Test
    void backupRefusesToOverwrite() throws Exception {
        try (Database db = Database.open(dir.resolve("db.db"))) {
            Path existing = Files.writeString(dir.resolve("exists.db"), "keep me");
            assertThatThrownBy(() -> new Backup(db).to(existing)).hasMessageContaining("already exists");
            assertThat(Files.readString(existing)).isEqualTo("keep me");
            assertThatThrownBy(() -> new Backup(db).to(dir.resolve("no/such/folder/x.db")))
                    .hasMessageContaining("does not exist");
        }
    }
}
