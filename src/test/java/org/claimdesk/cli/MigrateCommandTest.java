package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.claimdesk.app.ClaimEvidence;
import org.claimdesk.app.ClaimIntake;
import org.claimdesk.app.DemoData;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.DatabaseMove;
import org.claimdesk.store.OlderTeamDatabases;
import org.claimdesk.testing.Sql;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code claimdesk migrate}: a workstation's file moved into an empty team database on a real PostgreSQL. */
class MigrateCommandTest {
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T15:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path dir;

    @Test
    void aWorkstationsDatabaseMovesInWholeAndTheTeamDatabaseGoesOnFromIt() throws Exception {
        Path file = dir.resolve("desk.db");
        long[] counts = new long[DatabaseMove.TABLES.size()];
        try (Database desk = Database.open(file)) {
            // a whole number of the move's batches of 1,000 claims: the last one is reported once
            new DemoData(desk, CLOCK, Deadlines.statutory()).generate(1_000, 7, n -> { });
            // two files, one of them added twice: the evidence folder beside the desk's file holds two
            long pending = desk.read(h -> h.createQuery("SELECT min(claim_id) FROM claim WHERE status ="
                    + " 'EVIDENCE_PENDING'").mapTo(Long.class).one());
            ClaimEvidence evidence = new ClaimEvidence(desk, CLOCK);
            Path deed = java.nio.file.Files.writeString(dir.resolve("deed.pdf"), "deed of trust");
            evidence.addFile(pending, "ownership", deed, null, "j.chen");
            evidence.addFile(pending, "ownership", deed, null, "j.chen");
            evidence.addFile(pending, "address", java.nio.file.Files.writeString(dir.resolve("bill.pdf"), "bill"),
                    null, "j.chen");
            for (int i = 0; i < counts.length; i++) {
                counts[i] = DatabaseMove.count(desk, DatabaseMove.TABLES.get(i));
            }
        }
        DatabaseLocation.Postgres team = TestDatabase.newServerDatabase();
        String url = TestDatabase.url(team);

        CliTest.Run moved = CliTest.run("migrate", "--from", file.toString(), "--to", url);
        assertThat(moved.exit()).as(moved.err()).isZero();
        assertThat(moved.out()).contains("every table's count and checksum match")
                .contains("2 evidence file(s) (17 bytes) are named by the moved rows: copy the files in "
                        + dir.resolve("evidence") + " (not the folder itself) into the team's shared evidence folder,"
                        + " e.g. find " + dir.resolve("evidence") + " -maxdepth 1 -type f ! -name '.incoming-*' -exec"
                        + " install -m 640 {} ");
        assertThat(moved.out().lines().filter(l -> l.contains("evidence file(s)")).findFirst().orElseThrow())
                .as("one file at a time, as BSD's and macOS's install take it: no GNU -t").endsWith(" \\;"
                        + " (docs/operations.md: moving in)");
        assertThat(moved.err()).contains("audit_log:").contains("gathering the planner's statistics")
                .contains("checking claim: its rows read again on both sides, counts and checksums compared");
        assertThat(moved.err().lines().filter("claim: 1,000 of 1,000 rows"::equals)).hasSize(1);
        assertThat(moved.out()).contains("the desk's file is marked moved: its worker is paused, saying where its claims"
                + " went; point the workstation at the team database as its staff role (docs/operations.md: server and database):"
                + " CLAIMDESK_DB=postgresql://STAFF-ROLE@" + team.address() + "/" + team.database())
                .as("never the owner role the move ran as").doesNotContain("CLAIMDESK_DB=" + url);
        // a console or drain left on the old file would deliver the rows the team's workers deliver: held
        try (Database desk = Database.open(file)) {
            java.util.Optional<org.claimdesk.domain.WorkerPause> pause =
                    desk.read(h -> new org.claimdesk.store.WorkerPauseStore().find(h));
            assertThat(pause).hasValueSatisfying(p -> {
                assertThat(p.actor()).isEqualTo(org.claimdesk.app.MoveIn.ACTOR);
                assertThat(p.reason()).startsWith("this desk's claims were moved into database " + team.database()
                        + " on " + team.address() + " at ")
                        .endsWith(": work there (--db or CLAIMDESK_DB), not on this file");
            });
            // its entry names who ran the move (the operator the environment names, else the system account)
            long pauses = desk.read(h -> h.createQuery("SELECT count(*) FROM audit_log WHERE action = 'worker.pause'"
                    + " AND actor = :a").bind("a", org.claimdesk.app.Operators.commandLineActor()).mapTo(Long.class)
                    .one());
            assertThat(pauses).isEqualTo(1);
            CliTest.Run drain = CliTest.run("--db", file.toString(), "drain", "--until-idle");
            assertThat(drain.exit()).as(drain.out() + drain.err()).isEqualTo(1);
            assertThat(drain.out() + drain.err()).contains("moved into");
            CliTest.Run anyway = CliTest.run("--db", file.toString(), "drain", "--until-idle", "--even-if-paused",
                    "--actor", "s.patel", "--reason", "urgent");
            assertThat(anyway.exit()).as(anyway.out() + anyway.err()).isEqualTo(1);
            assertThat(anyway.err()).contains("this desk's claims were moved to a team database")
                    .contains("--even-if-paused included");
            // nor does a console left on the file end that pause
            try (org.claimdesk.delivery.SimulatedStateAdapter state = new org.claimdesk.delivery.SimulatedStateAdapter(
                    new org.claimdesk.delivery.SimulatedState(org.claimdesk.delivery.SimulatedState.Config.reliable()));
                 org.claimdesk.app.AuditedWorker console = new org.claimdesk.app.AuditedWorker(
                         new org.claimdesk.delivery.DeliveryWorker(desk, state,
                                 org.claimdesk.delivery.WorkerSettings.defaults(), CLOCK, Deadlines.statutory()),
                         desk, CLOCK, "s.patel")) {
                assertThat(console.startWithConsole(true)).isEqualTo(org.claimdesk.app.AuditedWorker.Startup.PAUSED);
                assertThatThrownBy(() -> console.resume("back to work"))
                        .hasMessageContaining("this desk's claims were moved to a team database");
                // nor replaces it with a pause of its own, which a resume could then end
                assertThatThrownBy(() -> console.pause("holding for the weekend"))
                        .hasMessageContaining("its worker stays paused as it is");
                assertThat(org.claimdesk.app.AuditedWorker.pauseIn(desk))
                        .hasValueSatisfying(p -> assertThat(p.actor()).isEqualTo(org.claimdesk.app.MoveIn.ACTOR));
                assertThat(org.claimdesk.app.AuditedWorker.pauseIn(desk)).isPresent();
            }
        }

        try (Database db = Database.open(team)) {
            for (int i = 0; i < counts.length; i++) {
                // the team database's audit trail is the desk's, and the move's own entry after it
                boolean audit = DatabaseMove.TABLES.get(i).name().equals("audit_log");
                assertThat(DatabaseMove.count(db, DatabaseMove.TABLES.get(i))).as(DatabaseMove.TABLES.get(i).name())
                        .isEqualTo(counts[i] + (audit ? 1 : 0));
            }
            List<org.claimdesk.domain.AuditEntry> movedIn = new org.claimdesk.app.Queries(db, CLOCK)
                    .audit(null, null, org.claimdesk.domain.AuditActions.DATABASE_MOVE_IN, 0, 0);
            assertThat(movedIn).singleElement().satisfies(e -> {
                assertThat(e.actor()).isEqualTo(org.claimdesk.app.Operators.commandLineActor());
                assertThat(e.details()).contains(file.toString()).contains("\"claim\":1000")
                        .contains("\"workstation\":");
            });
            assertThat(counts[0]).isEqualTo(1_000);
            for (DatabaseMove.Table table : List.of(DatabaseMove.TABLES.get(0), DatabaseMove.TABLES.get(3))) {
                long columnsWithStatistics = db.read(h -> h.createQuery("SELECT count(*) FROM pg_stats WHERE tablename = :t")
                        .bind("t", table.name()).mapTo(Long.class).one());
                assertThat(columnsWithStatistics).as("the planner's statistics of " + table.name()).isPositive();
                boolean vacuumed = db.read(h -> h.createQuery("SELECT last_vacuum IS NOT NULL FROM pg_stat_user_tables"
                        + " WHERE relname = :t").bind("t", table.name()).mapTo(Boolean.class).one());
                assertThat(vacuumed).as(table.name() + " vacuumed").isTrue();
            }
            // each copied batch left a row in its table's tally: the move ends with them folded
            assertThat(Sql.count(db, "outbox_state_tally")).as("the outbox's tally, one row per state")
                    .isLessThanOrEqualTo(DeliveryState.values().length);
            assertThat(Sql.count(db, "claim_status_tally")).as("the claims' tally, one row per status")
                    .isLessThanOrEqualTo(ClaimStatus.values().length);
            assertThat(counts[3]).as("outbox rows").isPositive();
            assertThat(counts[4]).as("attempts").isPositive();
            assertThat(counts[6]).as("audit entries").isPositive();
            // the team database goes on from the copied ids and claim numbers
            Claim created = new ClaimIntake(db, CLOCK).create(Map.of("jurisdiction", "CA", "statePropertyId", "7654321",
                    "holderName", "Wells Fargo Bank NA", "holderId", "HLD-100200", "propertyType", "AC01",
                    "claimType", "OWNER", "claimantName", "Ana Ferreira", "taxId", "123-45-6789",
                    "amountCents", "48213", "filedOn", "2026-11-02"), null, "j.chen", null, null);
            assertThat(created.claimId()).isGreaterThan(1_000);
            long numbersBelow = db.read(h -> h.createQuery("SELECT count(*) FROM claim WHERE claim_number >= :n")
                    .bind("n", created.claimNumber()).mapTo(Long.class).one());
            assertThat(numbersBelow).as("the new claim number comes after every copied one").isEqualTo(1);
            assertThatThrownBy(() -> db.useTransaction(h -> h.execute("DELETE FROM audit_log")))
                    .hasStackTraceContaining("append-only");
        }

        CliTest.Run again = CliTest.run("migrate", "--from", file.toString(), "--to", url);
        assertThat(again.exit()).isEqualTo(1);
        assertThat(again.err().strip()).contains("already holds").doesNotContain("\n");
    }

