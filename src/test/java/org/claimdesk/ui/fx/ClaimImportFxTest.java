package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListView;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextInputControl;
import javafx.scene.input.KeyCode;
import org.claimdesk.app.ClaimImport;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.ui.claims.ClaimImportViewModel;
import org.claimdesk.ui.claims.ClaimRow;
import org.claimdesk.ui.testing.ImportFiles;
import org.junit.jupiter.api.Test;
import org.testfx.util.WaitForAsyncUtils;

/**
 * File › Import claims… on the real FXML over the console's demo database: the preview with its counts, the
 * Windows-1252 message and choice, an import shown on the Claims page, the result with the errors file, and Cancel
 * in the middle of a big import while the FX thread keeps answering.
 */
class ClaimImportFxTest extends ConsoleFxTest {
    private static final Pattern TAX_ID = Pattern.compile("(?<![\\d*])(\\d{3}-\\d{2}-\\d{4}|\\d{2}-\\d{7})(?!\\d)");

    private void openDialog() {
        waitReady();
        robot.press(KeyCode.CONTROL, KeyCode.I).release(KeyCode.I, KeyCode.CONTROL);
        waitUntil("the import dialog shows", () -> robot.lookup("#importFileField").tryQuery().isPresent());
    }

    private void choose(Path file) {
        robot.clickOn("#importFileField").write(file.toAbsolutePath().toString()).type(KeyCode.ENTER);
    }

    private String text(String id) {
        return onFx(() -> robot.lookup(id).queryAs(Labeled.class).getText());
    }

    private boolean shown(String id) {
        return onFx(() -> robot.lookup(id).tryQuery().map(ConsoleFxTest::visible).orElse(false));
    }

    private Scene dialogScene() {
        return onFx(() -> robot.lookup("#importPane").query().getScene());
    }

    private int importedClaims() {
        return queries.countClaims(ClaimQuery.all().withJurisdiction(ImportFiles.JURISDICTION));
    }

    /** Every text the dialog shows: labels, fields, list rows, and each table cell's value. */
    private List<String> dialogTexts() {
        return onFx(() -> {
            List<String> texts = new ArrayList<>();
            collect(dialogScene().getRoot(), texts);
            return texts;
        });
    }

    private static void collect(Node node, List<String> texts) {
        if (node instanceof Labeled l && l.getText() != null) {
            texts.add(l.getText());
        }
        if (node instanceof TextInputControl t) {
            texts.add(t.getText());
        }
        if (node instanceof ListView<?> list) {
            list.getItems().forEach(i -> texts.add(String.valueOf(i)));
        }
        if (node instanceof TableView<?> table) {
            for (TableColumn<?, ?> c : table.getColumns()) {
                for (int i = 0; i < table.getItems().size(); i++) {
                    texts.add(String.valueOf(c.getCellData(i)));
                }
            }
        }
        if (node instanceof Parent p) {
            p.getChildrenUnmodifiable().forEach(child -> collect(child, texts));
        }
    }

    private void assertNoTaxIdShown() {
        assertThat(dialogTexts()).isNotEmpty().noneMatch(t -> TAX_ID.matcher(t).find());
    }

    private void close() {
        robot.clickOn("#importCloseButton");
        waitUntil("the dialog closes", () -> robot.lookup("#importPane").tryQuery().isEmpty());
    }

    @Test
    void theDialogOpenedAgainIsTheSameViewStartedOver() {
        openDialog();
        javafx.scene.Node first = robot.lookup("#importPane").query();
        robot.clickOn("#importFileField").write("/no/such/claims.csv");
        close();
        openDialog();
        javafx.scene.Node second = robot.lookup("#importPane").query();
        assertThat((Object) second).as("not a new view bound to the model again").isSameAs(first);
        assertThat(robot.lookup("#importFileField").queryAs(javafx.scene.control.TextField.class).getText()).isEmpty();
        close();
    }

