package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.delivery.Drain;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.OutboxStore;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A team database set up as docs/operations.md tells IT, its statements read from the guide itself: an owner role
 * that is no superuser creates the schema on first connecting, the staff grants are given as written, and a staff
 * workstation then enters and imports claims, delivers them and counts them, and cannot change the audit trail, the
 * schema's history or the counts' tallies.
 */
class TeamSetupFromTheGuideTest {
    @TempDir
    Path dir;

    @Test
    void aDatabaseSetUpAsTheGuideSaysServesStaffAndKeepsItsRecordsOutOfTheirReach() throws Exception {
        DatabaseLocation.Postgres admin = TestDatabase.newEmptyServerDatabase();
        String suffix = admin.database();
        String owner = "owner_" + suffix;
        String staff = "staff_" + suffix;
        String database = "office_" + suffix;
        try (Connection c = DriverManager.getConnection(admin.jdbcUrl(), admin.user(), "");
             Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + owner + " LOGIN");
            s.execute("CREATE ROLE " + staff + " LOGIN");
            s.execute("CREATE DATABASE " + database + " OWNER " + owner + " ENCODING 'UTF8' TEMPLATE template0");
            // a hardened server: temporary tables only where granted, as the guide's TEMPORARY grant then gives them
            s.execute("REVOKE TEMPORARY ON DATABASE " + database + " FROM PUBLIC");
            s.execute(guidesLine("ALTER DATABASE claimdesk SET timezone").replace("DATABASE claimdesk ",
                    "DATABASE " + database + " "));
        }
        DatabaseLocation.Postgres asOwner = new DatabaseLocation.Postgres(admin.host(), admin.port(), database, owner,
                Map.of());
        DatabaseLocation.Postgres asStaff = TestDatabase.as(asOwner, staff);

        // the owner's first connection creates the schema; then the guide's grants, as the owner
        try (Database db = Database.open(asOwner)) {
            List<String> grants = TestDatabase.guidesGrants();
            assertThat(grants).as("the guide's grant statements").hasSizeGreaterThanOrEqualTo(5);
            db.useTransaction(h -> grants.forEach(g -> h.execute(g.replace("claimdesk_staff", staff)
                    .replace("DATABASE claimdesk ", "DATABASE " + database + " "))));
        }

        try (Database db = Database.open(asStaff)) {
            Outbox.submitted(db, 6);
            Path csv = ClaimImportTest.validRows(dir.resolve("office.csv"), 40);
            assertThat(new ClaimImport(db, ClaimIntakeTest.CLOCK).run(csv, "s.patel",
                    new ClaimImport.Options(true, false, null)).imported()).isEqualTo(40);
            assertThat(new ClaimImport(db, ClaimIntakeTest.CLOCK).run(csv, "s.patel", ClaimImport.Options.defaults())
                    .imported()).isEqualTo(40);
            Drain.Summary drained = Drain.run(db, new SimulatedStateAdapter(new SimulatedState(
                    SimulatedState.Config.reliable())), Workers.fast(), Deadlines.statutory(), Clock.systemUTC(), true,
                    Duration.ofSeconds(30), null);
            assertThat(drained.sent()).as(String.valueOf(drained.lastError())).isEqualTo(6);
            assertThat(db.read(new OutboxStore()::countByState)).containsEntry(DeliveryState.SENT, 6);
            Doctor.Report report = new Doctor(db, Clock.systemUTC(), Duration.ofHours(24)).examine();
            assertThat(report.findings()).filteredOn(f -> f.check().equals("role")).singleElement()
                    .satisfies(f -> assertThat(f.level()).isEqualTo(Doctor.Level.OK));
            assertThat(db.clock().getZone()).isEqualTo(java.time.ZoneId.of("America/Los_Angeles"));
            assertThat(report.findings()).filteredOn(f -> f.check().equals("time zone")).singleElement()
                    .satisfies(f -> assertThat(f.level()).as(f.message()).isEqualTo(Doctor.Level.OK));
            assertThat(report.findings()).filteredOn(f -> f.check().equals("tally")).allSatisfy(
                    f -> assertThat(f.level()).as(f.message()).isEqualTo(Doctor.Level.OK));

            for (String forbidden : List.of("DELETE FROM audit_log", "UPDATE audit_log SET actor = 'x'",
                    "INSERT INTO flyway_schema_history (installed_rank, description, type, script, installed_by,"
                            + " execution_time, success) VALUES (999, 'x', 'SQL', 'x', 'x', 0, true)",
                    "DELETE FROM outbox_state_tally", "INSERT INTO claim_status_tally (status, n) VALUES ('PAID', 5)",
                    "SELECT claimdesk_outbox_tally_rebuild()", "SELECT claimdesk_claim_tally_rebuild()",
                    // what was done is added, never rewritten or removed
                    "UPDATE claim_status_history SET actor = 'x'", "DELETE FROM claim_status_history",
                    "UPDATE delivery_attempt SET detail = NULL", "DELETE FROM delivery_attempt",
                    "DELETE FROM evidence", "DELETE FROM request_key", "DELETE FROM outbox_event", "DELETE FROM claim",
                    "TRUNCATE claim CASCADE",
                    // PostgreSQL 15 and later keep the public schema to its owner (the guide does it on 14)
                    "CREATE TABLE mine (id int)")) {
                assertThatThrownBy(() -> db.useTransaction(h -> h.execute(forbidden))).as(forbidden)
                        .hasStackTraceContaining("permission denied");
            }
        }
    }

    /** The guide's statement beginning with {@code start}, without its semicolon. */
    private static String guidesLine(String start) throws Exception {
        return Files.readAllLines(Path.of("docs", "operations.md")).stream().filter(l -> l.startsWith(start))
                .findFirst().orElseThrow().replaceAll(";\\s*$", "");
    }
}
