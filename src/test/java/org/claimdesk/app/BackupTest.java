package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
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

/** A workstation's backup: an online copy of its file. A team database's dump is BackupCheckCliTest's. */
class BackupTest {
    @TempDir
    Path dir;

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
            assertThat(Backup.isCopy(result.file())).isTrue();
            assertThat(Backup.checkCopy(result.file())).isEqualTo(result.claims());
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