    @Test
    void theSampleIsPreviewedThenImportedAndShownOnTheClaimsPage() throws Exception {
        int before = queries.countClaims(ClaimQuery.all());
        openDialog();
        choose(ImportFiles.SAMPLE);

        waitUntil("the preview shows", () -> shown("#previewBox"));
        assertThat(text("#previewCounts")).isEqualTo("8 to import, 0 already present, 0 conflict(s), 0 invalid");
        TableView<ClaimImport.SampleRow> table = robot.lookup("#previewTable").queryTableView();
        assertThat(onFx(() -> table.getItems().size())).isEqualTo(8);
        assertThat(onFx(() -> table.getColumns().stream().map(TableColumn::getText).toList()))
                .startsWith("Line", "Problems", "Jurisdiction");
        assertThat(onFx(() -> table.getColumns().get(1).isVisible())).as("no row has a problem").isFalse();
        assertThat(text("#importButton")).isEqualTo("Import 8 claim(s)");
        assertThat(dialogTexts()).contains("***-**-4471");
        assertNoTaxIdShown();
        assertThat(queries.countClaims(ClaimQuery.all())).as("a preview writes nothing").isEqualTo(before);

        robot.clickOn("#importButton");

        waitUntil("the result shows", () -> shown("#resultBox"));
        assertThat(text("#resultSummary")).isEqualTo("8 imported, 0 already present, 0 conflict(s), 0 invalid");
        assertThat(shown("#errorsFileBox")).isFalse();
        assertThat(queries.countClaims(ClaimQuery.all())).isEqualTo(before + 8);
        assertThat(queries.audit(null, null, AuditActions.CLAIMS_IMPORT, 0, 0)).singleElement()
                .satisfies(a -> assertThat(a.actor()).isEqualTo(services.actor()));
        assertNoTaxIdShown();
        close();

        robot.clickOn("#claimSearch").write("Harbor Dental Group, LLC").type(KeyCode.ENTER);
        TableView<ClaimRow> claims = robot.lookup("#claimsTable").queryTableView();
        waitUntil("the Claims page shows the imported claim", () -> claims.getItems().size() == 1
                && claims.getItems().get(0).claimantName().equals("Harbor Dental Group, LLC"));
        assertThat(onFx(() -> claims.getItems().get(0).taxIdMasked())).isEqualTo("***-**-4567");
    }

    @Test
    void aWindows1252FileNamesTheEncodingChoiceAndIsPreviewedWithIt() {
        Path excel = ImportFiles.windows1252(dir);
        openDialog();
        choose(excel);

        waitUntil("the file's problem shows", () -> shown("#importProblem"));
        assertThat(text("#importProblem")).startsWith("excel.csv is not UTF-8 text, so nothing was imported.")
                .contains("choose the encoding Windows-1252 (Excel \"CSV\") above");
        assertThat(shown("#previewBox")).isFalse();
        assertThat(robot.lookup("#importButton").queryButton().isDisabled()).isTrue();

        @SuppressWarnings("unchecked")
        ComboBox<ClaimImportViewModel.Encoding> encoding = robot.lookup("#encodingChoice").queryAs(ComboBox.class);
        robot.clickOn(encoding);
        robot.clickOn("Windows-1252 (Excel \"CSV\")");

        waitUntil("the preview shows", () -> shown("#previewBox"));
        assertThat(shown("#importProblem")).isFalse();
        assertThat(text("#previewCounts")).isEqualTo("2 to import, 0 already present, 0 conflict(s), 0 invalid");
        assertThat(dialogTexts()).contains("José Núñez", "Renée Façade");
        assertThat(importedClaims()).isZero();
        close();
    }

