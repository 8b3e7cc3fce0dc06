package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code claims export --include-tax-id} in a child JVM is killed with SIGKILL while it writes: the tax ids already
 * on disk (its owner-only partial file) are in the audit trail, because the entry is written before the first row.
 */
class ExportCrashTest {
    static final int CLAIMS = 50_000;
    static final Pattern WHOLE_TAX_ID = Pattern.compile("\\d{3}-\\d{2}-\\d{4}");

    @TempDir
    Path dir;

    @Test
    void aKilledExportWithTaxIdsIsAlreadyAudited() throws Exception {
        Path csv = ClaimImportTest.validRows(dir.resolve("claims.csv"), CLAIMS);
        Path file = dir.resolve("office.db");
        try (Database db = Database.open(new DatabaseLocation.SqliteFile(file))) {
            new ClaimImport(db, ClaimIntakeTest.CLOCK).run(csv, "s.patel", ClaimImport.Options.defaults());
        }
        Path target = dir.resolve("export.csv");
        // the byte-order mark and the header, then rows: wait for rows well past the header
        long rowsOnDisk = String.join(",", ClaimImport.columns()).length() + 4_096;

        Process child = startExport(file, target);
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(2))
                    .until(() -> !child.isAlive()
                            || CsvFileTest.parts(target).stream().anyMatch(p -> size(p) > rowsOnDisk));
            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            child.destroyForcibly();
        }

        assertThat(target).as("the kill landed while the export wrote").doesNotExist();
        assertThat(CsvFileTest.parts(target)).singleElement()
                .satisfies(part -> assertThat(Files.readString(part)).containsPattern(WHOLE_TAX_ID));
        try (Database db = Database.open(new DatabaseLocation.SqliteFile(file))) {
            List<AuditEntry> entries = new Queries(db, ClaimIntakeTest.CLOCK)
                    .audit(null, null, AuditActions.CLAIMS_EXPORT_TAX_IDS, 0, 0);
            assertThat(entries).singleElement().satisfies(e -> {
                assertThat(e.actor()).isEqualTo("j.chen");
                assertThat(e.reason()).isEqualTo("the state auditor asked for them");
                assertThat(e.subjectId()).isEqualTo("export.csv");
                Map<String, Object> details = Json.readObject(e.details());
                assertThat(((Number) details.get("claims")).intValue()).isEqualTo(CLAIMS);
            });

            // the next export to that file clears the killed one's partial file and puts its own in place
            new ClaimExport(db, ClaimIntakeTest.CLOCK).run(target, ClaimQuery.all(),
                    ClaimExport.TaxIds.included("j.chen", "again, whole"));
        }
        assertThat(CsvFileTest.parts(target)).isEmpty();
        assertThat(Files.readAllLines(target)).hasSize(CLAIMS + 1);
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (java.io.IOException e) {
            return 0;
        }
    }

    private Process startExport(Path db, Path target) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Dclaimdesk.testLogDir=" + dir.resolve("child-logs"),
                "-cp", System.getProperty("java.class.path"), "org.claimdesk.Launcher", "--db", db.toString(),
                "claims", "export", "--to", target.toString(), "--include-tax-id", "--actor", "j.chen",
                "--reason", "the state auditor asked for them");
        builder.environment().put("CLAIMDESK_HOME", dir.resolve("home").toString());
        builder.redirectErrorStream(true);
        builder.redirectOutput(dir.resolve("child.out").toFile());
        return builder.start();
    }
}
