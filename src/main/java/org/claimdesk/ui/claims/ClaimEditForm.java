package org.claimdesk.ui.claims;

import java.io.File;
import java.util.Arrays;
import java.util.List;
import javafx.css.PseudoClass;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Control;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Priority;
import javafx.stage.FileChooser;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.EvidenceKind;
import org.claimdesk.domain.EvidenceRules;
import org.claimdesk.domain.PropertyType;
import org.claimdesk.ui.common.Cells;
import org.claimdesk.ui.common.Formats;

/**
 * Builds the edit form of the claim detail pane and binds it, and the Evidence tab, to a {@link
 * ClaimEditViewModel}: one row per field (its label, its input with the id {@code edit-FIELD}, and under it
 * the broken rule's message with the id {@code error-FIELD}). Binds and forwards only; no IO.
 */
final class ClaimEditForm {
    /** AtlantaFX marks an input in error with this pseudo-class (a red border). */
    private static final PseudoClass DANGER = PseudoClass.getPseudoClass("danger");

    private ClaimEditForm() {
    }

    static void build(ClaimEditViewModel editor, GridPane grid) {
        int row = 0;
        for (ClaimEditViewModel.FieldEditor field : editor.fields()) {
            Label name = new Label(field.field().label());
            name.getStyleClass().add("field-name");
            name.setMinWidth(Label.USE_PREF_SIZE);
            Control input = input(field);
            input.setId("edit-" + field.field().name());
            input.setMaxWidth(Double.MAX_VALUE);
            GridPane.setHgrow(input, Priority.ALWAYS);
            name.setLabelFor(input);
            Label error = new Label();
            error.setId("error-" + field.field().name());
            error.getStyleClass().add("field-error");
            error.setWrapText(true);
            error.textProperty().bind(field.errorProperty());
            error.visibleProperty().bind(field.errorProperty().isNotNull());
            error.managedProperty().bind(error.visibleProperty());
            Label fault = new Label();
            fault.setId("fault-" + field.field().name());
            fault.getStyleClass().add("field-error");
            fault.setWrapText(true);
            fault.textProperty().bind(field.faultProperty());
            fault.visibleProperty().bind(field.faultProperty().isNotNull().and(error.visibleProperty().not()));
            fault.managedProperty().bind(fault.visibleProperty());
            javafx.beans.binding.BooleanBinding marked = field.errorProperty().isNotNull()
                    .or(field.faultProperty().isNotNull());
            marked.addListener((obs, old, on) -> input.pseudoClassStateChanged(DANGER, on));
            input.pseudoClassStateChanged(DANGER, marked.get());
            input.getProperties().put(ClaimEditForm.class, marked);
            Label hint = new Label();
            hint.setId("hint-" + field.field().name());
            hint.getStyleClass().addAll("text-muted", "text-small");
            hint.textProperty().bind(field.hintProperty());
            hint.visibleProperty().bind(field.hintProperty().isNotNull().and(error.visibleProperty().not()));
            hint.managedProperty().bind(hint.visibleProperty());
            grid.addRow(row++, name, input);
            grid.add(new javafx.scene.layout.VBox(error, fault, hint), 1, row++);
        }
    }

    private static Control input(ClaimEditViewModel.FieldEditor field) {
        List<String> codes = field.field() == ClaimField.CLAIM_TYPE
                ? Arrays.stream(ClaimType.values()).map(Enum::name).toList()
                : field.field() == ClaimField.PROPERTY_TYPE
                ? Arrays.stream(PropertyType.values()).map(Enum::name).toList()
                : null;
        if (codes == null) {
            TextField text = new TextField();
            text.textProperty().bindBidirectional(field.textProperty());
            text.setPromptText(field.field().required() ? "required" : "optional");
            return text;
        }
        ComboBox<String> choice = new ComboBox<>();
        choice.getItems().setAll(codes);
        choice.valueProperty().bindBidirectional(field.textProperty());
        if (field.field() == ClaimField.PROPERTY_TYPE) {
            choice.setCellFactory(list -> propertyCell());
            choice.setButtonCell(propertyCell());
        }
        return choice;
    }

