package org.claimdesk.ui.claims;

import org.claimdesk.ui.common.Accessible;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.css.PseudoClass;
import javafx.fxml.FXML;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.stage.Window;
import org.claimdesk.app.ClaimImport;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.ui.common.Cells;
import org.claimdesk.ui.common.Dialogs;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.NoticeLabel;
import org.claimdesk.ui.common.TextSize;

/**
 * The content of File › Import claims… (ClaimImportDialog.fxml): the file, its encoding and strictness; the preview
 * (the counts, the first rows by field, a row breaking a rule marked with its reasons); Import with progress and
 * Cancel; the result with its conflicts, invalid rows and a link to the errors file. Binds a
 * {@link ClaimImportViewModel}; does no IO (the file chooser only names a file).
 */
public final class ClaimImportDialogView {
    private static final PseudoClass INVALID = PseudoClass.getPseudoClass("invalid");
    /** The invalid rows the result lists; the errors file has every one. */
    static final int LISTED_REJECTIONS = 500;
    private static final double PREF_WIDTH = 980;
    private static final double PREF_HEIGHT = 760;

    @FXML private VBox importPane;
    @FXML private TextField importFileField;
    @FXML private Button chooseFileButton;
    @FXML private ComboBox<ClaimImportViewModel.Encoding> encodingChoice;
    @FXML private CheckBox strictCheck;
    @FXML private HBox importProgressBox;
    @FXML private ProgressBar importProgress;
    @FXML private Label importProgressLabel;
    @FXML private Button importCancelButton;
    @FXML private Label importProblem;
    @FXML private VBox previewBox;
    @FXML private Label previewCounts;
    @FXML private Label previewCaption;
    @FXML private TableView<ClaimImport.SampleRow> previewTable;
    @FXML private Button importButton;
    @FXML private Label importHint;
    @FXML private VBox resultBox;
    @FXML private Label resultSummary;
    @FXML private HBox errorsFileBox;
    @FXML private Hyperlink errorsFileLink;
    @FXML private TextField errorsFilePath;
    @FXML private TableView<ClaimImport.Conflict> conflictsTable;
    @FXML private TableColumn<ClaimImport.Conflict, String> conflictLineColumn;
    @FXML private TableColumn<ClaimImport.Conflict, String> conflictClaimColumn;
    @FXML private TableColumn<ClaimImport.Conflict, String> conflictFieldsColumn;
    @FXML private ListView<String> rejectedList;
    @FXML private Label importNotice;

    private ClaimImportViewModel model;

    /** Loads the dialog's FXML and binds it to {@code model}. */
    public static ClaimImportDialogView load(ClaimImportViewModel model) {
        ClaimImportDialogView view = Dialogs.loadController(ClaimImportDialogView.class, "ClaimImportDialog.fxml");
        view.bind(model);
        return view;
    }

    /**
     * Shows the dialog over {@code owner}, starting over unless an import runs; it cannot be closed while a preview
     * or an import runs (Cancel first), so the run's result is never hidden. The same view serves every opening: it
     * is bound to its model once, as the model lives as long as the console.
     */
    public void show(Window owner) {
        model.reset();
        // a path typed and never chosen is the field's alone: the model's reset does not reach it
        importFileField.setText(model.fileProperty().get() == null ? "" : model.fileProperty().get().toString());
        ClaimImportDialogView content = this;
        Dialog<ButtonType> dialog = new Dialog<>();
        dialog.initOwner(owner);
        dialog.setTitle("Import claims");
        dialog.setResizable(true);
        Dialogs.styled(dialog);
        dialog.getDialogPane().setContent(content.root());
        // sized for its largest state (preview or result) at once: a dialog does not grow with its content
        // (and wider than the theme's 600 px for dialogs: the preview shows a row's fields side by side)
        // at the console's text size (its columns grow with it), but never past the screen (150 or 200 % scaling, a
        // large text size): its Close and Import buttons stay on it
        javafx.geometry.Rectangle2D screen = javafx.stage.Screen.getPrimary().getVisualBounds();
        dialog.getDialogPane().setPrefSize(Math.min(TextSize.scaled(PREF_WIDTH), screen.getWidth() * 0.9),
                Math.min(TextSize.scaled(PREF_HEIGHT), screen.getHeight() * 0.9));
        dialog.getDialogPane().getStyleClass().add("wide-dialog");
        dialog.getDialogPane().getButtonTypes().add(ButtonType.CLOSE);
        Node close = dialog.getDialogPane().lookupButton(ButtonType.CLOSE);
        close.setId("importCloseButton");
        close.disableProperty().bind(Bindings.createBooleanBinding(model::running, model.stepProperty()));
        dialog.setOnCloseRequest(e -> {
            if (model.running()) {
                e.consume();
            }
        });
        javafx.application.Platform.runLater(content.chooseFileButton::requestFocus);
        dialog.showAndWait();
    }