    @Test
    void aDesksFileOneVersionBehindIsUpgradedAsItOpensAndSaysSo() {
        Path file = dir.resolve("old-desk.db");
        try (Database desk = Database.open(file)) {
            new DemoData(desk, CLOCK, Deadlines.statutory()).generate(40, 3, n -> { });
            desk.useTransaction(h -> org.claimdesk.testing.OlderSchema.undoDownTo(h, false, 21));
        }
        CliTest.Run moved = CliTest.run("migrate", "--from", file.toString(), "--to",
                TestDatabase.url(TestDatabase.newServerDatabase()));
        assertThat(moved.exit()).as(moved.err()).isZero();
        assertThat(moved.err()).startsWith("Bringing the database up to date for this ClaimDesk: schema version 22 of"
                + " 22 (it was at 21)…\n");
        assertThat(moved.out()).contains("every table's count and checksum match");
    }

    /**
     * A team database an older ClaimDesk left in use is refused as it is: its schema is not brought up to date
     * before the refusal (opening it would), so the office's own upgrade stays IT's to run.
     */
    @Test
    void anOlderTeamDatabaseInUseIsRefusedWithItsSchemaUntouched() {
        Path file = dir.resolve("desk.db");
        try (Database desk = Database.open(file)) {
            new DemoData(desk, CLOCK, Deadlines.statutory()).generate(10, 3, n -> { });
        }
        DatabaseLocation.Postgres team = OlderTeamDatabases.at("10", """
                INSERT INTO audit_log (at, actor, action, subject_type, subject_id, reason)
                VALUES (1, 'j.chen', 'claim.edit', 'claim', '7', 'written by an older ClaimDesk')""");

        CliTest.Run refused = CliTest.run("migrate", "--from", file.toString(), "--to", TestDatabase.url(team));

        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err().strip()).isEqualTo("claimdesk: " + team.describe() + " already holds claims, outbox rows or audit"
                + " entries: moving in needs an empty team database, one no console has used yet (a console's first"
                + " start audits its operator, and the audit trail is never emptied): create a new database to move"
                + " into; nothing was copied");
        assertThat(OlderTeamDatabases.recordedVersion(team)).as("the schema version the older ClaimDesk left")
                .isEqualTo(10);
    }

    /**
     * The staff role (its grants as docs/operations.md gives them) cannot move a desk in: the move locks every table,
     * which needs more than staff may do to the audit trail; it stops at that first step and copies nothing.
     */
    @Test
    void theStaffRoleCannotMoveInAndNothingIsCopied() {
        Path file = dir.resolve("desk.db");
        try (Database desk = Database.open(file)) {
            new DemoData(desk, CLOCK, Deadlines.statutory()).generate(20, 5, n -> { });
        }
        DatabaseLocation.Postgres owned = TestDatabase.newServerDatabase();
        DatabaseLocation.Postgres asStaff;
        try (Database db = Database.open(owned)) {
            asStaff = TestDatabase.staffRole(db, "staff_" + owned.database());
        }

        CliTest.Run refused = CliTest.run("migrate", "--from", file.toString(), "--to", TestDatabase.url(asStaff));

        assertThat(refused.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(refused.err().strip()).startsWith("claimdesk: the move stopped (the role " + asStaff.role()
                + " may not do this").contains("nothing of it was kept").doesNotContain("\n")
                .endsWith(": run migrate as the team database's owner role (docs/operations.md: server and database),"
                        + " not a staff role, whose privileges stay as they are").doesNotContain("move in again");
        try (Database db = Database.open(owned)) {
            assertThat(Sql.count(db, "claim")).isZero();
            assertThat(Sql.count(db, "audit_log")).isZero();
        }
    }

    /** A team database that is not there is named in one line, before the desk's file is opened. */
    @Test
    void aTeamDatabaseThatIsNotThereIsNamedInOneLine() {
        Path file = dir.resolve("desk.db");
        try (Database desk = Database.open(file)) {
            assertThat(desk.schemaVersion()).isPositive();
        }
        DatabaseLocation.Postgres server = TestDatabase.newServerDatabase();
        String url = "postgresql://" + server.user() + "@" + server.host() + ":" + server.port() + "/no_such_database";

        CliTest.Run refused = CliTest.run("migrate", "--from", file.toString(), "--to", url);

        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err().strip()).contains("has no database no_such_database").doesNotContain("\n");
    }
}