    private static ListCell<String> propertyCell() {
        return new ListCell<>() {
            @Override
            protected void updateItem(String code, boolean empty) {
                super.updateItem(code, empty);
                setText(empty || code == null || code.isEmpty() ? null
                        : code + " · " + PropertyType.valueOf(code).description());
            }
        };
    }

    /** The Evidence tab: the list, and adding an address or a file (copied in the background). */
    static void bindEvidence(ClaimEditViewModel editor, TableView<Evidence> table,
            TableColumn<Evidence, String> kindColumn, TableColumn<Evidence, String> titleColumn,
            TableColumn<Evidence, String> sourceColumn, TableColumn<Evidence, String> addedColumn,
            ComboBox<EvidenceKind> kind, TextField title, TextField url, Button addUrl, Button addFile,
            Label hint, Label error) {
        table.setItems(editor.evidence());
        Cells.textWithTooltip(kindColumn, e -> Formats.label(e.kind().name()), e -> e.kind().label());
        Cells.textWithTooltip(titleColumn, Evidence::title, e -> e.isFile()
                ? e.fileName() + "\nSHA-256 " + e.sha256() : e.url());
        Cells.text(sourceColumn, e -> e.isFile() ? "file, " + EvidenceRules.size(e.sizeBytes()) : "web address");
        Cells.textWithTooltip(addedColumn, e -> Formats.date(java.time.LocalDate.ofInstant(e.addedAt(),
                java.time.ZoneId.systemDefault())), e -> Formats.time(e.addedAt()) + " by " + e.addedBy());
        kind.getItems().setAll(EvidenceKind.values());
        kind.setCellFactory(list -> kindCell());
        kind.setButtonCell(kindCell());
        Node[] inputs = {kind, title, url, addUrl, addFile};
        for (Node n : inputs) {
            n.disableProperty().bind(editor.canEditProperty().not().or(editor.evidenceBusyProperty()));
        }
        addUrl.disableProperty().unbind();
        javafx.beans.binding.StringBinding urlBroken = javafx.beans.binding.Bindings.createStringBinding(
                () -> url.getText() == null || url.getText().isBlank() ? null : editor.urlRule(url.getText()),
                url.textProperty());
        addUrl.disableProperty().bind(editor.canEditProperty().not().or(editor.evidenceBusyProperty())
                .or(kind.valueProperty().isNull()).or(url.textProperty().isEmpty()).or(urlBroken.isNotNull()));
        urlBroken.addListener((obs, old, broken) -> url.pseudoClassStateChanged(DANGER, broken != null));
        // the address's rule as staff type it, else why the last add was refused
        error.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(
                () -> urlBroken.get() != null ? urlBroken.get() : editor.evidenceErrorProperty().get(),
                urlBroken, editor.evidenceErrorProperty()));
        error.visibleProperty().bind(error.textProperty().isNotEmpty());
        error.managedProperty().bind(error.visibleProperty());
        addFile.disableProperty().unbind();
        addFile.disableProperty().bind(editor.canEditProperty().not().or(editor.evidenceBusyProperty())
                .or(kind.valueProperty().isNull()));
        addUrl.setTooltip(new Tooltip("Adds the http or https address as evidence; audited"));
        addFile.setTooltip(new Tooltip("Copies a file of at most 25 MB into ClaimDesk's evidence folder; audited"));
        addUrl.setOnAction(e -> editor.addUrl(kind.getValue(), url.getText(), title.getText()));
        // what was typed stays when the add is refused, to be corrected
        editor.evidenceBusyProperty().addListener((obs, was, busy) -> {
            if (was && !busy && editor.evidenceErrorProperty().get() == null) {
                url.clear();
                title.clear();
            }
        });
        addFile.setOnAction(e -> {
            FileChooser chooser = new FileChooser();
            chooser.setTitle("Add evidence to the claim");
            File chosen = chooser.showOpenDialog(table.getScene().getWindow());
            if (chosen != null) {
                editor.addFile(kind.getValue(), chosen.toPath(), title.getText());
            }
        });
        hint.textProperty().bind(editor.readOnlyReasonProperty().map(r -> "Read-only: " + r)
                .orElse("Choose a kind, then add an address or a file (at most 25 MB)."));
    }

    /** The new tax id and the reason staff typed in {@link #askTaxId}. */
    record TaxIdAnswer(String taxId, String reason) {
    }

    /**
     * Asks for a claim's new tax id, whole, and the reason: the tax id rule's message shows under the field
     * (the rule is {@link ClaimField#TAX_ID}'s, through the view-model) and OK stays disabled until the value
     * keeps it and a reason is typed. The field is {@code #newTaxIdField}, its message {@code #newTaxIdError}.
     */
    static java.util.Optional<TaxIdAnswer> askTaxId(javafx.stage.Window owner, ClaimEditViewModel editor,
            String claimNumber) {
        javafx.scene.control.Dialog<TaxIdAnswer> dialog = new javafx.scene.control.Dialog<>();
        dialog.initOwner(owner);
        dialog.setTitle("Replace tax id");
        dialog.setHeaderText("Replace the tax id of claim " + claimNumber + "? The old and new ones are audited,"
                + " masked to their last four digits.");
        javafx.scene.control.ButtonType ok = new javafx.scene.control.ButtonType("Replace",
                javafx.scene.control.ButtonBar.ButtonData.OK_DONE);
        dialog.getDialogPane().getButtonTypes().addAll(ok, javafx.scene.control.ButtonType.CANCEL);
        TextField taxId = new TextField();
        taxId.setId("newTaxIdField");
        taxId.setPromptText("123-45-6789 or 12-3456789");
        Label error = new Label();
        error.setId("newTaxIdError");
        error.getStyleClass().add("field-error");
        error.setWrapText(true);
        error.textProperty().bind(taxId.textProperty().map(t -> t.isBlank() ? null : editor.taxIdRule(t)));
        error.visibleProperty().bind(error.textProperty().isNotEmpty());
        error.managedProperty().bind(error.visibleProperty());
        javafx.scene.control.TextArea reason = new javafx.scene.control.TextArea();
        reason.setId("reasonField");
        reason.setPromptText("Why? (required; audited)");
        reason.setPrefRowCount(3);
        reason.setWrapText(true);
        Label taxIdName = new Label("New tax id (whole)");
        taxIdName.getStyleClass().add("field-name");
        Label reasonName = new Label("Reason");
        reasonName.getStyleClass().add("field-name");
        javafx.scene.layout.VBox box = new javafx.scene.layout.VBox(6, taxIdName, taxId, error, reasonName, reason);
        box.setPrefWidth(480);
        dialog.getDialogPane().setContent(box);
        Node okButton = dialog.getDialogPane().lookupButton(ok);
        okButton.setId("dialogOkButton");
        okButton.disableProperty().bind(javafx.beans.binding.Bindings.createBooleanBinding(
                () -> taxId.getText().isBlank() || editor.taxIdRule(taxId.getText()) != null
                        || reason.getText().isBlank(), taxId.textProperty(), reason.textProperty()));
        dialog.setResultConverter(button -> button == ok
                ? new TaxIdAnswer(taxId.getText().strip(), reason.getText().strip()) : null);
        javafx.application.Platform.runLater(taxId::requestFocus);
        return dialog.showAndWait();
    }

    private static ListCell<EvidenceKind> kindCell() {
        return new ListCell<>() {
            @Override
            protected void updateItem(EvidenceKind kind, boolean empty) {
                super.updateItem(kind, empty);
                setText(empty || kind == null ? null : kind.label());
            }
        };
    }
}
