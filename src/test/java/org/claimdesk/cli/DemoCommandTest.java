package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Timestamps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class DemoCommandTest {
    @Parameter
    TestDatabase.Engine engine;

    private static final Instant NOW = Instant.parse("2026-11-30T08:15:00Z");

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {
    }

    /** Runs the CLI with its clock fixed at {@link #NOW}. */
    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        ClaimDeskCommand command = new ClaimDeskCommand(null);
        command.clock = Clock.fixed(NOW, ZoneOffset.UTC);
        var cl = ClaimDeskCommand.newCommandLine(command);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    /**
     * Demo data and a bench's seed write rows with their ids and set the id sequences after them, which only a team
     * database's owner role may: the staff role is refused before anything is written, with what to do.
     */
    @Test
    void theStaffRoleIsRefusedDemoDataAndABenchSeedBeforeAnythingIsWritten() {
        org.junit.jupiter.api.Assumptions.assumeTrue(engine == TestDatabase.Engine.POSTGRESQL, "a team database's roles");
        DatabaseLocation.Postgres owned = TestDatabase.newServerDatabase();
        DatabaseLocation.Postgres asStaff;
        try (Database db = Database.open(owned)) {
            asStaff = TestDatabase.staffRole(db, "staff_" + owned.database());
        }

        Run demo = run("--db", TestDatabase.url(asStaff), "demo", "--claims", "300", "--seed", "2");

        assertThat(demo.exit()).isEqualTo(1);
        assertThat(demo.err().strip()).isEqualTo("claimdesk: the role " + asStaff.role() + " may not load demo data on"
                + " this team database: it writes rows with their ids and sets the id sequences after them, which the"
                + " owner role does; run it as the owner role (docs/operations.md: server and database); nothing was"
                + " written");
        try (Database db = Database.open(asStaff)) {
            assertThatThrownBy(() -> org.claimdesk.store.BenchmarkStore.seedSubmitting(db, 10))
                    .hasMessageStartingWith("the role " + asStaff.role() + " may not seed a benchmark on this team");
        }
        try (Database db = Database.open(owned)) {
            assertThat(org.claimdesk.testing.Sql.count(db, "claim")).isZero();
            assertThat(org.claimdesk.testing.Sql.count(db, "audit_log")).isZero();
        }
    }

    @Test
    void demoDataEndsAtTheCommandsNowAndSaysHowManyAuditEntriesItWrote() {
        DatabaseLocation db = TestDatabase.location(engine, dir, "now");
        Run demo = run("--db", TestDatabase.argument(db), "demo", "--claims", "500", "--seed", "2");
        assertThat(demo.exit()).as(demo.err()).isZero();
        assertThat(demo.out()).containsPattern("500 claims, \\d+ outbox rows, \\d+ delivery attempts, \\d+ history rows, "
                + "[1-9]\\d* audit entries written to ");
        try (Database opened = Database.open(db)) {
            assertThat(Timestamps.afterNow(opened, NOW, ZoneOffset.UTC)).allSatisfy((column, n) ->
                    assertThat(n).as("%s after now", column).isZero());
        }
    }

    @Test
    void anEarlierTodayEndsTheDataAtTheEndOfThatDay() {
        DatabaseLocation db = TestDatabase.location(engine, dir, "earlier");
        Run demo = run("--db", TestDatabase.argument(db), "demo", "--claims", "500", "--seed", "2", "--today", "2026-10-01");
        assertThat(demo.exit()).as(demo.err()).isZero();
        try (Database opened = Database.open(db)) {
            assertThat(Timestamps.afterNow(opened, Instant.parse("2026-10-01T23:59:59.999Z"), ZoneOffset.UTC))
                    .allSatisfy((column, n) -> assertThat(n).as("%s after the day", column).isZero());
            String lastFiled = opened.read(h -> h.createQuery("SELECT max(filed_on) FROM claim").mapTo(String.class).one());
            assertThat(lastFiled).isEqualTo("2026-10-01");
        }
    }

    @Test
    void aTodayInTheFutureIsRefusedWithTheReasonAndWritesNothing() {
        DatabaseLocation db = TestDatabase.location(engine, dir, "future");
        Run demo = run("--db", TestDatabase.argument(db), "demo", "--claims", "50", "--today", "2026-12-01");
        assertThat(demo.exit()).isNotZero();
        assertThat(demo.err()).contains("2026-12-01 lies in the future").contains("2026-11-30");
        if (db instanceof DatabaseLocation.SqliteFile file) {
            assertThat(Files.exists(file.file())).isFalse();
        } else {
            try (Database opened = Database.open(db)) {
                int claims = opened.read(h -> h.createQuery("SELECT count(*) FROM claim").mapTo(Integer.class).one());
                assertThat(claims).isZero();
            }
        }
    }
}