    @Test
    void invalidRowsAndAConflictShowInTheResultWithTheErrorsFile() throws Exception {
        services.claimImport().run(ImportFiles.valid(dir, "first.csv", 1), "s.patel", ClaimImport.Options.defaults());
        Path file = ImportFiles.write(dir, "holder-report.csv", ImportFiles.HEADER + "\n"
                + ImportFiles.row(1).replace(",1001,", ",2001,") + "\n" + ImportFiles.row(2) + "\n"
                + ImportFiles.row(3).replace(",5000003,", ",12AB,") + "\n" + ImportFiles.row(4) + "\n"
                + ImportFiles.row(5).replace(",2026-03-02,", ",2026-02-30,") + "\n" + ImportFiles.row(6) + "\n",
                StandardCharsets.UTF_8);
        openDialog();
        choose(file);
        waitUntil("the preview shows", () -> shown("#previewBox"));
        assertThat(text("#previewCounts")).isEqualTo("3 to import, 0 already present, 1 conflict(s), 2 invalid");
        TableView<ClaimImport.SampleRow> table = robot.lookup("#previewTable").queryTableView();
        assertThat(onFx(() -> table.getColumns().get(1).isVisible())).isTrue();
        assertThat(onFx(() -> String.valueOf(table.getColumns().get(1).getCellData(2))))
                .isEqualTo("statePropertyId: must be 7 to 9 digits");
        waitUntil("the invalid rows are marked", () -> robot.lookup("#previewTable .table-row-cell").queryAll().stream()
                .filter(r -> r.getPseudoClassStates().stream().anyMatch(c -> c.getPseudoClassName().equals("invalid")))
                .count() == 2);
        snapshot("import-preview", dialogScene());

        robot.clickOn("#importButton");

        waitUntil("the result shows", () -> shown("#resultBox"));
        assertThat(text("#resultSummary")).isEqualTo("3 imported, 0 already present, 1 conflict(s), 2 invalid");
        TableView<ClaimImport.Conflict> conflicts = robot.lookup("#conflictsTable").queryTableView();
        assertThat(onFx(() -> List.copyOf(conflicts.getItems()))).singleElement().satisfies(c -> {
            assertThat(c.line()).isEqualTo(2);
            assertThat(c.fields()).containsExactly("amountCents");
        });
        ListView<String> rejected = robot.lookup("#rejectedList").queryListView();
        List<String> listed = onFx(() -> List.copyOf(rejected.getItems()));
        assertThat(listed).hasSize(2);
        assertThat(listed.get(0)).isEqualTo("line 4 · statePropertyId: must be 7 to 9 digits");
        assertThat(listed.get(1)).startsWith("line 6 · filedOn: ");
        Path errors = ClaimImport.errorsFileOf(file);
        assertThat(shown("#errorsFileLink")).isTrue();
        assertThat(onFx(() -> robot.lookup("#errorsFilePath").queryTextInputControl().getText()))
                .isEqualTo(errors.toString());
        assertThat(errors).exists();
        assertThat(Files.readAllLines(errors)).hasSize(3);
        assertThat(importedClaims()).isEqualTo(4);
        assertNoTaxIdShown();
        snapshot("import-result", dialogScene());

        robot.clickOn("#errorsFileLink");
        waitUntil("a system without a desktop says where the file is", () -> shown("#importNotice")
                && text("#importNotice").contains(errors.toString()));
        close();
    }

    @Test
    void cancelInTheMiddleOfABigImportKeepsWholeBatchesAndTheUiAnswers() throws Exception {
        Path big = ImportFiles.valid(dir, "big.csv", 30_000);
        openDialog();
        choose(big);
        waitUntil("the preview shows", () -> shown("#previewBox"));
        assertThat(text("#previewCounts")).isEqualTo("30,000 to import, 0 already present, 0 conflict(s), 0 invalid");
        ClaimImportViewModel model = window.importModel();

        robot.clickOn("#importButton");
        waitUntil("the import writes its first batches", () -> model.progressProperty().get() != null
                && model.progressProperty().get().phase() == ClaimImport.Phase.IMPORTING
                && model.progressProperty().get().imported() >= ClaimImport.BATCH_ROWS);
        long slowest = 0;
        for (int i = 0; i < 5; i++) {
            long started = System.nanoTime();
            WaitForAsyncUtils.asyncFx(() -> robot.lookup("#importProgressLabel").queryAs(Labeled.class).getText())
                    .get(5, TimeUnit.SECONDS);
            slowest = Math.max(slowest, (System.nanoTime() - started) / 1_000_000);
        }
        assertThat(text("#importProgressLabel")).startsWith("Importing: ");
        Button cancel = robot.lookup("#importCancelButton").queryButton();
        fx(cancel::fire);

        waitUntil("the result shows", () -> shown("#resultBox"));
        assertThat(slowest).as("an FX-thread round trip while the import runs, ms").isLessThan(500);
        ClaimImport.Report report = model.reportProperty().get();
        assertThat(report.cancelled()).isTrue();
        long n = report.imported();
        assertThat(n).isPositive().isLessThan(30_000).isEqualTo(importedClaims());
        assertThat(n % ClaimImport.BATCH_ROWS).isZero();
        assertThat(text("#resultSummary")).isEqualTo("Cancelled: " + String.format("%,d", n)
                + " claims imported in whole batches; import the file again to complete it");
        assertThat(queries.audit(null, null, AuditActions.CLAIMS_IMPORT, 0, 0)).singleElement()
                .satisfies(a -> assertThat(a.details()).contains("\"cancelled\":true"));
        waitUntil("the dialog can close", () -> !robot.lookup("#importCloseButton").queryButton().isDisabled());
        close();
    }
}
