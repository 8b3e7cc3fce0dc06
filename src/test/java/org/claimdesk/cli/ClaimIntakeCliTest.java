package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.claimdesk.cli.CliTest.Run;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.TestLogs;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code claims create} and {@code claims import}: what they print, their exit codes, and no tax id anywhere. */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class ClaimIntakeCliTest {
    @Parameter
    TestDatabase.Engine engine;

    static final String HEADER = "jurisdiction,statePropertyId,holderName,holderId,propertyType,claimType,claimantName,"
            + "taxId,amountCents,filedOn";

    @TempDir
    Path dir;

    final List<String> printed = new ArrayList<>();

    String db;
    /** The tests' logs as this test began: its own lines are read, not every earlier run's. */
    private TestLogs.Mark logged;

    @BeforeEach
    void database() throws Exception {
        db = TestDatabase.argument(TestDatabase.location(engine, dir, "office"));
        logged = TestLogs.mark();
    }

    private Run run(String... args) {
        return runWithInput("", args);
    }

    private Run runWithInput(String input, String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--db";
        all[1] = db;
        System.arraycopy(args, 0, all, 2, args.length);
        Run run = CliTest.runWithInput(input, all);
        printed.add(run.out());
        printed.add(run.err());
        return run;
    }

    @Test
    void createPrintsTheNewClaimAndRefusesEachBrokenRuleOnItsOwnLine() throws Exception {
        String[] fields = {"--set", "jurisdiction=NY", "--set", "statePropertyId=7730051",
                "--set", "holderName=Consolidated Edison Co of New York", "--set", "holderId=HLD-318204",
                "--set", "propertyType=UT01", "--set", "claimType=OWNER", "--set", "claimantName=Seán O'Brien",
                "--set", "amountCents=9900", "--set", "filedOn=2026-02-17"};
        // the tax id never on the command line, where the process list shows it to other users
        Run onTheCommandLine = run(concat(new String[] {"claims", "create", "--actor", "j.chen", "--set",
                "taxId=418-00-2290"}, fields));
        assertThat(onTheCommandLine.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(onTheCommandLine.err()).isEqualTo("claimdesk: the tax id is not taken with --set: other users see"
                + " the command line in the process list and the shell's history keeps it; give --tax-id-stdin and"
                + " type it, or pipe it in\n");
        Run twice = runWithInput("418-00-2290\n", concat(new String[] {"claims", "create", "--actor", "j.chen",
                "--tax-id-stdin", "--set", "AMOUNTCENTS=100"}, fields));
        assertThat(twice.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(twice.err()).isEqualTo("claimdesk: --set gives amountCents twice: give each field once\n");
        Run noTaxId = run(concat(new String[] {"claims", "create", "--actor", "j.chen", "--tax-id-stdin"}, fields));
        assertThat(noTaxId.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(noTaxId.err()).isEqualTo("claimdesk: --tax-id-stdin reads the tax id from standard input, which"
                + " held none\n");
        assertThat(run("claims", "list", "--json").json()).isEmpty();

        Run created = runWithInput("418-00-2290\n", concat(new String[] {"claims", "create", "--actor", "j.chen",
                "--json", "--tax-id-stdin"}, fields));
        assertThat(created.exit()).as(created.err()).isZero();
        JsonNode claim = created.json();
        assertThat(claim.get("claimNumber").asText()).matches("UPC-\\d{4}-\\d{6}");
        assertThat(claim.get("status").asText()).isEqualTo("IDENTITY_PENDING");
        assertThat(claim.get("claimantName").asText()).isEqualTo("Seán O'Brien");
        assertThat(claim.get("taxIdMasked").asText()).isEqualTo("***-**-2290");
        JsonNode shown = run("claims", "show", claim.get("claimNumber").asText(), "--json").json();
        assertThat(shown.get("history")).hasSize(1);

        Path json = dir.resolve("claim.json");
        Files.writeString(json, """
                {"jurisdiction": "NY", "statePropertyId": "7730051", "holderName": "Consolidated Edison Co of New York",
                 "holderId": "HLD-318204", "propertyType": "UT01", "claimType": "OWNER", "claimantName": "Seán O'Brien",
                 "taxId": "418-00-2290", "amountCents": 9900, "filedOn": "2026-02-17", "claimantPhone": null}
                """);
        Run duplicate = run("claims", "create", "--actor", "j.chen", "--json-file", json.toString());
        assertThat(duplicate.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(duplicate.err()).contains(claim.get("claimNumber").asText()).contains("give a reason");
        Run laterStart = run("claims", "create", "--actor", "j.chen", "--json-file", json.toString(),
                "--status", "EVIDENCE_PENDING", "--reason", "identity checked at the counter");
        assertThat(laterStart.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(laterStart.err()).contains("name " + claim.get("claimNumber").asText() + " as the claim it repeats")
                .contains("(--repeats " + claim.get("claimNumber").asText() + " --reason TEXT)");
        Run second = run("claims", "create", "--actor", "j.chen", "--json-file", json.toString(),
                "--repeats", claim.get("claimNumber").asText(),
                "--reason", "a second property record for the same claimant");
        assertThat(second.exit()).as(second.err()).isZero();
        assertThat(second.out()).contains("created").contains("***-**-2290").contains("$99.00");

        Run both = runWithInput("418-00-2290\n", "claims", "create", "--actor", "j.chen", "--json-file",
                json.toString(), "--tax-id-stdin");
        assertThat(both.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(both.err()).isEqualTo("claimdesk: the fields already give a taxId: give it there or with"
                + " --tax-id-stdin, not both\n");

        Run broken = runWithInput("418-00-229\n", "claims", "create", "--actor", "j.chen", "--set", "jurisdiction=ZZ",
                "--set", "statePropertyId=77", "--tax-id-stdin", "--set", "colour=red");
        assertThat(broken.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        List<String> lines = broken.err().lines().toList();
        assertThat(lines).allSatisfy(l -> assertThat(l).startsWith("claimdesk: "));
        assertThat(lines).anySatisfy(l -> assertThat(l).isEqualTo("claimdesk: statePropertyId must be 7 to 9 digits"))
                .anySatisfy(l -> assertThat(l).startsWith("claimdesk: jurisdiction must be"))
                .anySatisfy(l -> assertThat(l).startsWith("claimdesk: taxId must be"))
                .anySatisfy(l -> assertThat(l).startsWith("claimdesk: colour is not a claim field"))
                .anySatisfy(l -> assertThat(l).isEqualTo("claimdesk: holderName must not be blank"));
        assertThat(lines).hasSize(11);
        assertThat(run("claims", "list", "--json").json()).hasSize(2);
        assertNoTaxIdPrinted("418-00-2290", "418-00-229");
    }

    @Test
    void importPrintsTheReportAsJsonAndIsIdempotent() throws Exception {
        Path sample = Files.copy(Path.of("resources", "samples", "claims.csv"), dir.resolve("claims.csv"));
        Run first = run("claims", "import", sample.toString(), "--actor", "s.patel", "--json");
        assertThat(first.exit()).as(first.err()).isZero();
        JsonNode report = first.json();
        assertThat(report.get("imported").asLong()).isEqualTo(8);
        assertThat(report.get("alreadyPresent").asLong()).isZero();
        assertThat(report.get("conflicts")).isEmpty();
        assertThat(report.get("rejected")).isEmpty();
        assertThat(report.get("errorsFile").isNull()).isTrue();

        Run again = run("claims", "import", sample.toString(), "--actor", "s.patel");
        assertThat(again.exit()).as(again.err()).isZero();
        assertThat(again.out()).contains("claims.csv: imported 0, already present 8, conflicts 0, rejected 0");
        assertThat(run("claims", "list", "--json").json()).hasSize(8);

        Path mixed = dir.resolve("mixed.csv");
        Files.writeString(mixed, HEADER + "\n"
                + "CA,4401187,Pacific Gas and Electric Co,HLD-351016,UT01,OWNER,Maria Garcia,512-00-4471,99,2026-03-02\n"
                + "CA,44,Wells Fargo Bank NA,HLD-100200,AC01,OWNER,Ann Lee,555-00-1234,100,2026-03-02\n"
                + "CA,4401999,Wells Fargo Bank NA,HLD-100200,AC01,OWNER,Ann Lee,555-00-1234,100,2026-03-02\n");
        Run partly = run("claims", "import", mixed.toString(), "--actor", "s.patel", "--json");
        assertThat(partly.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        JsonNode r = partly.json();
        assertThat(r.get("imported").asLong()).isEqualTo(1);
        assertThat(r.get("conflicts")).singleElement().satisfies(c -> {
            assertThat(c.get("line").asLong()).isEqualTo(2);
            assertThat(c.get("fields").toString()).isEqualTo("[\"amountCents\"]");
        });
        assertThat(r.get("rejected")).singleElement().satisfies(x -> {
            assertThat(x.get("line").asLong()).isEqualTo(3);
            assertThat(x.get("column").asText()).isEqualTo("statePropertyId");
            assertThat(x.get("reason").asText()).isEqualTo("must be 7 to 9 digits");
        });
        assertThat(r.get("errorsFile").asText()).isEqualTo(mixed + ".errors.csv");

        Run dry = run("claims", "import", mixed.toString(), "--actor", "s.patel", "--dry-run", "--strict");
        assertThat(dry.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(dry.out()).contains("line 3, statePropertyId: must be 7 to 9 digits")
                .contains("nothing imported: 1 of 3 row(s) are invalid and --strict was given");
        assertNoTaxIdPrinted("512-00-4471", "555-00-1234", "233-00-9182");
    }

    @Test
    void aWindows1252FileIsRefusedWithOneLineNamingTheOptionAndReadWithIt() throws Exception {
        Path file = dir.resolve("excel.csv");
        Files.write(file, (HEADER + "\r\nCA,4401187,Wells Fargo Bank NA,HLD-100200,AC01,OWNER,Renée Lefèvre,"
                + "620-00-1047,1500,2026-03-02\r\n").getBytes(Charset.forName("windows-1252")));

        Run refused = run("claims", "import", file.toString(), "--actor", "s.patel");
        assertThat(refused.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(refused.err().lines()).singleElement().satisfies(l -> assertThat(l)
                .startsWith("claimdesk: excel.csv was not imported: it is not UTF-8").contains("--encoding windows-1252"));
        assertThat(run("claims", "list", "--json").json()).isEmpty();

        Run read = run("claims", "import", file.toString(), "--actor", "s.patel", "--encoding", "windows-1252");
        assertThat(read.exit()).as(read.err()).isZero();
        assertThat(run("claims", "list", "--json").json().get(0).get("claimantName").asText()).isEqualTo("Renée Lefèvre");
        assertNoTaxIdPrinted("620-00-1047");
    }

    private void assertNoTaxIdPrinted(String... taxIds) throws Exception {
        List<String> texts = new ArrayList<>(printed);
        texts.addAll(TestLogs.since(logged).values());
        for (String text : texts) {
            for (String taxId : taxIds) {
                assertThat(text).doesNotContain(taxId).doesNotContain(taxId.replace("-", ""));
            }
        }
    }

    private static String[] concat(String[] first, String[] second) {
        String[] all = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }
}