    public VBox root() {
        return importPane;
    }

    @FXML
    private void initialize() {
        Accessible.name(importFileField, "CSV file to import");
        Accessible.name(encodingChoice, "Encoding");
        Accessible.name(errorsFilePath, "Errors file");
        importCancelButton.setTooltip(new Tooltip("Stop at the next batch of " + String.format(java.util.Locale.US,
                "%,d", org.claimdesk.app.ClaimImport.BATCH_ROWS) + " rows: the batches imported stay, and importing the"
                + " file again completes it"));
        encodingChoice.getItems().setAll(ClaimImportViewModel.Encoding.values());
        encodingChoice.setButtonCell(encodingCell());
        encodingChoice.setCellFactory(l -> encodingCell());
        Cells.text(conflictLineColumn, c -> Long.toString(c.line()));
        Cells.text(conflictClaimColumn, ClaimImport.Conflict::claimNumber);
        Cells.text(conflictFieldsColumn, c -> String.join(", ", c.fields()));
        previewTable.setRowFactory(t -> new TableRow<>() {
            private final Tooltip tip = new Tooltip();

            @Override
            protected void updateItem(ClaimImport.SampleRow row, boolean empty) {
                super.updateItem(row, empty);
                boolean invalid = !empty && row != null && !row.rejected().isEmpty();
                pseudoClassStateChanged(INVALID, invalid);
                if (invalid) {
                    tip.setText(reasons(row));
                    setTooltip(tip);
                } else {
                    setTooltip(null);
                }
            }
        });
    }

    private void bind(ClaimImportViewModel m) {
        this.model = m;
        m.fileProperty().addListener((obs, old, f) -> importFileField.setText(f == null ? "" : f.toString()));
        importFileField.setText(m.fileProperty().get() == null ? "" : m.fileProperty().get().toString());
        importFileField.setOnAction(e -> m.choosePath(importFileField.getText()));
        chooseFileButton.setOnAction(e -> chooseFile());
        encodingChoice.valueProperty().bindBidirectional(m.encodingProperty());
        strictCheck.selectedProperty().bindBidirectional(m.strictProperty());
        BooleanBinding running = Bindings.createBooleanBinding(m::running, m.stepProperty());
        importFileField.disableProperty().bind(running);
        chooseFileButton.disableProperty().bind(running);
        encodingChoice.disableProperty().bind(running);
        strictCheck.disableProperty().bind(running);

        shown(importProgressBox, running);
        importCancelButton.setOnAction(e -> m.cancel());
        m.progressProperty().addListener((obs, old, p) -> showProgress(p));
        m.stepProperty().addListener((obs, old, s) -> showProgress(m.progressProperty().get()));

        importProblem.textProperty().bind(m.problemProperty());
        shown(importProblem, m.problemProperty().isNotNull());

        shown(previewBox, Bindings.createBooleanBinding(() -> m.previewProperty().get() != null
                && m.stepProperty().get() != ClaimImportViewModel.Step.DONE, m.previewProperty(), m.stepProperty()));
        m.previewProperty().addListener((obs, old, p) -> showPreview(p));
        importButton.setOnAction(e -> m.importFile());
        importButton.disableProperty().bind(m.stepProperty().isNotEqualTo(ClaimImportViewModel.Step.PREVIEWED));
        m.strictProperty().addListener((obs, old, s) -> showPreview(m.previewProperty().get()));

        shown(resultBox, m.reportProperty().isNotNull());
        m.reportProperty().addListener((obs, old, r) -> showResult(r));
        errorsFileLink.setOnAction(e -> m.openErrorsFile());
        NoticeLabel.bind(importNotice, m.noticeProperty());
    }

    private static void shown(Node node, javafx.beans.value.ObservableBooleanValue when) {
        node.visibleProperty().bind(when);
        node.managedProperty().bind(node.visibleProperty());
    }

