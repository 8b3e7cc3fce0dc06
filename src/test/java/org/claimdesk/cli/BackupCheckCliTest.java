package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Arrays;
import org.claimdesk.store.Migrations;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code claimdesk backup --check}: real dumps pg_dump wrote (src/test/resources/dumps/README.md) read to their end
 * with no PostgreSQL client; cut or damaged copies of them refused with one sentence and exit 1.
 */
class BackupCheckCliTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"claimdesk-pg14.dump", "claimdesk-pg14-uncompressed.dump", "claimdesk-pg14.sql"})
    void aWholeDumpShowsItsOriginSchemaVersionAndTheRowsOfEveryTable(String name) {
        Path dump = fixture(name);

        CliTest.Run run = CliTest.run("backup", "--check", dump.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("dump " + dump + ": ")
                .contains("by pg_dump 15.18 (Debian 15.18-0+deb12u1) from PostgreSQL 14.22")
                .contains("schema version 8 (older: this ClaimDesk upgrades it to version " + Migrations.latestVersion()
                        + " when it opens the restored database)")
                .containsPattern("claim +12 rows")
                .containsPattern("claim_status_history +51 rows")
                .containsPattern("outbox_event +7 rows")
                .containsPattern("delivery_attempt +16 rows")
                .containsPattern("evidence +10 rows")
                .containsPattern("audit_log +46 rows")
                .containsPattern("request_key +0 rows")
                .containsPattern("worker_pause +0 rows")
                .containsPattern("claim_number_sequence +1 rows")
                .containsPattern("flyway_schema_history +1 rows")
                .contains("dump check passed: 12 claims");
        if (name.endsWith(".dump")) {
            assertThat(run.out()).contains("database claimdesk, dumped 2026-12-01 05:30:08 (pg_dump's local time)")
                    .contains("custom archive 1.14, " + (name.contains("uncompressed") ? "uncompressed" : "gzip"));
        } else {
            assertThat(run.out()).contains(": by pg_dump 15.18").contains("plain SQL, uncompressed");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"claimdesk-pg14.dump", "claimdesk-pg14-uncompressed.dump", "claimdesk-pg14.sql"})
    void aDumpCutAnywhereInItsDataIsRefusedWithOneSentence(String name) throws IOException {
        byte[] whole = Files.readAllBytes(fixture(name));
        for (double fraction : new double[] {0.6, 0.8, 0.95, 0.99}) {
            Path cut = Files.write(dir.resolve("cut-" + fraction + "-" + name),
                    Arrays.copyOf(whole, (int) (whole.length * fraction)));

            CliTest.Run run = CliTest.run("backup", "--check", cut.toString());

            assertThat(run.exit()).as("cut at %s", fraction).isEqualTo(1);
            assertThat(run.out()).isEmpty();
            assertThat(run.err().strip()).startsWith("claimdesk: " + cut + " is truncated: it ends ")
                    .endsWith("; make the dump again").doesNotContain("\n");
        }
    }

    @Test
    void aDumpCutInItsHeaderOrTableOfContentsIsRefused() throws IOException {
        byte[] whole = Files.readAllBytes(fixture("claimdesk-pg14.dump"));
        for (int length : new int[] {8, 40, 2_000}) {
            Path cut = Files.write(dir.resolve("head-" + length + ".dump"), Arrays.copyOf(whole, length));

            CliTest.Run run = CliTest.run("backup", "--check", cut.toString());

            assertThat(run.exit()).isEqualTo(1);
            assertThat(run.err().strip()).isEqualTo("claimdesk: " + cut + " is truncated: it ends within its header"
                    + " or table of contents; make the dump again");
        }
    }

    @Test
    void damagedCompressedDataIsRefused() throws IOException {
        byte[] bytes = Files.readAllBytes(fixture("claimdesk-pg14.dump"));
        // the claims' compressed data: after the table of contents, the largest data blocks come near the end
        int at = bytes.length - bytes.length / 10;
        for (int i = at; i < at + 64; i++) {
            bytes[i] ^= 0x5A;
        }
        Path damaged = Files.write(dir.resolve("damaged.dump"), bytes);

        CliTest.Run run = CliTest.run("backup", "--check", damaged.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err().strip()).startsWith("claimdesk: " + damaged + " is ").doesNotContain("\n");
        assertThat(run.err()).containsAnyOf("is damaged: ", "is truncated: ");
    }

    @Test
    void aDumpOfAnotherDatabaseIsRefused() {
        Path dump = fixture("inventory-pg14.dump");

        CliTest.Run run = CliTest.run("backup", "--check", dump.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err().strip()).isEqualTo("claimdesk: " + dump + " is a dump of database inventory, which is"
                + " not a ClaimDesk database (it has no claim table)");
    }

    /**
     * A dump restores a working, append-only database only with every table's definition and the audit trail's
     * triggers: one made with --data-only or a --section short of them is no whole dump.
     */
    @Test
    void aDumpWithoutATablesDefinitionOrTheAuditTrailsTriggersIsNotWhole() throws IOException {
        List<String> sql = Files.readAllLines(fixture("claimdesk-pg14.sql"));
        Path noTrigger = Files.write(dir.resolve("no-trigger.sql"),
                sql.stream().filter(l -> !l.startsWith("CREATE TRIGGER audit_log_no_update ")).toList());
        int start = sql.indexOf("CREATE TABLE public.claim_status_history (");
        int end = start + sql.subList(start, sql.size()).indexOf(");");
        List<String> withoutDefinition = new ArrayList<>(sql.subList(0, start));
        withoutDefinition.addAll(sql.subList(end + 1, sql.size()));
        Path noDefinition = Files.write(dir.resolve("no-definition.sql"), withoutDefinition);

        CliTest.Run trigger = CliTest.run("backup", "--check", noTrigger.toString());
        CliTest.Run definition = CliTest.run("backup", "--check", noDefinition.toString());

        assertThat(trigger.exit()).isEqualTo(1);
        assertThat(trigger.err().strip()).isEqualTo("claimdesk: " + noTrigger + " is not a whole ClaimDesk dump: it"
                + " does not define the trigger audit_log_no_update that keeps the audit trail append-only (made with"
                + " --section?); make the dump again with pg_dump -Fc and no table or section options");
        assertThat(definition.exit()).isEqualTo(1);
        assertThat(definition.err().strip()).isEqualTo("claimdesk: " + noDefinition + " is not a whole ClaimDesk"
                + " dump: it holds the data of claim_status_history but not its definition (made with --data-only?);"
                + " make the dump again with pg_dump -Fc and no table or section options");
    }

    /**
     * A dump made with --inserts restores, but its data are INSERT statements, not the COPY blocks this check counts:
     * it is refused naming the option, not taken for a dump without data.
     */
    @Test
    void aDumpOfInsertStatementsIsRefusedNamingTheOption() throws IOException {
        List<String> inserts = new ArrayList<>();
        boolean inCopy = false;
        for (String line : Files.readAllLines(fixture("claimdesk-pg14.sql"))) {
            if (line.startsWith("COPY ")) {
                inCopy = true;
                inserts.add("INSERT INTO " + line.substring(5, line.indexOf(" FROM stdin;")) + " VALUES (1);");
            } else if (inCopy) {
                inCopy = !line.equals("\\.");
            } else {
                inserts.add(line);
            }
        }
        Path dump = Files.write(dir.resolve("inserts.sql"), inserts);

        CliTest.Run run = CliTest.run("backup", "--check", dump.toString());

        // and a custom-format one (pg_dump 15.18 -Fc --inserts of five demo claims)
        Path custom = fixture("claimdesk-pg15-inserts.dump");
        CliTest.Run customRun = CliTest.run("backup", "--check", custom.toString());

        for (Map.Entry<Path, CliTest.Run> e : Map.of(dump, run, custom, customRun).entrySet()) {
            assertThat(e.getValue().exit()).isEqualTo(1);
            assertThat(e.getValue().err().strip()).isEqualTo("claimdesk: " + e.getKey() + " holds its data as INSERT"
                    + " statements (pg_dump --inserts or --column-inserts), which this check does not read; make the"
                    + " dump again with pg_dump -Fc and no --inserts");
        }
    }

    @Test
    void aFileThatIsNoDumpIsRefusedWithWhatItIs() throws IOException {
        Path text = Files.writeString(dir.resolve("notes.txt"), "claims to call back on Monday\n");
        Path missing = dir.resolve("nothing-here.dump");

        CliTest.Run notADump = CliTest.run("backup", "--check", text.toString());
        CliTest.Run none = CliTest.run("backup", "--check", missing.toString());

        assertThat(notADump.exit()).isEqualTo(1);
        assertThat(notADump.err().strip()).isEqualTo("claimdesk: " + text + " is neither a ClaimDesk backup nor a"
                + " dump pg_dump wrote; check a backup made with claimdesk backup --to or pg_dump -Fc");
        assertThat(none.exit()).isEqualTo(1);
        assertThat(none.err().strip()).isEqualTo("claimdesk: there is no file " + missing + " to check");
    }

    /** A workstation's backup shows what a dump does: its schema version against this build's, rows per table. */
    @Test
    void aWorkstationBackupIsCheckedToo() throws Exception {
        Path file = dir.resolve("desk.db");
        assertThat(CliTest.run("--db", file.toString(), "demo", "--claims", "40", "--seed", "2").exit()).isZero();
        Path copy = dir.resolve("copy.db");
        assertThat(CliTest.run("--db", file.toString(), "backup", "--to", copy.toString()).exit()).isZero();

        CliTest.Run run = CliTest.run("backup", "--check", copy.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).as("a backup is made owner-only").isEmpty();
        assertThat(run.out()).startsWith("backup " + copy + ": a workstation's database, SQLite's integrity check"
                + " passed\n  schema version " + Migrations.latestVersion() + " (this ClaimDesk writes version "
                + Migrations.latestVersion() + ")\n")
                .containsPattern("claim +40 rows").containsPattern("outbox_event +\\d+ rows")
                .containsPattern("audit_log +\\d+ rows").containsPattern("claim_number_sequence +1 rows")
                .endsWith("backup check passed: 40 claims\n");

        // a backup a newer ClaimDesk wrote
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + copy);
                java.sql.Statement s = c.createStatement()) {
            s.execute("PRAGMA user_version = " + (Migrations.latestVersion() + 1));
        }
        assertThat(CliTest.run("backup", "--check", copy.toString()).out()).contains("schema version "
                + (Migrations.latestVersion() + 1) + " (newer than this ClaimDesk, which writes version "
                + Migrations.latestVersion() + ": restore it for a newer ClaimDesk)");

        // a copy an older ClaimDesk made, before a table was added: checked, the table left out
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + copy);
                java.sql.Statement s = c.createStatement()) {
            s.execute("DROP TABLE claim_number_sequence");
            s.execute("PRAGMA user_version = 7");
        }
        CliTest.Run older = CliTest.run("backup", "--check", copy.toString());
        assertThat(older.exit()).as(older.err()).isZero();
        assertThat(older.out()).contains("schema version 7 (older: this ClaimDesk upgrades it")
                .doesNotContain("claim_number_sequence").endsWith("backup check passed: 40 claims\n");
        // the same table missing from a copy of this build's schema: not a whole database
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + copy);
                java.sql.Statement s = c.createStatement()) {
            s.execute("PRAGMA user_version = " + Migrations.latestVersion());
        }
        CliTest.Run broken = CliTest.run("backup", "--check", copy.toString());
        assertThat(broken.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(broken.err()).contains("is not a whole ClaimDesk database: it has no table claim_number_sequence");
    }

    @Test
    void backupOnATeamDatabasePrintsThePgDumpCommandAndHowToCheckIt() {
        DatabaseLocation.Postgres team = TestDatabase.newServerDatabase();
        Path target = dir.resolve("team.dump");

        CliTest.Run run = CliTest.run("--db", TestDatabase.url(team), "backup", "--to", target.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("run (umask 077; pg_dump -Fc -h localhost -p " + team.port() + " -U postgres -d "
                + team.database() + " -f " + target + ") as the database's owner role").contains(", then check it with"
                + " claimdesk backup --check " + target);
        assertThat(target).doesNotExist();
    }

    @Test
    void checkAndToAreOneOrTheOther() {
        CliTest.Run both = CliTest.run("backup", "--to", dir.resolve("a.db").toString(), "--check",
                fixture("claimdesk-pg14.dump").toString());
        CliTest.Run neither = CliTest.run("backup");

        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("mutually exclusive");
        assertThat(neither.exit()).isEqualTo(2);
    }

    /** A fixture copied out of the class path into the test's folder. */
    private Path fixture(String name) {
        Path target = dir.resolve(name);
        if (Files.exists(target)) {
            return target;
        }
        try (InputStream in = BackupCheckCliTest.class.getResourceAsStream("/dumps/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no fixture dumps/" + name);
            }
            Files.copy(in, target);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A dump other users may read is said to be so: it holds every claim's tax id whole. */
    @Test
    void aDumpOthersMayReadIsWarnedOf() throws Exception {
        Path dump = java.nio.file.Files.copy(fixture("claimdesk-pg14.dump"), dir.resolve("shared.dump"));
        java.nio.file.Files.setPosixFilePermissions(dump, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        CliTest.Run shared = CliTest.run("backup", "--check", dump.toString());
        assertThat(shared.exit()).as(shared.err()).isZero();
        assertThat(shared.err()).isEqualTo("warning: " + dump + " can be read by other users of this machine"
                + " (rw-r--r--), and it holds every claim's tax id whole: make it owner-only (chmod 600)\n");

        java.nio.file.Files.setPosixFilePermissions(dump, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        CliTest.Run own = CliTest.run("backup", "--check", dump.toString());
        assertThat(own.exit()).isZero();
        assertThat(own.err()).isEmpty();
    }
}
