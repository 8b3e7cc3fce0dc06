package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.claimdesk.app.ClaimExportTest;
import org.claimdesk.app.ClaimImport;
import org.claimdesk.cli.CliTest.Run;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code claims export}: the filters of {@code claims list}, masked tax ids by default, audited tax ids on demand. */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class ClaimExportCliTest {
    @Parameter
    TestDatabase.Engine engine;

    private static final Pattern WHOLE_TAX_ID = Pattern.compile("[0-9]{3}-[0-9]{2}-[0-9]{4}|[0-9]{2}-[0-9]{7}");

    @TempDir
    Path dir;

    String db;

    @BeforeEach
    void database() {
        db = TestDatabase.argument(TestDatabase.location(engine, dir, "office"));
    }

    private Run run(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--db";
        all[1] = db;
        System.arraycopy(args, 0, all, 2, args.length);
        return CliTest.run(all);
    }

    /** The (jurisdiction, state property id, claimant) of each row of an export, in order. */
    private static List<String> keys(Path file) throws Exception {
        List<String> columns = ClaimImport.columns();
        int j = columns.indexOf("jurisdiction");
        int p = columns.indexOf("statePropertyId");
        int c = columns.indexOf("claimantName");
        List<String[]> rows = ClaimExportTest.rows(file);
        assertThat(rows.get(0)).containsExactlyElementsOf(columns);
        return rows.subList(1, rows.size()).stream().map(r -> r[j] + "/" + r[p] + "/" + r[c]).toList();
    }

    @Test
    void theFiltersSelectTheClaimsThatClaimsListShows() throws Exception {
        assertThat(run("demo", "--claims", "400", "--seed", "5").exit()).isZero();
        List<List<String>> filters = List.of(List.of(), List.of("--status", "SUBMITTED_TO_STATE,NEEDS_INFO"),
                List.of("--jurisdiction", "ca"), List.of("--search", "an"), List.of("--overdue"),
                List.of("--jurisdiction", "TX", "--status", "PAID"));
        int i = 0;
        for (List<String> filter : filters) {
            List<String> listArgs = new ArrayList<>(List.of("claims", "list", "--json"));
            listArgs.addAll(filter);
            JsonNode listed = run(listArgs.toArray(String[]::new)).json();
            List<String> expected = new ArrayList<>();
            listed.forEach(c -> expected.add(c.get("jurisdiction").asText() + "/" + c.get("statePropertyId").asText()
                    + "/" + c.get("claimantName").asText()));
            assertThat(expected).as("claims list " + filter).isNotEmpty();
            Path file = dir.resolve("export-" + i++ + ".csv");
            List<String> exportArgs = new ArrayList<>(List.of("claims", "export", "--to", file.toString(), "--json"));
            exportArgs.addAll(filter);
            Run exported = run(exportArgs.toArray(String[]::new));
            assertThat(exported.exit()).as(exported.err()).isZero();
            assertThat(exported.json().get("claims").asInt()).as(filter.toString()).isEqualTo(expected.size());
            assertThat(exported.json().get("taxIds").asText()).isEqualTo("masked");
            assertThat(keys(file)).as(filter.toString()).isEqualTo(expected);
            assertThat(Files.readString(file)).doesNotContainPattern(WHOLE_TAX_ID);
        }
        assertThat(run("audit", "list", "--json").out()).doesNotContain("claims.export_tax_ids");
    }

    @Test
    void taxIdsNeedAnActorAndAReasonAndAreAudited() throws Exception {
        assertThat(run("demo", "--claims", "50", "--seed", "3").exit()).isZero();
        Path file = dir.resolve("full.csv");
        Run refused = run("claims", "export", "--to", file.toString(), "--include-tax-id", "--actor", "j.chen");
        assertThat(refused.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(refused.err()).isEqualTo("claimdesk: --include-tax-id needs --actor and --reason: an export of"
                + " whole tax ids is audited\n");
        assertThat(file).doesNotExist();
        Run misplaced = run("claims", "export", "--to", file.toString(), "--actor", "j.chen");
        assertThat(misplaced.exit()).isEqualTo(ClaimDeskCommand.EXIT_USAGE);
        assertThat(misplaced.err()).contains("--include-tax-id");

        Run done = run("claims", "export", "--to", file.toString(), "--include-tax-id", "--actor", "j.chen",
                "--reason", "copy for the new office");
        assertThat(done.exit()).as(done.err()).isZero();
        assertThat(done.out()).contains("exported 50 claim(s)").contains("audited");
        assertThat(Files.readString(file)).containsPattern(WHOLE_TAX_ID);
        JsonNode audit = run("audit", "list", "--json").json();
        List<JsonNode> exports = new ArrayList<>();
        audit.forEach(e -> {
            if (e.get("action").asText().equals("claims.export_tax_ids")) {
                exports.add(e);
            }
        });
        assertThat(exports).hasSize(1);
        assertThat(exports.get(0).toString()).contains("j.chen").contains("copy for the new office")
                .contains("full.csv").doesNotContainPattern(WHOLE_TAX_ID);
    }

    @Test
    void anExistingFileIsWrittenOverOnlyWhenAskedAndTheDesksDatabaseNever() throws Exception {
        assertThat(run("demo", "--claims", "20", "--seed", "3").exit()).isZero();
        Path file = dir.resolve("holders.csv");
        Files.writeString(file, "the holder's own report\n");
        Run refused = run("claims", "export", "--to", file.toString());
        assertThat(refused.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(refused.err().strip()).isEqualTo("claimdesk: " + file + " already exists: choose another name, or"
                + " give --replace to write over it");
        assertThat(Files.readString(file)).isEqualTo("the holder's own report\n");
        Run replaced = run("claims", "export", "--to", file.toString(), "--replace");
        assertThat(replaced.exit()).as(replaced.err()).isZero();
        assertThat(keys(file)).hasSize(20);
        if (engine == TestDatabase.Engine.SQLITE) {
            Path desk = Path.of(db);
            for (Path own : List.of(desk, desk.resolveSibling(desk.getFileName() + "-wal"))) {
                Run over = run("claims", "export", "--to", own.toString(), "--replace");
                assertThat(over.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
                assertThat(over.err()).contains("is this desk's database or one of its files");
            }
            assertThat(run("claims", "list", "--json").json()).hasSize(20);
        }
    }
}
