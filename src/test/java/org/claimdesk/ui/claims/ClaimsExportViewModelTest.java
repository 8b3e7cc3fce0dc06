package org.claimdesk.ui.claims;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.claimdesk.app.ClaimExport;
import org.claimdesk.app.ClaimImport;
import org.claimdesk.app.Queries;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.Database;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.testing.DirectTaskRunner;
import org.claimdesk.ui.testing.TestDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** "Export…" on the Claims page: the page's own filter, written in the import's format, on a real demo database. */
class ClaimsExportViewModelTest {
    @TempDir
    Path dir;
    Database db;
    Queries queries;
    DirectTaskRunner tasks;
    ClaimsViewModel page;
    ClaimsExportViewModel exporter;

    @BeforeEach
    void setUp() {
        db = TestDatabases.demo(dir, 600);
        queries = TestDatabases.queries(db);
        tasks = new DirectTaskRunner();
        page = new ClaimsViewModel(queries, TestDatabases.workflow(db), tasks, "tester");
        exporter = new ClaimsExportViewModel(new ClaimExport(db, Clock.systemDefaultZone()), queries, tasks, "r.okafor");
        page.load();
    }

    @AfterEach
    void tearDown() {
        db.close();
    }

    /** The file's rows as maps by column. */
    static List<Map<String, String>> rows(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8).replace("\uFEFF", "");
        CsvMapper mapper = new CsvMapper();
        mapper.enable(CsvParser.Feature.WRAP_AS_ARRAY);
        try (MappingIterator<String[]> it = mapper.readerFor(String[].class).readValues(text)) {
            List<String[]> all = it.readAll();
            List<String> header = List.of(all.get(0));
            return all.subList(1, all.size()).stream().map(values -> {
                Map<String, String> row = new java.util.LinkedHashMap<>();
                for (int i = 0; i < header.size(); i++) {
                    row.put(header.get(i), values[i]);
                }
                return row;
            }).toList();
        }
    }

    @Test
    void theExportWritesExactlyTheClaimsThePageShowsWithTaxIdsMasked() throws IOException {
        page.jurisdictionProperty().set("CA");
        page.toggleStatus(ClaimStatus.EVIDENCE_PENDING, true);
        page.toggleStatus(ClaimStatus.NEEDS_INFO, true);
        int shown = page.rows().size();
        assertThat(shown).as("the filter selects some claims, all on one page").isPositive()
                .isLessThan(ClaimsViewModel.PAGE_SIZE).isEqualTo(page.pagingProperty().get().total());
        // typed in the search field but not applied: not part of the filter the page shows
        page.searchProperty().set("no claim has this text");

        Path file = dir.resolve("ca-claims.csv");
        exporter.export(file, page.shownFilter(), false, null);

        ClaimExport.Result result = exporter.resultProperty().get();
        assertThat(result.claims()).isEqualTo(shown);
        assertThat(exporter.noticeProperty().get().text()).isEqualTo("Exported " + shown + " claim(s) to " + file
                + " with tax ids masked: for reading (an import rejects its rows at taxId)");
        List<Map<String, String>> written = rows(file);
        assertThat(written.get(0).keySet()).containsExactlyElementsOf(ClaimImport.columns());
        Set<String> keys = written.stream().map(r -> r.get("jurisdiction") + "/" + r.get("statePropertyId") + "/"
                + r.get("claimantName")).collect(Collectors.toSet());
        assertThat(keys).hasSize(shown).isEqualTo(page.rows().stream().map(r -> r.jurisdiction() + "/"
                + r.statePropertyId() + "/" + r.claimantName()).collect(Collectors.toSet()));
        assertThat(written).allSatisfy(r -> assertThat(r.get("taxId")).startsWith("***-**-").hasSize(11));
        assertThat(tasks.progress).last().satisfies(p -> assertThat(p.done()).isEqualTo(shown));
        assertThat(queries.audit(null, null, AuditActions.CLAIMS_EXPORT_TAX_IDS, 0, 0)).isEmpty();
    }

    @Test
    void anExistingFileIsReplacedOnlyOnceStaffSaySo() throws IOException {
        Path existing = Files.writeString(dir.resolve("holders.csv"), "the holder's report\n");
        exporter.export(existing, page.shownFilter(), false, null);
        assertThat(exporter.replaceQuestionProperty().get()).isEqualTo(new ClaimsExportViewModel.Request(existing,
                false, null));
        assertThat(Files.readString(existing)).isEqualTo("the holder's report\n");

        exporter.replaceAnswered(false);
        assertThat(exporter.replaceQuestionProperty().get()).isNull();
        assertThat(exporter.noticeProperty().get().text()).contains("Nothing was exported").contains("kept");
        assertThat(exporter.failedRequest().file()).isEqualTo(existing);
        assertThat(Files.readString(existing)).isEqualTo("the holder's report\n");

        exporter.export(existing, page.shownFilter(), false, null);
        exporter.replaceAnswered(true);
        assertThat(exporter.resultProperty().get().claims()).isEqualTo(page.pagingProperty().get().total());
        assertThat(rows(existing)).hasSize(page.pagingProperty().get().total());
        assertThat(exporter.failedRequest()).isNull();
    }

    @Test
    void aFailedExportIsKeptAsTypedToBeOfferedAgain() {
        Path nowhere = dir.resolve("no such folder").resolve("claims.csv");
        exporter.export(nowhere, page.shownFilter(), true, "copy for the auditor");
        assertThat(exporter.noticeProperty().get().kind()).isEqualTo(Notice.Kind.ERROR);
        assertThat(exporter.noticeProperty().get().text()).contains("no folder").doesNotContain("unexpected");
        assertThat(exporter.failedRequest()).isEqualTo(new ClaimsExportViewModel.Request(nowhere, true,
                "copy for the auditor"));
        exporter.export(dir.resolve("claims.csv"), page.shownFilter(), false, null);
        assertThat(exporter.failedRequest()).as("gone once an export worked").isNull();
    }

    @Test
    void fullTaxIdsNeedAReasonAndTheExportIsAudited() throws IOException {
        page.jurisdictionProperty().set("NY");
        page.applyFilters();
        Path file = dir.resolve("ny-claims.csv");

        exporter.export(file, page.shownFilter(), true, "  ");
        assertThat(exporter.noticeProperty().get()).isEqualTo(Notice.warning("Exporting full tax ids needs a reason;"
                + " nothing was exported"));
        assertThat(file).doesNotExist();

        exporter.export(file, page.shownFilter(), true, "move to the new office's database");

        int total = queries.countClaims(ClaimQuery.all().withJurisdiction("NY"));
        assertThat(exporter.resultProperty().get().claims()).isEqualTo(total).isGreaterThan(ClaimsViewModel.PAGE_SIZE / 4);
        assertThat(rows(file)).allSatisfy(r -> assertThat(r.get("taxId")).matches("\\d{3}-\\d{2}-\\d{4}|\\d{2}-\\d{7}"));
        assertThat(queries.audit(null, null, AuditActions.CLAIMS_EXPORT_TAX_IDS, 0, 0)).singleElement()
                .satisfies(a -> {
                    assertThat(a.actor()).isEqualTo("r.okafor");
                    assertThat(a.reason()).isEqualTo("move to the new office's database");
                    assertThat(a.details()).contains("\"jurisdiction\":\"NY\"").contains("\"claims\":" + total);
                });
    }

    /** Cancel export: stopped after the page under way, no file (nor partial one) left, said so. */
    @Test
    void aCancelledExportLeavesNoFile() throws Exception {
        org.claimdesk.ui.testing.QueuedTaskRunner queued = new org.claimdesk.ui.testing.QueuedTaskRunner();
        ClaimsExportViewModel stopped = new ClaimsExportViewModel(new ClaimExport(db, Clock.systemDefaultZone()),
                queries, queued, "r.okafor");
        Path file = dir.resolve("all claims.csv");

        stopped.export(file, org.claimdesk.store.ClaimQuery.all(), false, null);
        stopped.cancel();
        queued.runAll();

        assertThat(stopped.exportingProperty().get()).isFalse();
        assertThat(stopped.resultProperty().get()).isNull();
        assertThat(stopped.noticeProperty().get().text())
                .isEqualTo("The export to all claims.csv was cancelled: no file was written");
        try (java.util.stream.Stream<Path> left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("all claims.csv"));
        }
    }
}
