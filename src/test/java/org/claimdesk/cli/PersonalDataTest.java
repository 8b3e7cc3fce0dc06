package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.TestLogs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A full scenario through the command line, then every file it wrote and everything it printed is
 * searched for the demo tax ids. Only the database and its backup may hold them.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class PersonalDataTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    private final List<String> printed = new ArrayList<>();

    @Test
    void noTaxIdLeavesTheDatabase() throws Exception {
        TestLogs.Mark logged = TestLogs.mark();
        DatabaseLocation location = TestDatabase.location(engine, dir, "office");
        String db = TestDatabase.argument(location);
        run("--db", db, "demo", "--claims", "400", "--seed", "11");
        Set<String> taxIds;
        // every tax id this run writes: the demo's and the one staff type in
        try (Database database = Database.open(location)) {
            taxIds = Set.copyOf(database.read(h -> h.createQuery("SELECT tax_id FROM claim").mapTo(String.class).list()));
        }
        assertThat(taxIds).hasSizeGreaterThan(390).allMatch(t -> t.matches("\\d{3}-00-\\d{4}"));

        String ready = firstId(db, "READY_FOR_SUBMISSION");
        String someone = taxIds.iterator().next();
        run("--db", db, "claims", "list");
        run("--db", db, "claims", "list", "--json");
        run("--db", db, "claims", "list", "--search", someone);
        run("--db", db, "claims", "show", ready);
        run("--db", db, "claims", "show", ready, "--json");
        run("--db", db, "claims", "advance", ready, "--to", "PAID", "--actor", "j.chen");
        // edits, the tax id replaced whole (the new number must not leak either), evidence
        String pending = firstId(db, "EVIDENCE_PENDING");
        String replacement = "456-00-7788";
        taxIds = new java.util.HashSet<>(taxIds);
        taxIds.add(replacement);
        run("--db", db, "claims", "edit", ready, "--actor", "j.chen", "--reason", "holder letter",
                "--set", "holderId=HLD-314159", "--set", "amountCents=4200");
        runWithInput(replacement + "\n", "--db", db, "claims", "edit", pending, "--actor", "j.chen", "--reason",
                "SSN card", "--tax-id-stdin");
        runWithInput(replacement.substring(0, 9) + "\n", "--db", db, "claims", "edit", pending, "--actor", "j.chen",
                "--reason", "typo", "--tax-id-stdin");
        runWithInput(someone + "\n", "--db", db, "claims", "edit", pending, "--actor", "j.chen", "--reason", "stale",
                "--expect-version", "0", "--tax-id-stdin");
        runWithInput(someone + "\n", "--db", db, "claims", "edit", pending, "--actor", "j.chen", "--reason",
                "SSN card", "--json", "--tax-id-stdin");
        // a tax id typed where a claim's number goes: said back on the terminal, not kept in the log
        CliTest.Run typedForANumber = CliTest.run("--db", db, "claims", "show", replacement);
        assertThat(typedForANumber.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(typedForANumber.err()).isEqualTo("claimdesk: no claim " + replacement + "\n");
        Path card = Files.writeString(dir.resolve("ssn-card.txt"), "scan of card");
        run(withEvidenceFolder("--db", db, "claims", "evidence", "add", pending, "--kind", "identity", "--file",
                card.toString(), "--actor", "j.chen"));
        run("--db", db, "claims", "evidence", "add", pending, "--kind", "address", "--url",
                "https://records.example.gov/u/1", "--actor", "j.chen");
        run("--db", db, "claims", "evidence", "list", pending, "--json");
        run("--db", db, "claims", "show", pending);
        run("--db", db, "claims", "show", pending, "--json");
        run("--db", db, "claims", "advance", pending, "--to", "READY_FOR_SUBMISSION", "--actor", "j.chen");
        run("--db", db, "claims", "submit", pending, "--actor", "supervisor.kim");
        run("--db", db, "claims", "submit", ready, "--actor", "supervisor.kim");
        run("--db", db, "drain", "--simulated", "--until-idle", "--max-wait", "20", "--json");
        run("--db", db, "outbox", "list", "--json");
        run("--db", db, "outbox", "failures", "--json");
        run("--db", db, "outbox", "requeue", "--all-failed", "--actor", "r.okafor", "--reason", "portal back", "--dry-run");
        run("--db", db, "outbox", "requeue", "--all-failed", "--actor", "r.okafor", "--reason", "portal back", "--json");
        run("--db", db, "drain", "--simulated", "--until-idle", "--max-wait", "20");
        // fix and resubmit refused rows with new tax ids: the edits, the resubmissions (JSON and text), their
        // diffs and audit entries; the holder id is left as refused, so the new row is refused again
        String[] corrections = {"789-00-3141", "789-00-2718"};
        for (int i = 0; i < 2; i++) {
            CliTest.Run failed = CliTest.run("--db", db, "outbox", "list", "--state", "failed", "--limit", "1", "--json");
            assertThat(failed.json()).hasSize(1);
            String failedRow = failed.json().get(0).get("outboxEventId").asText();
            String failedClaim = failed.json().get(0).get("claimId").asText();
            String masked = CliTest.run("--db", db, "claims", "show", failedClaim, "--json").json().get("claim")
                    .get("taxIdMasked").asText();
            String corrected = masked.endsWith(corrections[i].substring(7)) ? "789-00-1618" : corrections[i];
            taxIds.add(corrected);
            runWithInput(corrected + "\n", "--db", db, "claims", "edit", failedClaim, "--actor", "j.chen", "--reason",
                    "SSN card", "--tax-id-stdin");
            run("--db", db, "claims", "evidence", "add", failedClaim, "--kind", "identity", "--url",
                    "https://records.example.gov/u/" + i, "--actor", "j.chen");
            run("--db", db, "claims", "evidence", "list", failedClaim);
            run("--db", db, "claims", "evidence", "list", failedClaim, "--json");
            CliTest.Run resubmitted = i == 0
                    ? CliTest.run("--db", db, "outbox", "resubmit", failedRow, "--actor", "r.okafor", "--reason",
                            "tax id corrected", "--json")
                    : CliTest.run("--db", db, "outbox", "resubmit", failedRow, "--actor", "r.okafor", "--reason",
                            "tax id corrected");
            printed.add(resubmitted.out());
            printed.add(resubmitted.err());
            assertThat(resubmitted.exit()).as(resubmitted.err()).isZero();
            assertThat(resubmitted.out()).contains("taxIdLast4").contains(corrected.substring(7));
            run("--db", db, "outbox", "resubmit", failedRow, "--actor", "r.okafor", "--reason", "again");
            run("--db", db, "claims", "show", failedClaim);
            run("--db", db, "audit", "list", "--subject", failedRow, "--json");
            run("--db", db, "drain", "--simulated", "--until-idle", "--max-wait", "20");
        }
        run("--db", db, "outbox", "list", "--state", "superseded", "--json");
        run("--db", db, "outbox", "attempts", "1", "--json");
        run("--db", db, "audit", "list", "--json");
        run("--db", db, "doctor", "--json");
        run("--db", db, "backup", "--to", dir.resolve("backup.db").toString());

        List<String> leaks = new ArrayList<>();
        for (String text : printed) {
            leaks.addAll(found(text, taxIds, "command output"));
        }
        for (Path file : filesToScan()) {
            String text = Files.readString(file, StandardCharsets.ISO_8859_1);
            leaks.addAll(found(text, taxIds, file.toString()));
        }
        // the tests' logs: this test's lines
        Map<Path, String> logs = TestLogs.since(logged);
        assertThat(logs.values()).as("the logs this run wrote").anySatisfy(text -> assertThat(text).isNotBlank());
        for (Map.Entry<Path, String> log : logs.entrySet()) {
            leaks.addAll(found(log.getValue(), taxIds, log.getKey().toString()));
        }
        assertThat(leaks).isEmpty();
        assertThat(printed).anySatisfy(p -> assertThat(p).contains("***-**-"));
        assertThat(printed).anySatisfy(p -> assertThat(p).contains("***-**-7788"));
        assertThat(printed).anySatisfy(p -> assertThat(p).contains("taxId must be an SSN or ITIN"));
        assertThat(printed).anySatisfy(p -> assertThat(p).contains("was changed by j.chen"));
    }

    private List<Path> filesToScan() throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.filter(Files::isRegularFile)
                    .filter(p -> !p.getFileName().toString().matches("(office|backup)\\.db(-wal|-shm|-journal)?"))
                    .forEach(files::add);
        }
        return files;
    }

    private static List<String> found(String text, Set<String> taxIds, String where) {
        List<String> leaks = new ArrayList<>();
        for (String taxId : taxIds) {
            if (text.contains(taxId) || text.contains(taxId.replace("-", ""))) {
                leaks.add(taxId.substring(0, 3) + "-00-…" + " in " + where);
            }
        }
        return leaks;
    }

    /** A team database's evidence files go to a (shared) folder of this test's, where they are scanned too. */
    private String[] withEvidenceFolder(String... args) throws java.io.IOException {
        if (engine == TestDatabase.Engine.SQLITE) {
            return args;
        }
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--evidence-dir", java.nio.file.Files.createDirectories(dir.resolve("evidence")).toString()));
        return all.toArray(String[]::new);
    }

    private void run(String... args) {
        runWithInput("", args);
    }

    private void runWithInput(String input, String... args) {
        CliTest.Run run = CliTest.runWithInput(input, args);
        printed.add(run.out());
        printed.add(run.err());
    }

    private String firstId(String db, String status) throws Exception {
        CliTest.Run run = CliTest.run("--db", db, "claims", "list", "--status", status, "--limit", "1", "--json");
        return run.json().get(0).get("claimId").asText();
    }
}
