package org.claimdesk.ui.claims;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.claimdesk.app.ClaimImport;
import org.claimdesk.app.Queries;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.Database;
import org.claimdesk.ui.claims.ClaimImportViewModel.Encoding;
import org.claimdesk.ui.claims.ClaimImportViewModel.Step;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.testing.DirectTaskRunner;
import org.claimdesk.ui.testing.ImportFiles;
import org.claimdesk.ui.testing.TestDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The import dialog's ViewModel on a real empty database, its work run at once on the test's thread. */
class ClaimImportViewModelTest {
    @TempDir
    Path dir;

    Database db;
    Queries queries;
    ClaimImportViewModel model;
    final List<Path> opened = new ArrayList<>();
    int imported;

    @BeforeEach
    void open() {
        db = TestDatabases.demo(dir, 0);
        queries = TestDatabases.queries(db);
        model = new ClaimImportViewModel(new ClaimImport(db, Clock.systemDefaultZone()), new DirectTaskRunner(),
                "s.patel", opened::add);
        model.setOnImported(() -> imported++);
    }

    @AfterEach
    void close() {
        db.close();
    }

    private int claims() {
        return queries.countClaims(ClaimQuery.all());
    }

    @Test
    void choosingAFileShowsItsFirstRowsByFieldAndTheCountsWithoutWritingAnything() {
        model.fileProperty().set(ImportFiles.SAMPLE);

        assertThat(model.stepProperty().get()).isEqualTo(Step.PREVIEWED);
        ClaimImport.Preview preview = model.previewProperty().get();
        assertThat(preview.columns()).startsWith("jurisdiction", "statePropertyId");
        assertThat(preview.sample()).hasSize(8).first().satisfies(row -> {
            assertThat(row.line()).isEqualTo(2);
            assertThat(row.values().get("claimantName")).isEqualTo("Maria Garcia");
            assertThat(row.values().get("taxId")).isEqualTo("***-**-4471");
            assertThat(row.rejected()).isEmpty();
        });
        assertThat(ClaimImportViewModel.counts(preview.report()))
                .isEqualTo("8 to import, 0 already present, 0 conflict(s), 0 invalid");
        assertThat(claims()).isZero();
        assertThat(queries.audit(null, null, AuditActions.CLAIMS_IMPORT, 0, 0)).isEmpty();
        assertThat(imported).isZero();
    }

    @Test
    void aWindows1252FileNamesTheEncodingChoiceAndPreviewsWithIt() {
        Path excel = ImportFiles.windows1252(dir);
        model.fileProperty().set(excel);

        assertThat(model.stepProperty().get()).isEqualTo(Step.CHOOSE);
        assertThat(model.previewProperty().get()).isNull();
        assertThat(model.problemProperty().get()).startsWith("excel.csv is not UTF-8 text, so nothing was imported.")
                .contains("choose the encoding Windows-1252 (Excel \"CSV\") above");

        model.encodingProperty().set(Encoding.WINDOWS_1252);

        assertThat(model.problemProperty().get()).isNull();
        assertThat(model.previewProperty().get().sample()).extracting(r -> r.values().get("claimantName"))
                .containsExactly("José Núñez", "Renée Façade");
        model.importFile();
        assertThat(model.reportProperty().get().imported()).isEqualTo(2);
        assertThat(queries.claims(ClaimQuery.all().withSearch("Núñez"))).singleElement()
                .satisfies(c -> assertThat(c.claimantName()).isEqualTo("José Núñez"));

        // the choice is kept for the next file: a UTF-8 one (no byte order mark) is refused, not garbled, naming the
        // choice to make in this dialog
        Path sheets = ImportFiles.write(dir, "sheets.csv", ImportFiles.HEADER + "\n"
                + ImportFiles.row(3).replace("Imported Claimant 3", "María García") + "\n",
                java.nio.charset.StandardCharsets.UTF_8);
        model.fileProperty().set(sheets);
        assertThat(model.problemProperty().get()).isEqualTo("sheets.csv is UTF-8 text, not Windows-1252 (Excel \"CSV\"),"
                + " so nothing was imported. Choose the encoding UTF-8 above.");
    }

