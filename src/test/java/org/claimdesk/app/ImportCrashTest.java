package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.store.Database;
import org.claimdesk.testing.Sql;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code claims import} in a child JVM is killed with SIGKILL once its first batches are in: whole batches only are
 * left, and the same import run again completes the file without a duplicate.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class ImportCrashTest {
    @Parameter
    TestDatabase.Engine engine;

    static final int ROWS = 30_000;

    @TempDir
    Path dir;

    @Test
    void aKilledImportLeavesWholeBatchesAndRunningItAgainCompletesItWithoutDuplicates() throws Exception {
        Path file = ClaimImportTest.validRows(dir.resolve("big.csv"), ROWS);
        DatabaseLocation location = TestDatabase.location(engine, dir, "office");
        try (Database db = Database.open(location)) {
            Process child = startImport(location, file);
            AtomicInteger seen = new AtomicInteger();
            try {
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(2))
                        .until(() -> !child.isAlive() || seen.updateAndGet(n -> Sql.count(db, "claim")) > 0);
                child.destroyForcibly();
                assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            } finally {
                child.destroyForcibly();
            }
            int left = Sql.count(db, "claim");
            assertThat(left).as("the kill landed mid-import (%d of %d rows in)", left, ROWS).isBetween(1, ROWS - 1);
            assertThat(left % ClaimImport.BATCH_ROWS).as("whole batches only").isZero();
            assertThat(Sql.count(db, "claim_status_history")).isEqualTo(left);
            // the import's entry goes with its last batch; the one saying it began went with its first
            assertThat(Sql.count(db, "audit_log")).isEqualTo(1);
            assertThat(Sql.scalar(db, "SELECT action FROM audit_log", String.class))
                    .isEqualTo(AuditActions.CLAIMS_IMPORT_BEGIN);

            ClaimImport.Report again = new ClaimImport(db, ClaimIntakeTest.CLOCK).run(file, "s.patel",
                    ClaimImport.Options.defaults());
            assertThat(again.alreadyPresent()).isEqualTo(left);
            assertThat(again.imported()).isEqualTo(ROWS - left);
            assertThat(Sql.count(db, "claim")).isEqualTo(ROWS);
            assertThat(Sql.scalar(db, "SELECT count(DISTINCT state_property_id) FROM claim", Integer.class)).isEqualTo(ROWS);
            assertThat(Sql.scalar(db, "SELECT count(DISTINCT claim_number) FROM claim", Integer.class)).isEqualTo(ROWS);
            assertThat(Sql.count(db, "claim_status_history")).isEqualTo(ROWS);
            assertThat(Sql.scalar(db, "SELECT count(*) FROM audit_log WHERE action = '" + AuditActions.CLAIMS_IMPORT
                    + "'", Integer.class)).isEqualTo(1);
        }
    }

    private Process startImport(DatabaseLocation location, Path file) throws Exception {
        String db = location instanceof DatabaseLocation.Postgres server ? TestDatabase.url(server)
                : ((DatabaseLocation.SqliteFile) location).file().toString();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Dclaimdesk.testLogDir=" + dir.resolve("child-logs"),
                "-cp", System.getProperty("java.class.path"), "org.claimdesk.Launcher", "--db", db,
                "claims", "import", file.toString(), "--actor", "s.patel");
        builder.environment().put("CLAIMDESK_HOME", dir.resolve("home").toString());
        builder.redirectErrorStream(true);
        builder.redirectOutput(dir.resolve("child.out").toFile());
        return builder.start();
    }
}
