package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A desk file that is not there (a typo in --db or CLAIMDESK_DB, a service account without one) is made only by the
 * commands that put claims in; any other command refuses it: opened, it would be made new and empty, listed as
 * "0 claim(s)", backed up as "0 claims … passed", found healthy, or left behind a refusal.
 */
class MissingDeskFileTest {
    @TempDir
    Path dir;

    @Test
    void aCommandThatDoesNotPutClaimsInRefusesADeskFileThatIsNotThereAndCreatesNothing() throws Exception {
        Path missing = dir.resolve("office").resolve("claimdesk.db");
        Path copy = dir.resolve("nightly.db");
        Path claims = Files.writeString(dir.resolve("claims.csv"), "claimantName\n");
        for (List<String> command : List.of(List.of("backup", "--to", copy.toString()), List.of("doctor"),
                List.of("claims", "list"), List.of("claims", "show", "UPC-2026-000001"), List.of("audit", "list"),
                List.of("outbox", "list"), List.of("outbox", "failures"), List.of("drain", "--until-idle"),
                List.of("claims", "import", "--dry-run", "--actor", "kim", claims.toString()))) {
            CliTest.Run run = CliTest.run(args(missing, command));

            assertThat(run.exit()).as(command.toString()).isEqualTo(1);
            assertThat(run.out()).as(command.toString()).isEmpty();
            assertThat(run.err().strip()).as(command.toString()).isEqualTo("claimdesk: no database file " + missing
                    + " (nothing was created): name the desk's file with --db or CLAIMDESK_DB; a new desk's file is"
                    + " made by the console, demo, claims create or claims import");
        }
        assertThat(missing.getParent()).doesNotExist();
        assertThat(copy).doesNotExist();
    }

    /** A command that makes a desk's file makes none when it refuses what it was given before writing anything. */
    @Test
    void aCommandThatPutsClaimsInMakesNoFileForWhatItRefusesAtOnce() {
        Path missing = dir.resolve("office").resolve("claimdesk.db");
        CliTest.Run demo = CliTest.run(args(missing, List.of("demo", "--claims", "0")));
        assertThat(demo.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(demo.err()).isEqualTo("claimdesk: the number of demo claims must be between 1 and 5,000,000, got 0\n");

        Path csv = dir.resolve("no such claims.csv");
        CliTest.Run imported = CliTest.run(args(missing, List.of("claims", "import", "--actor", "kim", csv.toString())));
        assertThat(imported.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(imported.err()).isEqualTo("claimdesk: no file " + csv + " to import; nothing was imported\n");

        CliTest.Run created = CliTest.runWithInput("418-00-2290\n", args(missing, List.of("claims", "create", "--actor",
                "kim", "--tax-id-stdin", "--set", "jurisdiction=ZZ", "--set", "statePropertyId=77")));
        assertThat(created.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(created.err()).contains("claimdesk: statePropertyId must be 7 to 9 digits\n");

        assertThat(missing.getParent()).doesNotExist();
    }

    /** What is wrong on the command line is said as such (exit 2), before any database is looked for. */
    @Test
    void aMistakenOptionIsAUsageErrorBeforeTheDatabaseIsLookedFor() {
        Path missing = dir.resolve("office").resolve("claimdesk.db");
        Path export = dir.resolve("claims.csv");
        record Case(List<String> command, String message) { }
        for (Case c : List.of(
                new Case(List.of("claims", "list", "--status", "SUBMITED"), "--status"),
                new Case(List.of("claims", "list", "--search", " "), "--search is empty"),
                new Case(List.of("claims", "export", "--to", export.toString(), "--jurisdiction", ""),
                        "--jurisdiction is empty"),
                new Case(List.of("outbox", "resubmit", "--all-failed", "--error-like", "", "--actor", "a", "--reason",
                        "r"), "--error-like is empty"),
                new Case(List.of("claims", "set", "taxId=418-00-2290", "--id", "1", "--actor", "a", "--reason", "r"),
                        "taxId cannot be set on many claims at once"),
                new Case(List.of("claims", "set", "colour=red", "--id", "1", "--actor", "a", "--reason", "r"),
                        "colour is not a claim field"))) {
            CliTest.Run run = CliTest.run(args(missing, c.command()));

            assertThat(run.exit()).as(c.command() + ": " + run.err()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
            assertThat(run.err()).as(c.command().toString()).startsWith("claimdesk: ").contains(c.message())
                    .doesNotContain("no database file").doesNotContain("2290");
        }
        assertThat(missing.getParent()).doesNotExist();
        assertThat(export).doesNotExist();
    }

    /**
     * A workstation set up for a state's API makes no demo data (its pending submissions would go to that state) and
     * no file; one pointed at a simulated state on this machine (state-sim, for training) does.
     */
    @Test
    void demoIsRefusedWhereAStatesApiIsSetAndMadeWhereASimulatedOneIs() {
        Path desk = dir.resolve("office").resolve("claimdesk.db");
        String before = System.getProperty("claimdesk.stateUrl");
        try {
            System.setProperty("claimdesk.stateUrl", "https://submissions.example-state.gov");
            CliTest.Run refused = CliTest.run("--db", desk.toString(), "demo", "--claims", "10");
            assertThat(refused.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
            assertThat(refused.err()).startsWith("claimdesk: no demo data on a workstation set up for a state's API")
                    .contains("https://submissions.example-state.gov").contains("Nothing was created");
            assertThat(desk.getParent()).doesNotExist();

            System.setProperty("claimdesk.stateUrl", "http://127.0.0.1:8088");
            CliTest.Run made = CliTest.run("--db", desk.toString(), "demo", "--claims", "10", "--seed", "1");
            assertThat(made.exit()).as(made.err()).isZero();
            assertThat(desk).isRegularFile();
        } finally {
            if (before == null) {
                System.clearProperty("claimdesk.stateUrl");
            } else {
                System.setProperty("claimdesk.stateUrl", before);
            }
        }
    }

    @Test
    void demoMakesANewDeskFile() {
        Path desk = dir.resolve("new").resolve("claimdesk.db");

        CliTest.Run run = CliTest.run("--db", desk.toString(), "demo", "--claims", "10", "--seed", "1");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(desk).isRegularFile();
        assertThat(CliTest.run("--db", desk.toString(), "claims", "list").out()).contains("10 claim(s)");
    }

    private static String[] args(Path db, List<String> command) {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of("--db", db.toString()), command.stream())
                .toArray(String[]::new);
    }
}