    private void chooseFile() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Import claims from a CSV file");
        chooser.getExtensionFilters().addAll(new FileChooser.ExtensionFilter("CSV files", "*.csv", "*.CSV"),
                new FileChooser.ExtensionFilter("Every file", "*"));
        Path current = model.fileProperty().get();
        if (current != null && current.toAbsolutePath().getParent() != null
                && current.toAbsolutePath().getParent().toFile().isDirectory()) {
            chooser.setInitialDirectory(current.toAbsolutePath().getParent().toFile());
        }
        File chosen = chooser.showOpenDialog(importPane.getScene().getWindow());
        if (chosen != null) {
            model.choosePath(chosen.getPath());
        }
    }

    private void showProgress(ClaimImport.Progress p) {
        if (!model.running()) {
            return;
        }
        if (p == null) {
            importProgress.setProgress(ProgressBar.INDETERMINATE_PROGRESS);
            importProgressLabel.setText(model.stepProperty().get() == ClaimImportViewModel.Step.IMPORTING
                    ? "Importing…" : "Reading the file…");
        } else {
            importProgress.setProgress(p.fraction());
            importProgressLabel.setText(ClaimImportViewModel.describe(p));
        }
    }

    private void showPreview(ClaimImport.Preview p) {
        previewTable.getColumns().clear();
        previewTable.getItems().clear();
        if (p == null) {
            return;
        }
        ClaimImport.Report dry = p.report();
        previewCounts.setText(ClaimImportViewModel.counts(dry));
        previewCaption.setText(p.sample().isEmpty() ? "" : "The first " + p.sample().size()
                + " row(s) of " + Formats.count(dry.rows()) + ", read by the field rules (tax ids masked); a row"
                + " marked red breaks a rule: its reasons are in the Problems column");
        TableColumn<ClaimImport.SampleRow, String> line = new TableColumn<>("Line");
        line.setId("preview-line");
        // widths at the normal text size, for the size the table's columns follow (TextSize)
        line.setPrefWidth(TextSize.widthFor(previewTable, 56));
        Cells.number(line, r -> Long.toString(r.line()));
        TableColumn<ClaimImport.SampleRow, String> problems = new TableColumn<>("Problems");
        problems.setId("preview-problems");
        problems.setPrefWidth(TextSize.widthFor(previewTable, 260));
        Cells.textWithTooltip(problems, ClaimImportDialogView::reasons, ClaimImportDialogView::reasons);
        problems.setVisible(p.sample().stream().anyMatch(r -> !r.rejected().isEmpty()));
        previewTable.getColumns().add(line);
        previewTable.getColumns().add(problems);
        for (String column : p.columns()) {
            TableColumn<ClaimImport.SampleRow, String> c = new TableColumn<>(ClaimField.byName(column)
                    .<String>map(ClaimField::label).orElse(column));
            c.setId("preview-" + column);
            c.setPrefWidth(TextSize.widthFor(previewTable,
                    column.equals("claimantAddress") || column.endsWith("Name") ? 180 : 110));
            Cells.text(c, r -> r.values().get(column));
            previewTable.getColumns().add(c);
        }
        previewTable.getItems().setAll(p.sample());

        boolean strictRefusal = model.strictProperty().get() && dry.rejectedRows() > 0;
        importButton.setText("Import " + Formats.count(dry.imported()) + " claim(s)");
        importHint.setText(strictRefusal
                ? "Strict: with " + Formats.count(dry.rejectedRows()) + " invalid row(s) nothing will be imported;"
                        + " the errors file will list them"
                : dry.rejectedRows() > 0
                        ? "The invalid rows are not imported: they go to an errors file to correct and import"
                        : "");
    }

    private void showResult(ClaimImport.Report r) {
        if (r == null) {
            return;
        }
        resultSummary.setText(ClaimImportViewModel.describe(r));
        resultSummary.getStyleClass().removeAll("import-result-clean", "import-result-partial");
        resultSummary.getStyleClass().add(r.clean() ? "import-result-clean" : "import-result-partial");
        conflictsTable.getItems().setAll(r.conflicts());
        List<String> rejected = r.rejected().stream().limit(LISTED_REJECTIONS)
                .map(x -> "line " + x.line() + " · " + x.column() + ": " + x.reason()).collect(Collectors.toList());
        long more = r.rejected().size() + r.rejectedNotListed() - rejected.size();
        if (more > 0) {
            rejected.add("… and " + Formats.count(more) + " more: see the errors file");
        }
        rejectedList.getItems().setAll(rejected);
        errorsFilePath.setText(r.errorsFile() == null ? "" : r.errorsFile());
        errorsFileBox.setVisible(r.errorsFile() != null);
        errorsFileBox.setManaged(r.errorsFile() != null);
    }

    static String reasons(ClaimImport.SampleRow row) {
        return row.rejected().stream().map(x -> x.column() + ": " + x.reason()).collect(Collectors.joining("; "));
    }

    private static ListCell<ClaimImportViewModel.Encoding> encodingCell() {
        return new ListCell<>() {
            @Override
            protected void updateItem(ClaimImportViewModel.Encoding item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty || item == null ? null : item.label());
            }
        };
    }
}
