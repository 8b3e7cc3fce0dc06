package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.claimdesk.app.DemoData;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.BulkLoader;
import org.claimdesk.store.Database;
import org.claimdesk.testing.Sql;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code demo} writes a desk's file it has to itself through a rollback journal, into the file as it goes: killed with
 * SIGKILL once the load's pages are in the file, it leaves a journal from which the next opening restores the empty
 * database, which goes back to the write-ahead log and takes a demo again.
 */
class DemoCrashTest {
    private static final int CLAIMS = 200_000;
    /** More than the load's page cache holds: pages are in the file only once the cache has spilled. */
    private static final long SPILLED = 160L * 1024 * 1024;

    @TempDir
    Path dir;

    @Test
    void aKilledDemoIsRolledBackByTheNextOpeningWhichFindsTheFileEmptyInTheLog() throws Exception {
        Path file = dir.resolve("desk.db");
        Database.open(file).close();
        long empty = Files.size(file);
        Path journal = dir.resolve("desk.db-journal");

        Process child = startDemo(file);
        try {
            await().atMost(Duration.ofSeconds(240)).pollInterval(Duration.ofMillis(20))
                    .until(() -> !child.isAlive() || Files.size(file) > empty + SPILLED);
            assertThat(child.isAlive()).as("the demo was still loading; its output: %s",
                    Files.readString(dir.resolve("child.out"))).isTrue();
            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            child.destroyForcibly();
        }
        assertThat(Files.exists(journal)).as("the load's rollback journal, left by the killed process").isTrue();
        assertThat(Files.exists(dir.resolve("desk.db-wal"))).as("no write-ahead log during the load").isFalse();

        try (Database db = Database.open(file)) {
            assertThat(Sql.count(db, "claim")).isZero();
            assertThat(Sql.count(db, "audit_log")).isZero();
            assertThat(Sql.scalar(db, "PRAGMA integrity_check", String.class)).isEqualTo("ok");
            assertThat(Sql.scalar(db, "PRAGMA journal_mode", String.class)).isEqualTo("wal");
            assertThat(Files.exists(journal)).isFalse();
            assertThat(Files.size(file)).as("the pages the load added are gone").isLessThanOrEqualTo(empty);

            DemoData.Summary again = new DemoData(db, Clock.systemDefaultZone(), Deadlines.statutory())
                    .generate(500, 1L, n -> { }, BulkLoader.Access.SOLE);
            assertThat(again.claims()).isEqualTo(500);
            assertThat(Sql.count(db, "claim")).isEqualTo(500);
            assertThat(Sql.scalar(db, "PRAGMA journal_mode", String.class)).isEqualTo("wal");
        }
    }

    private Process startDemo(Path file) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1",
                "-Dclaimdesk.testLogDir=" + dir.resolve("child-logs"),
                "-cp", System.getProperty("java.class.path"), "org.claimdesk.Launcher", "--db", file.toString(),
                "demo", "--claims", Integer.toString(CLAIMS));
        builder.environment().put("CLAIMDESK_HOME", dir.resolve("home").toString());
        builder.redirectErrorStream(true);
        builder.redirectOutput(dir.resolve("child.out").toFile());
        return builder.start();
    }
}
