package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.claimdesk.cli.CliTest.Run;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.claimdesk.domain.ClaimStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code claims edit}, {@code claims evidence add|list} and the new fields of {@code claims show --json}. */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class ClaimEditCliTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    String db;

    @BeforeEach
    void demo() {
        db = TestDatabase.argument(TestDatabase.location(engine, dir, "cli"));
        Run demo = CliTest.run("--db", db, "demo", "--claims", "120", "--seed", "9", "--today", "2026-11-02");
        assertThat(demo.exit()).as(demo.err()).isZero();
    }

    private Run run(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--db";
        all[1] = db;
        System.arraycopy(args, 0, all, 2, args.length);
        return CliTest.run(all);
    }

    /**
     * {@code claims evidence add ARGS}: a database file keeps its files in {@code evidence} beside it; a team
     * database's shared folder (IT's, there beforehand) is named, here the same place in the test's own folder.
     */
    private Run addEvidence(String... args) throws java.io.IOException {
        java.util.List<String> all = new java.util.ArrayList<>(java.util.List.of("claims", "evidence", "add"));
        all.addAll(java.util.List.of(args));
        if (engine == TestDatabase.Engine.POSTGRESQL) {
            all.addAll(java.util.List.of("--evidence-dir",
                    Files.createDirectories(dir.resolve("evidence")).toString()));
        }
        return run(all.toArray(String[]::new));
    }

    /** {@code claims evidence list ID ARGS}, looking in the folder {@link #addEvidence} copies to. */
    private Run listEvidence(String id, String... args) throws java.io.IOException {
        java.util.List<String> all = new java.util.ArrayList<>(java.util.List.of("claims", "evidence", "list", id));
        all.addAll(java.util.List.of(args));
        if (engine == TestDatabase.Engine.POSTGRESQL) {
            all.addAll(java.util.List.of("--evidence-dir",
                    Files.createDirectories(dir.resolve("evidence")).toString()));
        }
        return run(all.toArray(String[]::new));
    }

    private String firstWithStatus(String status) throws Exception {
        return run("claims", "list", "--status", status, "--limit", "1", "--json").json().get(0).get("claimId").asText();
    }

    @Test
    void anEditPrintsEachChangedFieldAndShowJsonCarriesTheNewValues() throws Exception {
        String id = firstWithStatus("EVIDENCE_PENDING");
        long version = run("claims", "show", id, "--json").json().get("claim").get("version").asLong();

        Run edit = run("claims", "edit", id, "--actor", "j.chen", "--reason", "corrected from the holder's letter",
                "--set", "amountCents=15000", "--set", "holderId=HLD-200300", "--set", "claimantEmail=maria@example.org",
                "--set", "claimantPhone=(916) 555-0142", "--set", "claimantAddress=1200 Capitol Mall, Sacramento, CA");

        assertThat(edit.exit()).as(edit.err()).isZero();
        assertThat(edit.out()).contains("amountCents ").contains(" -> 15000")
                .contains("holderId ").contains(" -> HLD-200300")
                .contains("claimantEmail (none) -> maria@example.org")
                .contains("version " + (version + 1));

        JsonNode shown = run("claims", "show", id, "--json").json();
        JsonNode claim = shown.get("claim");
        assertThat(claim.get("amountCents").asLong()).isEqualTo(15_000);
        assertThat(claim.get("holderId").asText()).isEqualTo("HLD-200300");
        assertThat(claim.get("claimantEmail").asText()).isEqualTo("maria@example.org");
        assertThat(claim.get("claimantPhone").asText()).isEqualTo("(916) 555-0142");
        assertThat(claim.get("claimantAddress").asText()).isEqualTo("1200 Capitol Mall, Sacramento, CA");
        assertThat(claim.get("version").asLong()).isEqualTo(version + 1);
        assertThat(claim.get("editRefusal").isNull()).isTrue();
        assertThat(shown.get("evidence")).isEmpty();

        JsonNode audit = run("audit", "list", "--subject", id, "--json").json();
        assertThat(audit.toString()).contains("claim.edit").contains("corrected from the holder's letter");

        Run again = run("claims", "edit", id, "--actor", "j.chen", "--reason", "again", "--set", "amountCents=15000");
        assertThat(again.exit()).isZero();
        assertThat(again.out()).contains("nothing changed (version " + (version + 1) + ")");
    }

    @Test
    void aRefusedEditExitsOneWithOneLineNamingTheFieldAndTheRule() throws Exception {
        String id = firstWithStatus("IDENTITY_PENDING");
        long version = run("claims", "show", id, "--json").json().get("claim").get("version").asLong();

        Run bad = run("claims", "edit", id, "--actor", "j.chen", "--reason", "fix", "--set", "statePropertyId=12AB");
        assertThat(bad.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(bad.err()).isEqualTo("claimdesk: statePropertyId must be 7 to 9 digits" + System.lineSeparator());
        assertThat(bad.out()).isEmpty();

        Run unknown = run("claims", "edit", id, "--actor", "j.chen", "--reason", "fix", "--set", "colour=blue");
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(unknown.err().lines()).singleElement().asString()
                .startsWith("claimdesk: colour is not a claim field; the fields are claimantName");

        Run future = run("claims", "edit", id, "--actor", "j.chen", "--reason", "fix", "--set", "filedOn=2999-01-01");
        assertThat(future.exit()).isEqualTo(1);
        assertThat(future.err()).startsWith("claimdesk: filedOn must not be in the future");

        Run noReason = run("claims", "edit", id, "--actor", "j.chen", "--set", "amountCents=1");
        assertThat(noReason.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(noReason.err()).contains("--reason");

        assertThat(run("claims", "show", id, "--json").json().get("claim").get("version").asLong()).isEqualTo(version);
    }

    @Test
    void aClaimWhoseSubmissionIsOnItsWayIsReadOnlyWithTheReason() throws Exception {
        String id = firstWithStatus("READY_FOR_SUBMISSION");
        assertThat(run("claims", "submit", id, "--actor", "s.patel").exit()).isZero();
        Run refused = run("claims", "edit", id, "--actor", "j.chen", "--reason", "fix", "--set", "amountCents=1");
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).contains("cannot be edited in SUBMITTING: " + ClaimStatus.SUBMISSION_PENDING_REFUSAL);
        assertThat(run("claims", "show", id, "--json").json().get("claim").get("editRefusal").asText())
                .isEqualTo(ClaimStatus.SUBMISSION_PENDING_REFUSAL);
        JsonNode listed = run("claims", "list", "--status", "SUBMITTING", "--json").json();
        assertThat(listed).anySatisfy(c -> {
            assertThat(c.get("claimId").asText()).isEqualTo(id);
            assertThat(c.get("editRefusal").asText()).isEqualTo(ClaimStatus.SUBMISSION_PENDING_REFUSAL);
        });
    }

    @Test
    void aClaimTheStateHasIsReadOnlyWithTheReason() throws Exception {
        String id = firstWithStatus("PAID");
        Run refused = run("claims", "edit", id, "--actor", "j.chen", "--reason", "fix", "--set", "amountCents=1");
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).contains("cannot be edited in PAID: the claim is paid; its data is final");
        assertThat(run("claims", "show", id, "--json").json().get("claim").get("editRefusal").asText())
                .isEqualTo("the claim is paid; its data is final");
        assertThat(run("claims", "show", id).out()).contains("Read-only      the claim is paid");
    }

    @Test
    void aStaleExpectedVersionIsAConflictNamingWhoChangedIt() throws Exception {
        String id = firstWithStatus("READY_FOR_SUBMISSION");
        long version = run("claims", "show", id, "--json").json().get("claim").get("version").asLong();
        assertThat(run("claims", "edit", id, "--actor", "r.okafor", "--reason", "holder merged",
                "--set", "holderId=HLD-100001").exit()).isZero();

        Run stale = run("claims", "edit", id, "--actor", "j.chen", "--reason", "typo", "--expect-version",
                Long.toString(version), "--set", "holderId=HLD-100002");
        assertThat(stale.exit()).isEqualTo(1);
        assertThat(stale.err()).contains("was changed by r.okafor").contains("edited holderId")
                .contains("nothing was saved");

        Run staleSubmit = run("claims", "submit", id, "--actor", "j.chen", "--expect-version", Long.toString(version));
        assertThat(staleSubmit.exit()).isEqualTo(1);
        assertThat(staleSubmit.err()).contains("was changed by r.okafor").contains("edited holderId");
        assertThat(run("claims", "show", id, "--json").json().get("claim").get("status").asText())
                .isEqualTo("READY_FOR_SUBMISSION");
        long now = run("claims", "show", id, "--json").json().get("claim").get("version").asLong();
        Run submit = run("claims", "submit", id, "--actor", "j.chen", "--expect-version", Long.toString(now));
        assertThat(submit.exit()).as(submit.err()).isZero();
        assertThat(submit.out()).contains(": SUBMITTING, outbox row");
    }

    @Test
    void evidenceIsAddedByAddressOrFileAndListed() throws Exception {
        String id = firstWithStatus("EVIDENCE_PENDING");
        byte[] content = "deed of trust".getBytes(StandardCharsets.UTF_8);
        Path deed = Files.write(dir.resolve("deed.pdf"), content);

        Run url = addEvidence(id, "--kind", "address", "--url", "https://records.example.gov/u/1",
                "--actor", "j.chen", "--title", "Utility bill");
        assertThat(url.exit()).as(url.err()).isZero();
        assertThat(url.out()).containsPattern("evidence added #\\d+ address").contains("Utility bill");
        Run file = addEvidence(id, "--kind", "ownership", "--file", deed.toString(),
                "--actor", "j.chen");
        assertThat(file.exit()).as(file.err()).isZero();
        assertThat(file.out()).contains("file deed.pdf");

        JsonNode list = listEvidence(id, "--json").json();
        assertThat(list).hasSize(2);
        assertThat(list.get(0).get("file").isNull()).isTrue();
        assertThat(list.get(1).get("file").asText()).isEqualTo("whole");
        assertThat(list.get(0).get("kind").asText()).isEqualTo("address");
        assertThat(list.get(0).get("url").asText()).isEqualTo("https://records.example.gov/u/1");
        assertThat(list.get(1).get("fileName").asText()).isEqualTo("deed.pdf");
        assertThat(list.get(1).get("sizeBytes").asLong()).isEqualTo(content.length);
        assertThat(list.get(1).get("sha256").asText())
                .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content)));
        assertThat(Files.exists(dir.resolve("evidence").resolve(list.get(1).get("sha256").asText()))).isTrue();
        assertThat(run("claims", "show", id, "--json").json().get("evidence")).hasSize(2);
        assertThat(listEvidence(id).out()).contains("2 evidence reference(s)").doesNotContain("[");

        Run missing = addEvidence(id, "--kind", "identity", "--file", dir.resolve("no.pdf").toString(),
                "--actor", "j.chen");
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.err()).contains("does not exist");
        Run badUrl = addEvidence(id, "--kind", "identity", "--url", "ftp://x.org/a", "--actor", "j.chen");
        assertThat(badUrl.exit()).isEqualTo(1);
        assertThat(badUrl.err()).startsWith("claimdesk: url must be an http or https address");
        Run both = addEvidence(id, "--kind", "identity", "--url", "https://x.org",
                "--file", deed.toString(), "--actor", "j.chen");
        assertThat(both.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        Run badKind = addEvidence(id, "--kind", "selfie", "--url", "https://x.org", "--actor", "j.chen");
        assertThat(badKind.exit()).isEqualTo(1);
        assertThat(badKind.err()).startsWith("claimdesk: kind must be one of identity, address");
        assertThat(listEvidence(id, "--json").json()).hasSize(2);

        // the copy gone from the folder (a share not mounted, a folder not restored): the list says so
        Files.delete(dir.resolve("evidence").resolve(list.get(1).get("sha256").asText()));
        assertThat(listEvidence(id).out()).contains("file deed.pdf").contains("[missing here]")
                .contains("1 file(s) not whole in this workstation's evidence folder " + dir.resolve("evidence"));
        assertThat(listEvidence(id, "--json").json().get(1).get("file").asText()).isEqualTo("missing");
    }

    @Test
    void evidenceAddedByMistakeIsWithdrawnWithAReasonListedAsWithdrawnAndAudited() throws Exception {
        String id = firstWithStatus("EVIDENCE_PENDING");
        long evidenceId = addEvidence(id, "--kind", "identity", "--url", "https://ids.example.gov/ana-ruiz",
                "--actor", "j.chen", "--title", "Ana Ruiz license", "--json").json().get("evidenceId").asLong();
        addEvidence(id, "--kind", "address", "--url", "https://records.example.gov/u/1", "--actor", "j.chen");

        Run noReason = run("claims", "evidence", "withdraw", id, "--evidence", Long.toString(evidenceId),
                "--actor", "kim");
        assertThat(noReason.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(noReason.err()).contains("Missing required option: '--reason=TEXT'");
        Run withdrawn = run("claims", "evidence", "withdraw", id, "--evidence", Long.toString(evidenceId),
                "--actor", "kim", "--reason", "another claimant's license");
        assertThat(withdrawn.exit()).as(withdrawn.err()).isZero();
        assertThat(withdrawn.out()).containsPattern("evidence withdrawn #" + evidenceId + " identity .*Ana Ruiz license")
                .containsPattern("\\[withdrawn by kim, \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d [+-]\\d\\d:\\d\\d:"
                        + " another claimant's license]")
                .containsPattern("added by j\\.chen, \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d [+-]\\d\\d:\\d\\d\\)");

        assertThat(listEvidence(id).out()).contains("2 evidence reference(s), 1 withdrawn (not sent to the state)");
        JsonNode list = listEvidence(id, "--json").json();
        assertThat(list.get(0).get("withdrawnBy").asText()).isEqualTo("kim");
        assertThat(list.get(0).get("withdrawnReason").asText()).isEqualTo("another claimant's license");
        assertThat(list.get(1).get("withdrawnBy").isNull()).isTrue();
        assertThat(run("audit", "list", "--subject", id, "--action", "claim.evidence_withdraw", "--json").json())
                .singleElement().satisfies(a -> assertThat(a.get("actor").asText()).isEqualTo("kim"));

        Run again = run("claims", "evidence", "withdraw", id, "--evidence", Long.toString(evidenceId),
                "--actor", "kim", "--reason", "again");
        assertThat(again.exit()).isEqualTo(1);
        assertThat(again.err()).contains("was withdrawn already, by kim at ");
        Run unknown = run("claims", "evidence", "withdraw", id, "--evidence", "999999", "--actor", "kim",
                "--reason", "typo");
        assertThat(unknown.exit()).isNotZero();
        assertThat(unknown.err()).contains("has no evidence with id 999999");
    }

    @Test
    void anEvidenceFolderIsNamedForATeamDatabaseOnlyAndAFileDatabaseRefusesOne() throws Exception {
        String id = firstWithStatus("EVIDENCE_PENDING");
        Path deed = Files.writeString(dir.resolve("deed.pdf"), "deed of trust");
        Path share = dir.resolve("share");

        Run added = run("claims", "evidence", "add", id, "--kind", "ownership", "--file", deed.toString(),
                "--actor", "j.chen", "--evidence-dir", share.toString(), "--json");

        if (engine == TestDatabase.Engine.POSTGRESQL) {
            // a shared folder that is not there (a share not mounted) is refused, not made on this workstation
            assertThat(added.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
            assertThat(added.err().strip()).isEqualTo("claimdesk: the shared evidence folder " + share
                    + " is not there: is the office's share mounted on this workstation?"
                    + " (docs/operations.md: evidence files)");
            assertThat(share).doesNotExist();
            assertThat(run("claims", "evidence", "list", id, "--json").json()).isEmpty();

            Files.createDirectories(share);
            added = run("claims", "evidence", "add", id, "--kind", "ownership", "--file", deed.toString(),
                    "--actor", "j.chen", "--evidence-dir", share.toString(), "--json");
            assertThat(added.exit()).as(added.err()).isZero();
            assertThat(share.resolve(added.json().get("sha256").asText())).exists();
        } else {
            assertThat(added.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
            assertThat(added.err().strip()).isEqualTo("claimdesk: an evidence folder is given for a team database only;"
                    + " the database file " + dir.resolve("cli.db") + " keeps its evidence beside it, in "
                    + dir.resolve("evidence"));
            assertThat(share).doesNotExist();
            assertThat(run("claims", "evidence", "list", id, "--json").json()).isEmpty();
        }
    }

    @Test
    void anEvidenceFileThatIsMissingUnreadableOrOver25MbIsRefusedWithOneLineAndNothingRecorded() throws Exception {
        String id = firstWithStatus("EVIDENCE_PENDING");
        int auditBefore = run("audit", "list", "--json").json().size();
        Path tooLarge = dir.resolve("scan.tif");
        try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(tooLarge.toFile(), "rw")) {
            raf.setLength(org.claimdesk.domain.EvidenceRules.MAX_FILE_BYTES + 1);
        }
        Path missing = dir.resolve("no.pdf");
        java.util.Map<Path, String> refusals = new java.util.LinkedHashMap<>();
        refusals.put(missing, "claimdesk: the evidence file " + missing + " does not exist");
        refusals.put(tooLarge, "claimdesk: file must be at most 25 MB (this one is 25.0 MB)");
        refusals.put(dir, "claimdesk: the evidence file " + dir + " is a folder or a device, not a file");
        // a regular file whose every read fails, for any user (root reads files whatever their permissions)
        Path unreadable = Path.of("/proc/self/mem");
        if (Files.isRegularFile(unreadable)) {
            refusals.put(unreadable, "claimdesk: the evidence file " + unreadable + " cannot be read: ");
        }

        for (var refusal : refusals.entrySet()) {
            Run r = addEvidence(id, "--kind", "address", "--file", refusal.getKey().toString(),
                    "--actor", "j.chen");
            assertThat(r.exit()).as(r.err()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
            assertThat(r.err().lines()).singleElement().asString().startsWith(refusal.getValue());
            assertThat(r.out()).isEmpty();
        }

        assertThat(run("claims", "evidence", "list", id, "--json").json()).isEmpty();
        assertThat(run("audit", "list", "--json").json()).hasSize(auditBefore);
        Path folder = dir.resolve("evidence");
        if (Files.exists(folder)) {
            try (java.util.stream.Stream<Path> files = Files.list(folder)) {
                assertThat(files).as("nothing copied in").isEmpty();
            }
        }
    }
}
