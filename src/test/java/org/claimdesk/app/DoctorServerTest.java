package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.IntStream;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.ServerHealthStore;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code doctor}'s findings about a team database's server, read from the real test server: its version, pg_trgm,
 * TLS, what the login role may do to the audit trail, and who else is connected. What the test server cannot be (an
 * old version, a remote host without TLS) is checked on the findings' rule with the server's facts given.
 */
class DoctorServerTest {
    DatabaseLocation.Postgres location;
    Database db;

    @TempDir
    Path dir;

    @BeforeEach
    void open() {
        location = TestDatabase.newServerDatabase();
        db = Database.open(location);
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void theTestServerIsSupportedHasTrigramSearchAndIsReachedOnThisMachine() {
        Map<String, Doctor.Finding> findings = examine(db);

        assertThat(findings.get("server").level()).isEqualTo(Doctor.Level.OK);
        assertThat(findings.get("server").message()).matches("PostgreSQL 17\\.\\d+ on localhost:" + location.port()
                + " \\(supported: 14 or later\\)");
        assertThat(findings.get("pg_trgm").level()).isEqualTo(Doctor.Level.OK);
        assertThat(findings.get("tls")).isEqualTo(new Doctor.Finding(Doctor.Level.OK, "tls",
                "the connection is not encrypted; it does not leave this machine (localhost)"));
        assertThat(findings.get("role")).isEqualTo(new Doctor.Finding(Doctor.Level.WARN, "role", "the role postgres is"
                + " a superuser: it could drop the triggers that keep the audit trail append-only; staff connect as the"
                + " staff role, the owner role is for IT (docs/operations.md: server and database)"));
        assertThat(findings.get("sessions")).isEqualTo(new Doctor.Finding(Doctor.Level.OK, "sessions",
                "no other workstation or program is connected to this database"));
    }

    @Test
    void everyConnectionOfThisProcessNamesClaimDeskItsVersionWorkstationAndProcess() {
        String name = db.read(h -> h.createQuery("SELECT application_name FROM pg_stat_activity"
                + " WHERE pid = pg_backend_pid()").mapTo(String.class).one());

        assertThat(name).isEqualTo(ServerHealthStore.applicationName())
                .matches("ClaimDesk \\S+ \\S+ pid " + ProcessHandle.current().pid()).hasSizeLessThanOrEqualTo(63);
    }

    @Test
    void otherWorkstationsAndProgramsConnectedAreListed() throws Exception {
        try (Connection desk07 = connect("ClaimDesk 2.1.0 desk-07 pid 4711");
             Connection desk07Again = connect("ClaimDesk 2.1.0 desk-07 pid 4711");
             Connection psql = connect("psql")) {
            assertThat(List.of(desk07, desk07Again, psql)).allSatisfy(c -> assertThat(c.isValid(5)).isTrue());

            Doctor.Finding sessions = examine(db).get("sessions");

            assertThat(sessions).isEqualTo(new Doctor.Finding(Doctor.Level.OK, "sessions", "3 other connection(s) to"
                    + " this database: ClaimDesk 2.1.0 desk-07 pid 4711 as postgres (2 connections), psql as postgres"));
        }
    }

    @Test
    void theStaffRoleOfTheOperationsGuideCannotTouchTheAuditTriggersAndDoctorSaysSo() {
        String staff = location.database() + "_staff";
        grantAsTheGuideSays(staff);

        try (Database asStaff = Database.open(as(staff))) {
            assertThat(examine(asStaff).get("role")).isEqualTo(new Doctor.Finding(Doctor.Level.OK, "role", "the role "
                    + staff + " is neither a superuser nor the audit trail's owner: the audit trail's triggers are out"
                    + " of its reach"));
            assertThatThrownBy(() -> asStaff.useTransaction(h -> h.execute("ALTER TABLE audit_log DISABLE TRIGGER"
                    + " audit_log_no_update"))).hasStackTraceContaining("must be owner");
            assertThat(examine(asStaff)).doesNotContainKey("grants");
        }
    }

    /**
     * A staff role given every change on every table (the grants of an older guide) could rewrite or remove what was
     * done: doctor names what it may do beyond staff's work, and says nothing once IT narrowed the grants.
     */
    @Test
    void aStaffRoleThatMayRewriteRecordsKeptWholeIsWarnedAbout() {
        String staff = location.database() + "_wide";
        db.useTransaction(h -> {
            h.execute("CREATE ROLE " + staff + " LOGIN");
            h.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO " + staff);
            h.execute("REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM " + staff);
        });

        try (Database asStaff = Database.open(as(staff))) {
            assertThat(examine(asStaff).get("grants")).isEqualTo(new Doctor.Finding(Doctor.Level.WARN, "grants",
                    "the role " + staff + " may change or remove records ClaimDesk keeps whole (DELETE claim, DELETE"
                    + " claim_number_sequence, UPDATE claim_status_history, DELETE claim_status_history, UPDATE"
                    + " delivery_attempt, DELETE delivery_attempt, DELETE evidence, DELETE outbox_event, UPDATE"
                    + " request_key, DELETE request_key): anyone with its password could rewrite what was done; IT"
                    + " narrows its grants to those staff's work needs (docs/operations.md: server and database)"));
        }
        db.useTransaction(h -> {
            h.execute("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM " + staff);
            TestDatabase.guidesGrants().forEach(g -> h.execute(g.replace("claimdesk_staff", staff)
                    .replace("DATABASE claimdesk ", "DATABASE " + location.database() + " ")));
        });
        try (Database asStaff = Database.open(as(staff))) {
            assertThat(examine(asStaff)).doesNotContainKey("grants");
        }
    }

    /**
     * The tallies' functions run with the owner's rights and fix their search path, so that a staff session's
     * temporary table of a tally's name cannot stand in for it; one whose path was reset (created again by hand from
     * its script's CREATE FUNCTION alone) fails doctor, naming it.
     */
    @Test
    void aFunctionRunningWithTheOwnersRightsWithoutItsSearchPathFails() {
        assertThat(examine(db).get("definers")).isEqualTo(new Doctor.Finding(Doctor.Level.OK, "definers", "the 4"
                + " functions that run with the schema owner's rights find their tables in its schema alone"));

        db.useTransaction(h -> h.execute("ALTER FUNCTION claimdesk_claim_counts() RESET search_path"));

        Doctor.Report report = new Doctor(db, Clock.systemUTC(), Duration.ofHours(24)).examine();
        assertThat(report.healthy()).isFalse();
        assertThat(report.findings()).filteredOn(f -> f.check().equals("definers")).singleElement().satisfies(f -> {
            assertThat(f.level()).isEqualTo(Doctor.Level.FAIL);
            assertThat(f.message()).startsWith("functions that run with the schema owner's rights do not fix their"
                    + " search path (claimdesk_claim_counts()): ");
        });
        // a path that does not name pg_temp last still searches a session's temporary tables first
        for (String path : List.of("public", "pg_temp, public")) {
            db.useTransaction(h -> h.execute("ALTER FUNCTION claimdesk_claim_counts() SET search_path = " + path));
            assertThat(examine(db).get("definers").level()).as(path).isEqualTo(Doctor.Level.FAIL);
        }
        db.useTransaction(h -> h.execute("ALTER FUNCTION claimdesk_claim_counts() SET search_path = public, pg_temp"));
        // a function of the schema's that is not ClaimDesk's is IT's own business
        db.useTransaction(h -> h.execute("CREATE FUNCTION its_own() RETURNS int LANGUAGE sql SECURITY DEFINER"
                + " AS 'SELECT 1'"));
        assertThat(examine(db).get("definers").level()).isEqualTo(Doctor.Level.OK);
    }

    /**
     * A role without statistics rights (staff) sees no backend type for another role's session: the owner's psql, an
     * upgrade under way, are listed all the same.
     */
    @Test
    void staffSeeTheSessionsOfOtherRolesToo() throws Exception {
        String staff = location.database() + "_staff";
        grantAsTheGuideSays(staff);
        try (Connection psql = connect("psql"); Database asStaff = Database.open(as(staff))) {
            assertThat(psql.isValid(5)).isTrue();

            assertThat(examine(asStaff).get("sessions")).isEqualTo(new Doctor.Finding(Doctor.Level.OK, "sessions",
                    "1 other connection(s) to this database: psql as postgres"));
        }
    }

    @Test
    void aRoleOwningTheAuditTrailCouldDisableItsTriggersAndIsWarnedAbout() {
        String owner = location.database() + "_owner";
        grantAsTheGuideSays(owner);
        db.useTransaction(h -> h.execute("ALTER TABLE audit_log OWNER TO " + owner));

        try (Database asOwner = Database.open(as(owner))) {
            Doctor.Finding role = examine(asOwner).get("role");

            assertThat(role.level()).isEqualTo(Doctor.Level.WARN);
            assertThat(role.message()).startsWith("the role " + owner + " owns the audit trail (audit_log): it could"
                    + " drop the triggers that keep the audit trail append-only");
            asOwner.useTransaction(h -> {
                h.execute("ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update");
                h.execute("ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update");
            });
        }
    }

    @Test
    void aMissingTrigramExtensionIsAWarning() {
        db.useTransaction(h -> h.execute("DROP EXTENSION pg_trgm CASCADE"));

        Doctor.Report report = new Doctor(db, Clock.systemUTC(), Duration.ofHours(24)).examine();

        assertThat(report.healthy()).isTrue();
        assertThat(report.findings()).contains(new Doctor.Finding(Doctor.Level.WARN, "pg_trgm", "the pg_trgm"
                + " extension is missing, and with it the trigram indexes: every search reads all claims; IT creates"
                + " the extension and the indexes again (docs/operations.md)"));
    }

    /** A workstation far off the server's time keeps the server's time, and doctor tells IT to set its clock. */
    @Test
    void aWorkstationsClockFarFromTheServersIsWarned() {
        // the test server runs on this machine: one clock
        assertThat(examine(db).get("clock")).isEqualTo(new Doctor.Finding(Doctor.Level.OK, "clock",
                "this workstation's clock is within 1 s of the server's; ClaimDesk keeps the server's time"));
        assertThat(Doctor.clockDistance(-42_300).message()).startsWith("this workstation's clock is within 43 s");
        assertThat(Doctor.clockDistance(3_700_000)).isEqualTo(new Doctor.Finding(Doctor.Level.WARN, "clock",
                "this workstation's clock is 1 h behind the server's: ClaimDesk keeps the server's time for the"
                        + " office's work, but this workstation's log and other programs do not; IT sets its clock"
                        + " right (time synchronisation)"));
        assertThat(Doctor.clockDistance(-90_000).message()).startsWith("this workstation's clock is 1 min ahead of the"
                + " server's: ");
    }

    /**
     * Evidence files added where no shared folder is set stay on that workstation, and a shared folder that is not
     * there (a share not mounted) takes none: doctor says so.
     */
    @Test
    void aWorkstationWithoutTheSharedEvidenceFolderIsWarnedAndOneWhoseShareIsNotThereFails() throws Exception {
        Map<String, String> home = Map.of(DataDirectory.HOME_ENV, "/home/kim/.claimdesk");
        Doctor.Finding alone = Doctor.evidenceFolder(DataDirectory.evidenceFiles(db, null, home));
        assertThat(alone.level()).isEqualTo(Doctor.Level.WARN);
        assertThat(alone.message()).startsWith("CLAIMDESK_EVIDENCE_DIR is not set on this workstation: evidence files"
                + " added here stay in /home/kim/.claimdesk/evidence/").contains("other workstations cannot open them");

        Path share = java.nio.file.Files.createDirectories(dir.resolve("claims-evidence"));
        Doctor.Finding shared = Doctor.evidenceFolder(DataDirectory.evidenceFiles(db, null,
                Map.of(DataDirectory.EVIDENCE_ENV, share.toString())));
        assertThat(shared).isEqualTo(new Doctor.Finding(Doctor.Level.OK, "evidence",
                "evidence files go to the shared folder " + share + ", which takes a new file"));
        assertThat(share).isEmptyDirectory();

        Path unmounted = dir.resolve("mnt").resolve("claims-evidence");
        Doctor.Finding missing = Doctor.evidenceFolder(DataDirectory.evidenceFiles(db, null,
                Map.of(DataDirectory.EVIDENCE_ENV, unmounted.toString())));
        assertThat(missing).isEqualTo(new Doctor.Finding(Doctor.Level.FAIL, "evidence", "the shared evidence folder "
                + unmounted + " is not there: is the office's share mounted on this workstation? (docs/operations.md:"
                + " evidence files); staff cannot add evidence files until it is mended"));
        assertThat(unmounted).doesNotExist();
        assertThat(examine(db)).containsKey("evidence");
    }

    @Test
    void anOldServerAndAnUnencryptedConnectionAcrossTheNetworkAreWarnings() {
        DatabaseLocation.Postgres remote = new DatabaseLocation.Postgres("db.office.lan", 5432, "claimdesk",
                "claimdesk_staff", Map.of());

        List<Doctor.Finding> findings = Doctor.serverFindings(remote, new ServerHealthStore.ServerFacts(130_012,
                "13.12", true, false, null, "claimdesk_staff", false, false, List.of(), List.of(), 4, List.of()));

        assertThat(findings).contains(new Doctor.Finding(Doctor.Level.WARN, "server", "PostgreSQL 13.12 on"
                + " db.office.lan:5432 is older than ClaimDesk supports (14 or later): IT upgrades the server"
                + " (docs/operations.md)"));
        assertThat(findings).contains(new Doctor.Finding(Doctor.Level.WARN, "tls", "the connection to db.office.lan"
                + " is not encrypted: claims cross the network in clear; add ?sslmode=verify-full to the address"
                + " (docs/operations.md: connecting a workstation)"));
    }

    @Test
    void anEncryptedConnectionNamesItsTlsVersionAndManySessionsAreCut() {
        DatabaseLocation.Postgres remote = new DatabaseLocation.Postgres("10.0.4.20", 5432, "claimdesk",
                "claimdesk_staff", Map.of("sslmode", "verify-full"));
        List<ServerHealthStore.Session> desks = IntStream.rangeClosed(1, 10)
                .mapToObj(n -> new ServerHealthStore.Session("ClaimDesk 2.1.0 desk-" + n + " pid " + n,
                        "claimdesk_staff", 1)).toList();

        List<Doctor.Finding> findings = Doctor.serverFindings(remote, new ServerHealthStore.ServerFacts(170_006,
                "17.6", true, true, "TLSv1.3", "claimdesk_staff", false, false, desks, List.of(), 4, List.of()));

        assertThat(findings).contains(new Doctor.Finding(Doctor.Level.OK, "tls", "the connection is encrypted"
                + " (TLSv1.3)"));
        assertThat(findings).filteredOn(f -> f.check().equals("sessions")).singleElement().satisfies(f -> {
            assertThat(f.message()).startsWith("10 other connection(s) to this database: ClaimDesk 2.1.0 desk-1 pid 1"
                    + " as claimdesk_staff, ").endsWith("desk-8 pid 8 as claimdesk_staff and 2 more");
        });
        assertThat(List.of("localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "LOCALHOST"))
                .allSatisfy(host -> assertThat(Doctor.loopback(host)).as(host).isTrue());
        assertThat(List.of("db.office.lan", "10.0.4.20", "localhost.office.lan"))
                .allSatisfy(host -> assertThat(Doctor.loopback(host)).as(host).isFalse());
    }

    @Test
    void theTalliesAreCheckedAgainstTheRowsAndTheOwnersRebuildsMendThem() {
        Outbox.submitted(db, 3);
        assertThat(examine(db).get("tally")).isEqualTo(new Doctor.Finding(Doctor.Level.OK, "tally",
                "the outbox's counts per delivery state and the claims' per status agree with their rows"));

        db.useTransaction(h -> h.execute("INSERT INTO outbox_state_tally (delivery_state, n) VALUES ('sent', 2)"));
        assertThat(examine(db).get("tally")).isEqualTo(new Doctor.Finding(Doctor.Level.FAIL, "tally",
                "staff's counts are off: the outbox's counts per delivery state disagree with its rows (sent 2"
                        + " counted, 0 rows): IT runs SELECT claimdesk_outbox_tally_rebuild() as the owner role"
                        + " (docs/operations.md)"));

        db.useTransaction(h -> h.execute("INSERT INTO claim_status_tally (status, n) VALUES ('SUBMITTING', -1),"
                + " ('PAID', 4)"));
        assertThat(examine(db).get("tally")).isEqualTo(new Doctor.Finding(Doctor.Level.FAIL, "tally",
                "staff's counts are off: the outbox's counts per delivery state disagree with its rows (sent 2"
                        + " counted, 0 rows): IT runs SELECT claimdesk_outbox_tally_rebuild() as the owner role; and"
                        + " the claims' counts per status disagree with the claims (PAID 4 counted, 0 rows; SUBMITTING"
                        + " 2 counted, 3 rows): IT runs SELECT claimdesk_claim_tally_rebuild() as the owner role"
                        + " (docs/operations.md)"));

        db.read(h -> h.createQuery("SELECT count(*) FROM (SELECT claimdesk_outbox_tally_rebuild()) r")
                .mapTo(Integer.class).one());
        assertThat(examine(db).get("tally").message()).doesNotContain("outbox")
                .contains("claimdesk_claim_tally_rebuild()");
        db.read(h -> h.createQuery("SELECT count(*) FROM (SELECT claimdesk_claim_tally_rebuild()) r")
                .mapTo(Integer.class).one());
        assertThat(examine(db).get("tally").level()).isEqualTo(Doctor.Level.OK);
    }

    private static Map<String, Doctor.Finding> examine(Database database) {
        Doctor.Report report = new Doctor(database, Clock.systemUTC(), Duration.ofHours(24)).examine();
        return report.findings().stream().collect(java.util.stream.Collectors.toMap(Doctor.Finding::check, f -> f,
                (a, b) -> a));
    }

    /** The staff role's grants as docs/operations.md gives them, for a new login role {@code role}. */
    private void grantAsTheGuideSays(String role) {
        TestDatabase.staffRole(db, role);
    }

    private DatabaseLocation.Postgres as(String role) {
        return TestDatabase.as(location, role);
    }

    private Connection connect(String applicationName) throws Exception {
        Properties properties = new Properties();
        properties.setProperty("user", "postgres");
        properties.setProperty("ApplicationName", applicationName);
        return DriverManager.getConnection(location.jdbcUrl(), properties);
    }
}
