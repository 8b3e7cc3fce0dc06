package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.claimdesk.store.Database;
import org.claimdesk.testing.Timestamps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {
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

    @Test
    void demoDataEndsAtTheCommandsNowAndSaysHowManyAuditEntriesItWrote() {
        Path db = dir.resolve("now.db");
        Run demo = run("--db", db.toString(), "demo", "--claims", "500", "--seed", "2");
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
        Path db = dir.resolve("earlier.db");
        Run demo = run("--db", db.toString(), "demo", "--claims", "500", "--seed", "2", "--today", "2026-10-01");
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
        Path db = dir.resolve("future.db");
        Run demo = run("--db", db.toString(), "demo", "--claims", "50", "--today", "2026-12-01");
        assertThat(demo.exit()).isNotZero();
        assertThat(demo.err()).contains("2026-12-01 lies in the future").contains("2026-11-30");
        assertThat(Files.exists(db)).isFalse();
    }
}
