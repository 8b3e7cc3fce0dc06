package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.claimdesk.store.Migrations;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.Evidence;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.EvidenceFiles;
import org.claimdesk.testing.TestClaims;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code doctor} on both engines: the checks every database gets. The server's own findings: DoctorServerTest. */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class DoctorTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    Database db;

    @BeforeEach
    void open() {
        db = TestDatabase.open(engine, dir);
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void aHealthyDatabasePassesEveryCheck() {
        long id = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        new Workflow(db, Clock.systemUTC(), Deadlines.statutory()).submit(id, "kim", null);

        if (db.onServer()) {
            // as IT sets a team database up (docs/operations.md), its time zone taken at the next opening
            DatabaseLocation.Postgres server = (DatabaseLocation.Postgres) db.location();
            db.jdbi().useHandle(h -> h.execute("ALTER DATABASE \"" + server.database()
                    + "\" SET timezone TO 'America/Los_Angeles'"));
            db.close();
            db = Database.open(server);
        }

        List<String> begun = new java.util.ArrayList<>();
        Doctor.Report report = new Doctor(db, Clock.systemUTC(), Duration.ofHours(24)).examine(begun::add);

        // each check told as it begins, for a long one's progress (a file's integrity reads the whole file)
        assertThat(begun).containsExactly(db.onServer() ? "server" : "integrity", "schema", "triggers", "orphans",
                "leases", "stuck", "workflow", "tally", "files");
        assertThat(report.findings()).extracting(Doctor.Finding::check).containsAll(begun.subList(1, begun.size()));
        assertThat(report.healthy()).isTrue();
        assertThat(report.schemaVersion()).isEqualTo(Migrations.latestVersion());
        assertThat(report.findings()).extracting(Doctor.Finding::check).startsWith(engine == TestDatabase.Engine.SQLITE
                ? new String[] {"integrity", "file system", "deadlines", "schema"} : new String[] {"server", "pg_trgm", "tls", "role", "definers", "sessions",
                    "evidence", "clock", "time zone", "deadlines", "schema"})
                .contains("orphans", "leases", "stuck", "workflow");
        // the test server's login role is its superuser: the warning a healthy team database gets here
        assertThat(report.findings()).filteredOn(f -> !f.check().equals("role"))
                .allSatisfy(f -> assertThat(f.level()).as(f.message()).isEqualTo(Doctor.Level.OK));
    }

    /** A desk's file on a network share: SQLite's write-ahead log shares its index only on one machine. */
    @Test
    void aDesksFileOnANetworkShareIsWarnedOf() {
        for (String share : new String[] {"nfs", "nfs4", "cifs", "smbfs", "fuse.sshfs", "9p"}) {
            assertThat(Doctor.onTheNetwork(share)).as(share).isTrue();
        }
        for (String local : new String[] {"ext4", "xfs", "btrfs", "tmpfs", "overlay", "apfs", "NTFS"}) {
            assertThat(Doctor.onTheNetwork(local)).as(local).isFalse();
        }
        if (!db.onServer()) {
            assertThat(Doctor.fileSystem(db.path())).satisfies(f -> {
                assertThat(f.level()).as(f.message()).isEqualTo(Doctor.Level.OK);
                assertThat(f.message()).startsWith("the file is on this workstation's own disk (");
            });
        }
    }

    /**
     * A team database's claims are dated with the office's deadlines set on the database; without them, one
     * workstation's own setting is said to be every workstation's to set, and how IT sets the office's.
     */
    @Test
    void deadlinesAreTheTeamDatabasesOrEveryWorkstationsToSetAlike() {
        DatabaseLocation.Postgres server = new DatabaseLocation.Postgres("db.office", 5432, "claims", "staff",
                java.util.Map.of());
        assertThat(Doctor.deadlines(server, null, null).level()).isEqualTo(Doctor.Level.OK);
        assertThat(Doctor.deadlines(server, null, " ").message()).contains("statutory");
        assertThat(Doctor.deadlines(server, null, "NY=150")).satisfies(f -> {
            assertThat(f.level()).isEqualTo(Doctor.Level.WARN);
            assertThat(f.message()).contains("CLAIMDESK_DEADLINE_DAYS=NY=150").contains("every workstation")
                    .contains("ALTER DATABASE \"claims\" SET claimdesk.deadline_days TO");
        });
        assertThat(Doctor.deadlines(server, "NY=150,*=100", null)).satisfies(f -> {
            assertThat(f.level()).isEqualTo(Doctor.Level.OK);
            assertThat(f.message()).contains("claimdesk.deadline_days=NY=150,*=100");
        });
        assertThat(Doctor.deadlines(server, "NY=150", "NY=90")).satisfies(f -> {
            assertThat(f.level()).isEqualTo(Doctor.Level.WARN);
            assertThat(f.message()).contains("CLAIMDESK_DEADLINE_DAYS=NY=90 is not used");
        });
        assertThat(Doctor.deadlines(server, "NY=often", null)).satisfies(f -> {
            assertThat(f.level()).isEqualTo(Doctor.Level.FAIL);
            assertThat(f.message()).contains("the days must be a whole number").contains("ALTER DATABASE \"claims\"");
        });
        assertThat(Doctor.deadlines(server, null, "NY=often")).satisfies(f -> {
            assertThat(f.level()).isEqualTo(Doctor.Level.FAIL);
            assertThat(f.message()).contains("this workstation's CLAIMDESK_DEADLINE_DAYS=NY=often cannot be read");
        });
        DatabaseLocation.Postgres named = new DatabaseLocation.Postgres("db.office", 5432, "Claims \"East\"", "staff",
                java.util.Map.of());
        assertThat(Doctor.deadlines(new DatabaseLocation.Postgres("db.office", 5432, "user", "staff", java.util.Map.of()),
                null, "NY=150").message()).contains("ALTER DATABASE \"user\" SET");
        assertThat(Doctor.deadlines(null, null, null).level()).isEqualTo(Doctor.Level.OK);
        assertThat(Doctor.deadlines(null, null, "NY=150").message()).contains("CLAIMDESK_DEADLINE_DAYS=NY=150");
        assertThat(Doctor.deadlines(null, null, "NY=often").level()).isEqualTo(Doctor.Level.FAIL);
        assertThat(Doctor.deadlines(named, null, "NY=150").message())
                .contains("ALTER DATABASE \"Claims \"\"East\"\"\" SET claimdesk.deadline_days TO");
    }

    /** After a restore of the evidence folder, every file is looked for, not only the newest. */
    @Test
    void everyEvidenceFileIsLookedForWhenAsked() throws Exception {
        EvidenceFiles files = db.onServer()
                ? EvidenceFiles.shared(java.nio.file.Files.createDirectories(dir.resolve("share")))
                : DataDirectory.evidenceFiles(db, null);
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        ClaimEvidence evidence = new ClaimEvidence(db, Clock.systemUTC(), files);
        List<Evidence> added = new java.util.ArrayList<>();
        for (int i = 0; i <= Doctor.EVIDENCE_SAMPLE; i++) {
            added.add(evidence.addFile(id, "ownership", java.nio.file.Files.writeString(dir.resolve("page" + i + ".pdf"),
                    "page " + i), null, "j.chen"));
        }
        java.nio.file.Files.delete(evidence.fileOf(added.get(0)));

        Doctor sample = new Doctor(db, Clock.systemUTC(), Duration.ofHours(24), files);
        Doctor every = new Doctor(db, Clock.systemUTC(), Duration.ofHours(24), files, Integer.MAX_VALUE);

        assertThat(sample.examine().findings()).filteredOn(f -> f.check().equals("files")).singleElement()
                .satisfies(f -> assertThat(f.level()).isEqualTo(Doctor.Level.OK));
        assertThat(every.examine().findings()).filteredOn(f -> f.check().equals("files")).singleElement()
                .satisfies(f -> {
                    assertThat(f.level()).isEqualTo(Doctor.Level.FAIL);
                    assertThat(f.message()).startsWith("1 of every one of the " + added.size() + " evidence file(s)"
                            + " are not whole in " + files.folder() + " (evidence " + added.get(0).evidenceId());
                });
    }

    /**
     * The newest evidence files must be in the evidence folder with their recorded sizes: one gone or cut short (a
     * desk's folder not restored with its file, a team's share that is not the one mounted) fails.
     */
    @Test
    void evidenceFilesMissingOrCutShortFromTheFolderFail() throws Exception {
        // a desk's own folder beside its file; a team database's shared folder, IT's, there beforehand
        EvidenceFiles files = db.onServer()
                ? EvidenceFiles.shared(java.nio.file.Files.createDirectories(dir.resolve("share")))
                : DataDirectory.evidenceFiles(db, null);
        Doctor doctor = new Doctor(db, Clock.systemUTC(), Duration.ofHours(24), files);
        assertThat(doctor.examine().findings()).contains(new Doctor.Finding(Doctor.Level.OK, "files",
                "no evidence file is recorded yet"));

        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        ClaimEvidence evidence = new ClaimEvidence(db, Clock.systemUTC(), files);
        Evidence deed = evidence.addFile(id, "ownership", java.nio.file.Files.writeString(dir.resolve("deed.pdf"),
                "deed of trust"), null, "j.chen");
        Evidence bill = evidence.addFile(id, "address", java.nio.file.Files.writeString(dir.resolve("bill.pdf"),
                "utility bill"), null, "j.chen");
        assertThat(doctor.examine().findings()).contains(new Doctor.Finding(Doctor.Level.OK, "files",
                "the newest 2 evidence file(s) are in " + files.folder() + " with their recorded sizes"
                        + " (doctor --all-evidence looks for every one)"));

        java.nio.file.Files.delete(evidence.fileOf(deed));
        java.nio.file.Files.writeString(evidence.fileOf(bill), "utility");
        Doctor.Report report = doctor.examine();

        assertThat(report.healthy()).isFalse();
        assertThat(report.findings()).filteredOn(f -> f.check().equals("files")).singleElement().satisfies(f -> {
            assertThat(f.level()).isEqualTo(Doctor.Level.FAIL);
            assertThat(f.message()).startsWith("2 of the newest 2 evidence file(s) are not whole in " + files.folder()
                    + " (evidence " + bill.evidenceId() + " of claim id " + id + " (damaged), evidence "
                    + deed.evidenceId() + " of claim id " + id + " (missing)): ")
                    .contains(db.onServer() ? "is this the office's share, mounted on this workstation?"
                            : "put them back from the backup of the evidence folder");
        });
    }

    @Test
    void doctorReportsExpiredLeasesByWorkerStuckRowsAndInconsistentClaims() {
        Instant now = Instant.parse("2026-11-02T12:00:00Z");
        long stuck = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        long other = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        Workflow workflow = new Workflow(db, Clock.fixed(now.minus(Duration.ofDays(3)), ZoneOffset.UTC),
                Deadlines.statutory());
        workflow.submit(stuck, "kim", "key-stuck");
        workflow.submit(other, "kim", "key-other");
        TestClaims.insert(db, ClaimStatus.SUBMITTING);
        db.useTransaction(h -> {
            h.execute("UPDATE outbox_event SET lease_owner = 'desk-07-drain', lease_expires_at = ? WHERE aggregate_id = ?",
                    now.minus(Duration.ofMinutes(90)).toEpochMilli(), stuck);
            h.execute("UPDATE outbox_event SET lease_owner = 'desk-02-console', lease_expires_at = ? WHERE aggregate_id = ?",
                    now.minusSeconds(20).toEpochMilli(), other);
        });

        Doctor.Report report = new Doctor(db, Clock.fixed(now, ZoneOffset.UTC), Duration.ofHours(24)).examine();

        assertThat(report.healthy()).isFalse();
        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.check()).isEqualTo("leases");
            assertThat(f.level()).isEqualTo(Doctor.Level.WARN);
            // desk-02-console's lease lapsed 20 s ago: a running worker's, to be taken again at its next tick
            assertThat(f.message()).isEqualTo("1 pending row(s) hold a lease expired over a minute ago (desk-07-drain:"
                    + " 1 row(s), expired 1 h ago): a worker stopped mid-delivery; the next drain takes them again");
        });
        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.check()).isEqualTo("stuck");
            assertThat(f.message()).isEqualTo("2 pending row(s) due for more than 24 h and not taken: check that a"
                    + " worker runs and is not paused (Worker page)");
        });
        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.check()).isEqualTo("workflow");
            assertThat(f.level()).isEqualTo(Doctor.Level.FAIL);
            assertThat(f.message()).startsWith("1 SUBMITTING claim(s) have no pending or failed outbox row");
        });
    }

    /**
     * Stuck means due long ago and not taken: a row three days old that was re-queued now, one waiting out its
     * backoff, and one a worker holds are not; one due for two days is.
     */
    @Test
    void onlyRowsDueLongAgoThatNoWorkerHoldsAreStuck() {
        Instant now = Instant.parse("2026-11-02T12:00:00Z");
        Workflow workflow = new Workflow(db, Clock.fixed(now.minus(Duration.ofDays(3)), ZoneOffset.UTC),
                Deadlines.statutory());
        long[] claims = new long[4];
        for (int i = 0; i < claims.length; i++) {
            claims[i] = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
            workflow.submit(claims[i], "kim", "key-" + i);
        }
        db.useTransaction(h -> {
            String due = "UPDATE outbox_event SET next_attempt_at = ? WHERE aggregate_id = ?";
            h.execute(due, now.toEpochMilli(), claims[0]);
            h.execute(due, now.plus(Duration.ofMinutes(30)).toEpochMilli(), claims[1]);
            h.execute("UPDATE outbox_event SET lease_owner = 'desk-03-console', lease_expires_at = ? WHERE"
                    + " aggregate_id = ?", now.plusSeconds(40).toEpochMilli(), claims[2]);
            h.execute(due, now.minus(Duration.ofDays(2)).toEpochMilli(), claims[3]);
        });

        Doctor.Report report = new Doctor(db, Clock.fixed(now, ZoneOffset.UTC), Duration.ofHours(24)).examine();

        assertThat(report.findings()).filteredOn(f -> f.check().equals("stuck")).singleElement()
                .satisfies(f -> assertThat(f.message()).startsWith("1 pending row(s) due for more than 24 h"));
        db.useTransaction(h -> h.execute("UPDATE outbox_event SET next_attempt_at = ? WHERE aggregate_id = ?",
                now.toEpochMilli(), claims[3]));
        assertThat(new Doctor(db, Clock.fixed(now, ZoneOffset.UTC), Duration.ofHours(24)).examine().findings())
                .contains(new Doctor.Finding(Doctor.Level.OK, "stuck", "no pending row has waited more than 24 h for"
                        + " a worker"));
    }

    @Test
    void aDroppedOrDisabledTriggerFailsNamedWithItsScript() {
        boolean file = engine == TestDatabase.Engine.SQLITE;
        db.jdbi().useHandle(h -> {
            h.execute(file ? "DROP TRIGGER audit_log_no_delete" : "DROP TRIGGER audit_log_no_update ON audit_log");
            if (!file) {
                h.execute("ALTER TABLE claim DISABLE TRIGGER claim_changed");
            }
        });

        Doctor.Report report = new Doctor(db, Clock.systemUTC(), Duration.ofHours(24)).examine();

        assertThat(report.healthy()).isFalse();
        Doctor.Finding triggers = report.findings().stream().filter(f -> f.check().equals("triggers")).findFirst()
                .orElseThrow();
        assertThat(triggers.level()).isEqualTo(Doctor.Level.FAIL);
        assertThat(triggers.message()).endsWith(" and runs doctor again (docs/operations.md)").startsWith(file
                ? "1 of the " + expectedTriggers() + " triggers the schema relies on is missing:"
                        + " audit_log_no_delete (V1__schema.sql). The writes made without them went past what they keep"
                        + " (the audit trail's guards, evidence kept as added, the tallies, search): with every ClaimDesk on this file closed,"
                        + " IT creates them again from the scripts named"
                : "1 of the " + expectedTriggers() + " triggers the schema relies on is missing: audit_log_no_update"
                        + " (V8__schema.sql); 1 is disabled: claim_changed (R__change_feed.sql). The writes made"
                        + " without them went past what they keep (the audit trail's guards, evidence kept as added, the tallies, the change feed):"
                        + " IT creates them again as the owner role from the scripts named, or enables them,");
    }

    /** How many triggers a database of the current schema has on this engine, from the database itself. */
    private long expectedTriggers() {
        try (Database fresh = Database.open(TestDatabase.location(engine, dir, "fresh"))) {
            return fresh.jdbi().withHandle(h -> h.createQuery(engine == TestDatabase.Engine.SQLITE
                    ? "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"
                    : "SELECT count(DISTINCT tgname) FROM pg_trigger WHERE NOT tgisinternal").mapTo(Long.class).one());
        }
    }

    @Test
    void anAttemptWithoutItsOutboxRowFailsWhereForeignKeysWereBypassed() {
        String orphan = "INSERT INTO delivery_attempt (outbox_event_id, attempt_no, started_at, duration_ms, outcome)"
                + " VALUES (999, 1, 0, 1, 'TRANSIENT')";
        if (engine == TestDatabase.Engine.POSTGRESQL) {
            assertThatThrownBy(() -> db.useTransaction(h -> h.execute(orphan))).hasStackTraceContaining("foreign key");
        }
        // a file's foreign keys can be switched off (another tool, an old version); a server's bypassed by its
        // superuser (a restore with --disable-triggers, session_replication_role = replica)
        org.claimdesk.testing.Triggers.withoutForeignKeys(db, h -> {
            h.execute(orphan);
            h.execute(orphan.replace("(999, 1,", "(999, 2,"));
        });

        Doctor.Report report = new Doctor(db, Clock.systemUTC(), Duration.ofHours(24)).examine();

        assertThat(report.healthy()).isFalse();
        Doctor.Finding orphans = report.findings().stream().filter(f -> f.check().equals("orphans")).findFirst()
                .orElseThrow();
        assertThat(orphans).isEqualTo(new Doctor.Finding(Doctor.Level.FAIL, "orphans", "2 row(s) point at a missing"
                + " parent (delivery_attempt -> outbox_event: 2); restore from a backup"));
    }

    @Test
    void countsThatDisagreeWithTheRowsFailWithWhatMendsThem() {
        new Workflow(db, Clock.systemUTC(), Deadlines.statutory())
                .submit(TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION), "kim", null);
        // as a tool that wrote the outbox past the triggers would leave it: two sent rows counted that are not there
        db.useTransaction(h -> h.execute("INSERT INTO outbox_state_tally (delivery_state, n) VALUES ('sent', 2)"));

        Doctor.Report report = new Doctor(db, Clock.systemUTC(), Duration.ofHours(24)).examine();

        assertThat(report.healthy()).isFalse();
        Doctor.Finding tally = report.findings().stream().filter(f -> f.check().equals("tally")).findFirst()
                .orElseThrow();
        assertThat(tally.level()).isEqualTo(Doctor.Level.FAIL);
        assertThat(tally.message()).startsWith("staff's counts are off: the outbox's counts per delivery state"
                + " disagree with its rows (sent 2 counted, 0 rows)").endsWith("(docs/operations.md)")
                .contains(engine == TestDatabase.Engine.SQLITE
                        ? "with every ClaimDesk on this file closed, IT counts them again"
                        : "IT runs SELECT claimdesk_outbox_tally_rebuild() as the owner role");
    }
}