    @Test
    void aFileLevelProblemIsOneMessageAndNothingIsWritten() {
        Path noTaxId = ImportFiles.write(dir, "no-tax-id.csv", ImportFiles.HEADER.replace(",taxId", "") + "\n",
                java.nio.charset.StandardCharsets.UTF_8);
        model.fileProperty().set(noTaxId);

        assertThat(model.problemProperty().get()).startsWith("no-tax-id.csv was not imported: the required column(s)"
                + " taxId are missing");
        assertThat(model.stepProperty().get()).isEqualTo(Step.CHOOSE);
        model.importFile();
        assertThat(model.reportProperty().get()).isNull();
        assertThat(Files.exists(ClaimImport.errorsFileOf(noTaxId))).isFalse();

        model.choosePath(dir.resolve("missing.csv").toString());
        assertThat(model.problemProperty().get()).contains("no file").contains("missing.csv");
    }

    @Test
    void importingWritesTheClaimsTellsThePagesAndASecondImportFindsThemPresent() {
        model.fileProperty().set(ImportFiles.SAMPLE);
        model.importFile();

        assertThat(model.stepProperty().get()).isEqualTo(Step.DONE);
        ClaimImport.Report report = model.reportProperty().get();
        assertThat(ClaimImportViewModel.describe(report))
                .isEqualTo("8 imported, 0 already present, 0 conflict(s), 0 invalid");
        assertThat(report.errorsFile()).isNull();
        assertThat(claims()).isEqualTo(8);
        assertThat(imported).isEqualTo(1);
        assertThat(queries.audit(null, null, AuditActions.CLAIMS_IMPORT, 0, 0)).singleElement()
                .satisfies(a -> assertThat(a.actor()).isEqualTo("s.patel"));

        model.reset();
        model.fileProperty().set(ImportFiles.SAMPLE);
        assertThat(ClaimImportViewModel.counts(model.previewProperty().get().report()))
                .isEqualTo("0 to import, 8 already present, 0 conflict(s), 0 invalid");
    }

    @Test
    void invalidRowsAreMarkedInThePreviewAndGoToTheErrorsFileWhichOpensOffTheUiThread() {
        Path file = ImportFiles.withInvalidRows(dir);
        model.fileProperty().set(file);

        ClaimImport.Preview preview = model.previewProperty().get();
        assertThat(preview.sample()).filteredOn(r -> !r.rejected().isEmpty()).extracting(ClaimImport.SampleRow::line)
                .containsExactly(3L, 5L);
        assertThat(ClaimImportDialogView.reasons(preview.sample().get(1)))
                .isEqualTo("statePropertyId: must be 7 to 9 digits");
        assertThat(ClaimImportViewModel.counts(preview.report()))
                .isEqualTo("3 to import, 0 already present, 0 conflict(s), 2 invalid");

        model.importFile();

        ClaimImport.Report report = model.reportProperty().get();
        assertThat(ClaimImportViewModel.describe(report))
                .isEqualTo("3 imported, 0 already present, 0 conflict(s), 2 invalid");
        assertThat(report.errorsFile()).isEqualTo(ClaimImport.errorsFileOf(file).toString());
        assertThat(ClaimImport.errorsFileOf(file)).exists();
        model.openErrorsFile();
        assertThat(opened).containsExactly(ClaimImport.errorsFileOf(file));
        assertThat(model.noticeProperty().get().text()).startsWith("Opened ");
    }

