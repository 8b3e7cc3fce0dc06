package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.util.List;
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
            assertThat(Backup.checkCopy(result.file()).claims()).isEqualTo(result.claims());
            try (Database copy = Database.open(result.file())) {
                assertThat(new Doctor(copy, Clock.systemUTC(), Duration.ofDays(3650)).examine().findings())
                        .filteredOn(f -> !f.check().equals("stuck") && !f.check().equals("leases"))
                        .allSatisfy(f -> assertThat(f.level()).isEqualTo(Doctor.Level.OK));
                assertThat(Sql.count(copy, "claim"))
                        .isEqualTo(result.claims());
            }
        }
    }

    /** A backup tells how far its copy is, to its whole size, then that it checks the copy. */
    @Test
    void aBackupTellsHowMuchIsCopiedOfAboutHowMuchThenThatTheCopyIsChecked() throws Exception {
        try (Database db = Database.open(dir.resolve("claimdesk.db"))) {
            new DemoData(db, java.time.LocalDate.of(2026, 11, 2), Deadlines.statutory()).generate(500, 3, n -> { });
            List<String> told = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
            Backup.Result result = new Backup(db).to(dir.resolve("copy.db"), new Backup.Progress() {
                @Override
                public void copied(long bytes, long aboutBytes) {
                    told.add(bytes + " of " + aboutBytes);
                }

                @Override
                public void checking() {
                    told.add("checking");
                }
            });

            // about the database's pages, as they were when the copy began (most still in its write-ahead log here)
            long about = Long.parseLong(told.get(0).substring("0 of ".length()));
            assertThat(about).isGreaterThan(result.bytes() / 2);
            assertThat(told).first().isEqualTo("0 of " + about);
            assertThat(told).last().isEqualTo("checking");
            assertThat(told.get(told.size() - 2)).as("the whole copy, before its check")
                    .isEqualTo(result.bytes() + " of " + about);
        }
    }

    /** Every tax id goes into the copy whole: who took it, and where to, is in the audit trail, the copy's as well. */
    @Test
    void aBackupIsAuditedBeforeTheCopyWhichHoldsItsEntry() throws Exception {
        try (Database db = Database.open(dir.resolve("live.db"))) {
            TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
            Path target = dir.resolve("copy.db");

            Backup.Result result = new Backup(db).to(target);

            assertThat(result.auditRefusal()).isNull();
            java.util.List<org.claimdesk.domain.AuditEntry> entries = new Queries(db, Clock.systemUTC())
                    .audit(null, null, org.claimdesk.domain.AuditActions.DATABASE_BACKUP, 0, 0);
            assertThat(entries).singleElement().satisfies(e -> {
                assertThat(e.actor()).isEqualTo(Operators.fromEnvironment() != null ? Operators.fromEnvironment()
                        : System.getProperty("user.name"));
                assertThat(e.subjectType()).isEqualTo("database");
                assertThat(e.reason()).contains("tax ids included");
                assertThat(e.details()).contains(target.toString()).contains("\"systemUser\"")
                        .contains("\"workstation\"");
            });
            try (Database copy = Database.open(result.file())) {
                assertThat(new Queries(copy, Clock.systemUTC()).audit(null, null,
                        org.claimdesk.domain.AuditActions.DATABASE_BACKUP, 0, 0)).hasSize(1);
            }
            assertThatThrownBy(() -> new Backup(db).to(target)).hasMessageContaining("already exists");
            assertThat(new Queries(db, Clock.systemUTC()).audit(null, null, org.claimdesk.domain.AuditActions.DATABASE_BACKUP,
                    0, 0)).as("a refused backup copies nothing and is not audited").hasSize(1);
        }
    }

    /** A database that cannot take the entry (a full disk, a file this account may only read) is backed up all the same. */
    @Test
    void aBackupTheAuditTrailCannotTakeIsWrittenAndSaysWhy() throws Exception {
        try (Database db = Database.open(dir.resolve("live.db"))) {
            TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
            org.claimdesk.testing.Triggers.failing(db, "no_room", "audit_log", "INSERT", "database or disk is full");

            Backup.Result result = new Backup(db).to(dir.resolve("copy.db"));

            assertThat(result.auditRefusal()).contains("database or disk is full");
            assertThat(Backup.checkCopy(result.file()).claims()).isEqualTo(1);
        }
    }

    /** The copy holds the evidence rows, not their files: the result says which folder holds them, and how many. */
    @Test
    void aBackupSaysWhereTheEvidenceFilesItDoesNotHoldAreKept() throws Exception {
        try (Database db = Database.open(dir.resolve("desk.db"))) {
            assertThat(new Backup(db).to(dir.resolve("empty.db")).evidence().files()).isZero();
            long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
            ClaimEvidence evidence = new ClaimEvidence(db, Clock.systemUTC());
            evidence.addFile(id, "ownership", Files.writeString(dir.resolve("deed.pdf"), "deed"), null, "j.chen");
            evidence.addFile(id, "identity", Files.writeString(dir.resolve("id.png"), "photo id"), null, "j.chen");

            Backup.Result result = new Backup(db).to(dir.resolve("copy.db"));

            assertThat(result.evidence().files()).isEqualTo(2);
            assertThat(result.evidence().bytes()).isEqualTo(12);
            assertThat(result.evidenceFolder()).isEqualTo(dir.resolve("evidence")).isDirectory();
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
    /**
     * A backup into a folder whose name holds what a URI gives a meaning ('#', '?', '%', a space) is written and
     * checked there, not in another file the name's beginning names; a partial file a backup cut short a day ago left
     * beside the name is removed, and one of a backup under way is left to it.
     */
    @Test
    void aBackupIsWrittenBesideItsNameAndCheckedWhateverItsFolderIsCalled() throws Exception {
        try (Database db = Database.open(dir.resolve("db.db"))) {
            org.claimdesk.testing.TestClaims.insert(db, org.claimdesk.domain.ClaimStatus.IDENTITY_PENDING);
            Path folder = Files.createDirectories(dir.resolve("Desk #2 ?x 100%25"));
            Path target = folder.resolve("claims backup.db");
            Path leftover = Files.writeString(Backup.partial(target), "cut short by a backup killed two days ago");
            Files.setLastModifiedTime(leftover, java.nio.file.attribute.FileTime.from(
                    java.time.Instant.now().minus(Duration.ofDays(2))));
            Path underWay = Files.writeString(Backup.partial(target), "another backup to that name, under way");

            Backup.Result result = new Backup(db).to(target);

            assertThat(result.file()).isEqualTo(target);
            assertThat(result.claims()).isEqualTo(1);
            assertThat(Backup.checkCopy(target).claims()).isEqualTo(1);
            assertThat(leftover).doesNotExist();
            try (java.util.stream.Stream<Path> files = Files.list(folder)) {
                assertThat(files).containsExactlyInAnyOrder(target, underWay);
            }
        }
    }

    /**
     * The pg_dump command a team database's backup names carries the address's TLS settings (pg_dump would otherwise
     * connect as libpq's default, prefer, checking no certificate) and quotes what a shell would split.
     */
    @Test
    void thePgDumpCommandKeepsTheAddressesTlsSettingsAndQuotesWhatAShellWouldSplit() throws Exception {
        org.claimdesk.store.DatabaseLocation.Postgres plain = new org.claimdesk.store.DatabaseLocation.Postgres(
                "db1.office.lan", 5432, "claims", "claimdesk_owner", java.util.Map.of());
        assertThat(Backup.pgDump(plain, Path.of("/backups/claims.dump"))).isEqualTo("(umask 077; pg_dump -Fc -h"
                + " db1.office.lan -p 5432 -U claimdesk_owner -d claims -f /backups/claims.dump)");
        // run as given, with a pg_dump that writes its file: owner-only, whatever the shell's umask
        Path made = dir.resolve("made by the command.dump");
        Process run = new ProcessBuilder("sh", "-c", "umask 022; pg_dump() { for a; do f=$a; done; echo x > \"$f\"; };"
                + " " + Backup.pgDump(plain, made)).redirectErrorStream(true).start();
        assertThat(run.waitFor()).isZero();
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(made)))
                .isEqualTo("rw-------");

        org.claimdesk.store.DatabaseLocation.Postgres tls = new org.claimdesk.store.DatabaseLocation.Postgres(
                "db1.office.lan", 5432, "claims", "claimdesk_owner",
                java.util.Map.of("sslmode", "verify-full", "sslrootcert", "/etc/claimdesk/office root.crt",
                        "connectTimeout", "5"));
        String command = Backup.pgDump(tls, Path.of("/backups/claims 2026-12-06.dump"));
        // as a shell splits it: the connection string and the file are one word each, the TLS settings in it
        Process echo = new ProcessBuilder("sh", "-c", "printf '%s\\n' " + command.substring(
                command.indexOf("pg_dump ") + "pg_dump ".length(), command.length() - 1))
                .redirectErrorStream(true).start();
        assertThat(new String(echo.getInputStream().readAllBytes()).lines().toList()).containsExactly("-Fc", "-h",
                "db1.office.lan", "-p", "5432", "-U", "claimdesk_owner", "-d",
                "dbname=claims sslmode=verify-full sslrootcert='/etc/claimdesk/office root.crt'", "-f",
                "/backups/claims 2026-12-06.dump");
        assertThat(echo.waitFor()).isZero();

        org.claimdesk.store.DatabaseLocation.Postgres ssl = new org.claimdesk.store.DatabaseLocation.Postgres(
                "db1.office.lan", 5432, "claims", "claimdesk_owner", java.util.Map.of("ssl", "true"));
        assertThat(Backup.pgDump(ssl, Path.of("/backups/claims.dump"))).as("the driver's ssl=true checks certificates")
                .contains("-d 'dbname=claims sslmode=verify-full' ");
    }
}
