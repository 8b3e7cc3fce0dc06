package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.DatabaseMove;
import org.claimdesk.store.HealthStore;
import org.claimdesk.store.OutboxStore;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Moving in: when the planner's statistics cannot be gathered, the move is complete and checked all the same; a move
 * that stops keeps nothing, and other workstations cannot write while it runs.
 */
class MoveInTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-02T10:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path dir;

    @Test
    void aMoveWhoseStatisticsCannotBeGatheredIsCompleteAndSaysWhy() throws SQLException {
        Path file = desk();
        DatabaseLocation.Postgres team = TestDatabase.newServerDatabase();
        try (Database admin = Database.open(team)) {
            // ANALYZE then gives up on a table another session holds, rather than waiting for it
            admin.useTransaction(h -> h.execute("ALTER DATABASE " + team.database() + " SET lock_timeout = '300ms'"));
        }
        List<String> reasons = new ArrayList<>();
        try (Database from = Database.open(file); Database to = Database.open(team);
             Connection other = DriverManager.getConnection(team.jdbcUrl(), team.user(), "")) {
            other.setAutoCommit(false);
            MoveIn.Result result = new MoveIn(from, to).run(new MoveIn.Progress() {
                @Override
                public void copied(String table, long rows, long ofRows) {
                }

                @Override
                public void gatheringStatistics() {
                    try (Statement s = other.createStatement()) {
                        s.execute("LOCK TABLE worker_pause IN ACCESS EXCLUSIVE MODE");
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }

                @Override
                public void statisticsNotGathered(String reason) {
                    reasons.add(reason);
                }
            });
            other.rollback();

            // the store words the server's lock timeout
            assertThat(reasons).singleElement().asString().contains("another workstation holds what this needs");
            assertThat(result.tables()).hasSize(DatabaseMove.TABLES.size());
            assertThat(DatabaseMove.count(to, DatabaseMove.TABLES.get(0))).isEqualTo(60);
            assertThat(DatabaseMove.count(to, DatabaseMove.TABLES.get(0)))
                    .isEqualTo(DatabaseMove.count(from, DatabaseMove.TABLES.get(0)));
        }
    }

    /**
     * The move's connection is cut halfway (as a network or server failure would): nothing of it stays in the team
     * database, the message says so, and the move runs again. While it ran, another workstation could not write.
     */
    @Test
    void aMoveThatStopsHalfwayKeepsNothingAndOthersCannotWriteWhileItRuns() throws SQLException {
        Path file = desk();
        DatabaseLocation.Postgres team = TestDatabase.newServerDatabase();
        List<String> otherWrite = new ArrayList<>();
        try (Database from = Database.open(file); Database to = Database.open(team);
             Connection other = DriverManager.getConnection(team.jdbcUrl(), team.user(), "")) {
            assertThatThrownBy(() -> new MoveIn(from, to).run((table, rows, ofRows) -> {
                if (table.equals("claim") && otherWrite.isEmpty()) {
                    otherWrite.add(writeMeanwhile(other, "SET lock_timeout = '300ms'", SQLException::getSQLState));
                }
                if (table.equals("outbox_event")) {
                    try (Statement s = other.createStatement()) {
                        s.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
                                + " AND pid <> pg_backend_pid() AND state = 'idle in transaction'");
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }
            })).hasMessageStartingWith("the move stopped (")
                    .hasMessageContaining("nothing of it was kept, " + team.describe() + " is as it was: move in again");
            assertThat(otherWrite).as("a write elsewhere waits for the move and gives up at its lock timeout")
                    .containsExactly("55P03");
        }
        try (Database from = Database.open(file); Database to = Database.open(team)) {
            assertThat(DatabaseMove.isEmpty(to)).isTrue();
            assertThat(DatabaseMove.count(to, DatabaseMove.TABLES.get(1))).as("history").isZero();

            MoveIn.Result again = new MoveIn(from, to).run((table, rows, ofRows) -> { });
            assertThat(again.tables()).hasSize(DatabaseMove.TABLES.size());
            assertThat(DatabaseMove.count(to, DatabaseMove.TABLES.get(0))).isEqualTo(60);
            // the counts staff see: both tallies agree with the rows moved, the outbox's with the source's
            assertThat(to.read(new HealthStore()::tallyDifferences)).matches(HealthStore.Tallies::agree);
            assertThat(to.read(new OutboxStore()::countByState)).isEqualTo(from.read(new OutboxStore()::countByState));
        }
    }

    /**
     * The answer to the move's commit lost (a connection cut at that moment) after the server committed: the move
     * says it is made, not that nothing was kept (which moving in again, refused by a team database that holds
     * claims, would then seem to contradict); at a commit the server did not make, that nothing was kept. What the
     * server made of the move's transaction decides, not whether the database holds claims.
     */
    @Test
    void aMoveWhoseCommitsAnswerWasLostSaysItIsMade() {
        Path file = desk();
        DatabaseLocation.Postgres team = TestDatabase.newServerDatabase();
        try (Database from = Database.open(file); Database to = Database.open(team)) {
            org.claimdesk.testing.CommitFault<Long> fault = org.claimdesk.testing.CommitFault.install(to,
                    Thread.currentThread().getName(), true,
                    h -> h.createQuery("SELECT count(*) FROM claim").mapTo(Long.class).one(),
                    (start, commit) -> commit > start);

            assertThatThrownBy(() -> new MoveIn(from, to).run((table, rows, ofRows) -> { }))
                    .hasMessage("the answer to the move's commit was lost (" + org.claimdesk.testing.CommitFault.MESSAGE
                            + "), but " + team.describe() + " committed it: every row was copied and its counts and"
                            + " checksums matched before the commit; the move is made: look with claimdesk --db …"
                            + " doctor, and copy the evidence files as docs/operations.md says (moving in); the desk's"
                            + " file is marked moved (its worker paused, saying where its claims went)");
            assertThat(fault.struck()).isTrue();
            assertThat(DatabaseMove.count(to, DatabaseMove.TABLES.get(0))).isEqualTo(60);
            assertThat(pauseOf(from)).hasValueSatisfying(p -> assertThat(p.reason())
                    .startsWith("this desk's claims were moved into database " + team.database() + " on "
                            + team.address() + " at "));
        }
        // the same failure at a commit the server did not make: nothing was kept
        DatabaseLocation.Postgres other = TestDatabase.newServerDatabase();
        try (Database from = Database.open(file); Database to = Database.open(other)) {
            org.claimdesk.testing.CommitFault.install(to, Thread.currentThread().getName(), false,
                    h -> h.createQuery("SELECT count(*) FROM claim").mapTo(Long.class).one(),
                    (start, commit) -> commit > start);

            assertThatThrownBy(() -> new MoveIn(from, to).run((table, rows, ofRows) -> { }))
                    .hasMessageEndingWith("nothing of it was kept, " + other.describe() + " is as it was: move in"
                            + " again");
            assertThat(DatabaseMove.isEmpty(to)).isTrue();
            assertThat(pauseOf(from)).as("the desk as it was").hasValueSatisfying(p -> assertThat(p.reason())
                    .contains("database " + team.database() + " on "));
        }
        // moved once more (the first team database was a trial): the first move's pause stays the desk's own
        DatabaseLocation.Postgres third = TestDatabase.newServerDatabase();
        try (Database from = Database.open(file); Database to = Database.open(third)) {
            MoveIn.Result moved = new MoveIn(from, to).run((table, rows, ofRows) -> { });
            assertThat(moved.deskMarked()).isTrue();
            assertThat(pauseOf(to)).as("the team database's worker is not held by the desk's move").isEmpty();
            assertThat(pauseOf(from)).hasValueSatisfying(p -> assertThat(p.reason())
                    .contains("database " + third.database() + " on "));
        }
    }

    private static java.util.Optional<org.claimdesk.domain.WorkerPause> pauseOf(Database db) {
        return db.read(h -> new org.claimdesk.store.WorkerPauseStore().find(h));
    }

    /**
     * A desk's file that another program is writing (a console's worker, a drain) is refused before anything is
     * copied: the move would read a file changing under it; while the move runs, the desk's file takes no write.
     */
    @Test
    void aDeskFileBeingWrittenIsRefusedAndNoneIsWrittenWhileTheMoveReadsIt() throws SQLException {
        Path file = desk();
        DatabaseLocation.Postgres team = TestDatabase.newServerDatabase();
        List<String> deskWrite = new ArrayList<>();
        try (Database from = Database.open(file, 300); Database to = Database.open(team);
             Connection writer = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            try (Statement s = writer.createStatement()) {
                s.execute("BEGIN IMMEDIATE");
                s.execute("UPDATE claim_number_sequence SET last = last");
            }
            assertThatThrownBy(() -> new MoveIn(from, to).run((table, rows, ofRows) -> { }))
                    .hasMessage("the desk's file " + file + " is being written by another program (a console or a"
                            + " drain on it): close it, then move in; nothing was copied");
            assertThat(DatabaseMove.isEmpty(to)).isTrue();
            try (Statement s = writer.createStatement()) {
                s.execute("ROLLBACK");
            }

            MoveIn.Result moved = new MoveIn(from, to).run((table, rows, ofRows) -> {
                if (table.equals("claim") && deskWrite.isEmpty()) {
                    deskWrite.add(writeMeanwhile(writer, "PRAGMA busy_timeout = 200",
                            e -> e.getMessage().contains("SQLITE_BUSY") ? "busy" : e.getMessage()));
                }
            });
            assertThat(moved.tables()).hasSize(DatabaseMove.TABLES.size());
            assertThat(deskWrite).as("a write on the desk waits for the move and gives up").containsExactly("busy");
        }
    }

    /**
     * A value the server cannot store (here a NUL character in a claimant's name, which a file keeps): the move stops
     * naming the table, the rows and the server's reason, not the values the driver's message would quote (the
     * claim's tax id among them), and says that moving in again stops the same way until the row is corrected.
     */
    @Test
    void aRowTheServerCannotStoreStopsTheMoveNamingItWithoutItsValues() throws SQLException {
        Path file = desk();
        String taxId;
        try (Database desk = Database.open(file)) {
            desk.useTransaction(h -> h.execute("UPDATE claim SET claimant_name = 'Ana' || char(0) || 'Ruiz'"
                    + " WHERE claim_id = 7"));
            taxId = desk.read(h -> h.createQuery("SELECT tax_id FROM claim WHERE claim_id = 7").mapTo(String.class).one());
        }
        DatabaseLocation.Postgres team = TestDatabase.newServerDatabase();
        try (Database from = Database.open(file); Database to = Database.open(team)) {
            assertThatThrownBy(() -> new MoveIn(from, to).run((table, rows, ofRows) -> { }))
                    .hasMessageStartingWith("the move stopped (cannot copy claim rows with claim_id 1 to 60: ")
                    .hasMessageContaining("[22021]")
                    .hasMessageContaining("moving in again stops the same way until that row is corrected on the desk")
                    .hasMessageNotContaining(": move in again")
                    .hasMessageNotContaining("INSERT INTO")
                    .hasMessageNotContaining(taxId)
                    // nor is the driver's exception kept as a cause, which a log would print with its message
                    .satisfies(e -> assertThat(e.getCause()).hasNoCause());
            assertThat(DatabaseMove.isEmpty(to)).isTrue();
        }
    }

    /**
     * A team database in use is refused in one sentence before the move locks its tables: the lock would wait for a
     * workstation's open write (here past the lock timeout, ending as "the move stopped") and hold up the others.
     */
    @Test
    void aTeamDatabaseInUseIsRefusedBeforeItsTablesAreLocked() throws SQLException {
        Path file = desk();
        DatabaseLocation.Postgres team = TestDatabase.newServerDatabase();
        try (Database from = Database.open(file); Database to = Database.open(team)) {
            to.useTransaction(h -> h.execute("ALTER DATABASE " + team.database() + " SET lock_timeout = '300ms'"));
            new MoveIn(from, to).run((table, rows, ofRows) -> { });
        }
        try (Database from = Database.open(file); Database to = Database.open(team);
             Connection writer = DriverManager.getConnection(team.jdbcUrl(), team.user(), "")) {
            writer.setAutoCommit(false);
            try (Statement s = writer.createStatement()) {
                s.execute("UPDATE claim SET version = version WHERE claim_id = (SELECT min(claim_id) FROM claim)");
            }
            assertThatThrownBy(() -> new MoveIn(from, to).run((table, rows, ofRows) -> { }))
                    .hasMessage(team.describe() + " already holds claims, outbox rows or audit entries: moving in needs"
                            + " an empty team database, one no console has used yet (a console's first start audits"
                            + " its operator, and the audit trail is never emptied): create a new database to move"
                            + " into; nothing was copied");
            writer.rollback();
        }
    }

    /**
     * Before opening a team database, the move reads whether it is empty through a connection of its own: a database
     * with nothing in it and one with ClaimDesk's empty tables are (and the check creates nothing); one holding an
     * audit entry is not.
     */
    @Test
    void aTeamDatabaseIsFoundEmptyOrInUseWithoutOpeningIt() throws SQLException {
        DatabaseLocation.Postgres nothing = TestDatabase.newEmptyServerDatabase();
        MoveIn.refuseUnlessEmpty(nothing);
        assertThat(DatabaseMove.isEmpty(nothing)).isTrue();
        try (Connection c = DriverManager.getConnection(nothing.jdbcUrl(), nothing.user(), "");
                Statement s = c.createStatement();
                var tables = s.executeQuery("SELECT count(*) FROM pg_tables"
                        + " WHERE schemaname NOT IN ('pg_catalog', 'information_schema')")) {
            tables.next();
            assertThat(tables.getInt(1)).as("tables created by the check").isZero();
        }

        DatabaseLocation.Postgres team = TestDatabase.newServerDatabase();
        assertThat(DatabaseMove.isEmpty(team)).isTrue();
        try (Connection c = DriverManager.getConnection(team.jdbcUrl(), team.user(), "");
                Statement s = c.createStatement()) {
            s.execute("INSERT INTO audit_log (at, actor, action, subject_type, subject_id, reason)"
                    + " VALUES (1, 'j.chen', 'claim.edit', 'claim', '7', 'before the move')");
        }
        assertThat(DatabaseMove.isEmpty(team)).isFalse();
        assertThatThrownBy(() -> MoveIn.refuseUnlessEmpty(team))
                .hasMessage(team.describe() + " already holds claims, outbox rows or audit entries: moving in needs"
                        + " an empty team database, one no console has used yet (a console's first start audits"
                        + " its operator, and the audit trail is never emptied): create a new database to move"
                        + " into; nothing was copied");
    }

    /** A desk's file with 60 demo claims. */
    /**
     * A write of the claim number sequence on {@code other} while a move runs, after {@code waitSetting} (how long it
     * waits for a lock): "written", or what {@code refused} makes of its refusal.
     */
    private static String writeMeanwhile(Connection other, String waitSetting,
            java.util.function.Function<SQLException, String> refused) {
        try (Statement s = other.createStatement()) {
            s.execute(waitSetting);
            s.execute("UPDATE claim_number_sequence SET last = last");
            return "written";
        } catch (SQLException e) {
            return refused.apply(e);
        }
    }

    private Path desk() {
        Path file = dir.resolve("desk.db");
        try (Database desk = Database.open(file)) {
            new DemoData(desk, CLOCK, Deadlines.statutory()).generate(60, 3, n -> { });
        }
        return file;
    }
}