    @Test
    void aSystemWithoutADesktopSaysWhereTheErrorsFileIs() {
        ClaimImportViewModel headless = new ClaimImportViewModel(new ClaimImport(db, Clock.systemDefaultZone()),
                new DirectTaskRunner(), "s.patel", org.claimdesk.ui.common.DesktopFiles::open);
        Path file = ImportFiles.withInvalidRows(dir);
        headless.fileProperty().set(file);
        headless.importFile();
        headless.openErrorsFile();

        assertThat(headless.noticeProperty().get().kind()).isEqualTo(Notice.Kind.ERROR);
        assertThat(headless.noticeProperty().get().text()).contains(ClaimImport.errorsFileOf(file).toString());
    }

    @Test
    void aStrictImportWithInvalidRowsImportsNothingAndSaysSo() {
        model.strictProperty().set(true);
        model.fileProperty().set(ImportFiles.withInvalidRows(dir));
        model.importFile();

        assertThat(ClaimImportViewModel.describe(model.reportProperty().get())).isEqualTo("Nothing imported: the"
                + " import is strict and 2 row(s) are invalid; correct them in the errors file and import it");
        assertThat(claims()).isZero();
    }

    @Test
    void cancelStopsTheImportAtABatchAndKeepsTheBatchesWritten() {
        Path big = ImportFiles.valid(dir, "big.csv", 5 * ClaimImport.BATCH_ROWS + 10);
        model.fileProperty().set(big);
        assertThat(model.previewProperty().get().report().imported()).isEqualTo(5 * ClaimImport.BATCH_ROWS + 10);
        List<ClaimImport.Progress> seen = new ArrayList<>();
        javafx.beans.value.ChangeListener<ClaimImport.Progress> cancelAfterTwoBatches = (obs, old, p) -> {
            if (p != null) {
                seen.add(p);
                if (p.phase() == ClaimImport.Phase.IMPORTING && p.imported() >= 2 * ClaimImport.BATCH_ROWS) {
                    model.cancel();
                }
            }
        };
        model.progressProperty().addListener(cancelAfterTwoBatches);

        model.importFile();
        model.progressProperty().removeListener(cancelAfterTwoBatches);

        ClaimImport.Report report = model.reportProperty().get();
        assertThat(report.cancelled()).isTrue();
        assertThat(report.imported()).isEqualTo(2 * ClaimImport.BATCH_ROWS).isEqualTo(claims());
        assertThat(ClaimImportViewModel.describe(report)).isEqualTo("Cancelled: "
                + String.format(java.util.Locale.US, "%,d", 2 * ClaimImport.BATCH_ROWS)
                + " claims imported in whole batches; import the file again to complete it");
        assertThat(seen).extracting(ClaimImport.Progress::phase).contains(ClaimImport.Phase.CHECKING,
                ClaimImport.Phase.IMPORTING);
        assertThat(seen).allSatisfy(p -> assertThat(p.fraction()).isBetween(0.0, 1.0));
        assertThat(model.progressProperty().get()).isNull();
        assertThat(imported).isEqualTo(1);

        model.reset();
        model.fileProperty().set(big);
        model.importFile();
        assertThat(model.reportProperty().get().imported()).isEqualTo(3 * ClaimImport.BATCH_ROWS + 10);
        assertThat(model.reportProperty().get().alreadyPresent()).isEqualTo(2 * ClaimImport.BATCH_ROWS);
        assertThat(claims()).isEqualTo(5 * ClaimImport.BATCH_ROWS + 10);
    }

    @Test
    void cancellingThePreviewWritesNothing() {
        Path big = ImportFiles.valid(dir, "big.csv", 3 * ClaimImport.BATCH_ROWS);
        model.progressProperty().addListener((obs, old, p) -> model.cancel());
        model.fileProperty().set(big);

        assertThat(model.stepProperty().get()).isEqualTo(Step.CHOOSE);
        assertThat(model.previewProperty().get()).isNull();
        assertThat(model.noticeProperty().get().text()).isEqualTo("Preview cancelled: nothing was imported");
        assertThat(claims()).isZero();
    }
}
