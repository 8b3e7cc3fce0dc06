package org.claimdesk.ui.claims;

import java.io.File;
import javafx.css.PseudoClass;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.GridPane;
import javafx.stage.FileChooser;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.EvidenceCopy;
import org.claimdesk.domain.EvidenceKind;
import org.claimdesk.domain.EvidenceRules;
import org.claimdesk.ui.common.Cells;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.ReasonKeys;

/**
 * Builds the edit form of the claim detail pane and binds it, and the Evidence tab, to a {@link
 * ClaimEditViewModel}: the fields through {@link FieldForm} (the input with the id {@code edit-FIELD}, under it
 * the broken rule's message with the id {@code error-FIELD}). Binds and forwards only; no IO.
 */
final class ClaimEditForm {
    private static final PseudoClass DANGER = FieldForm.DANGER;

    private ClaimEditForm() {
    }

    static void build(ClaimEditViewModel editor, GridPane grid) {
        FieldForm.build(editor.fields(), grid, FieldForm.Ids.EDIT);
    }

    /** A file reference's copy not whole here, in the CLI's words: "missing here", "damaged here", "unreadable here". */
    static String awayMark(EvidenceCopy presence) {
        return presence == EvidenceCopy.WHOLE ? "" : presence.word() + " here";
    }

    private static String awayHint(EvidenceCopy presence, java.nio.file.Path folder) {
        return switch (presence) {
            case MISSING -> "The copy is not in this workstation's evidence folder, " + folder + " (on a team database:"
                    + " the office's shared folder, CLAIMDESK_EVIDENCE_DIR, mounted here)";
            case DAMAGED -> "The copy in " + folder + " is not the size recorded: adding the same file again puts the"
                    + " whole copy back";
            case UNREADABLE -> "The copy in " + folder + " cannot be read by this workstation's user: IT checks the"
                    + " folder's group and permissions";
            case WHOLE -> "Its copy is kept in " + folder;
        };
    }

    /** A withdrawn reference's row: struck through and muted. */
    private static final PseudoClass WITHDRAWN = PseudoClass.getPseudoClass("withdrawn");

    /**
     * The Evidence tab: the list (withdrawn references struck through, saying by whom, when and why), adding an address
     * or a file (copied in the background), and withdrawing the selected reference ({@code withdraw}, or Delete);
     * {@code selectedDetail} shows the selected reference's address or file and its withdrawal, not in a tooltip only.
     */
    static void bindEvidence(ClaimEditViewModel editor, TableView<Evidence> table,
            TableColumn<Evidence, String> kindColumn, TableColumn<Evidence, String> titleColumn,
            TableColumn<Evidence, String> sourceColumn, TableColumn<Evidence, String> addedColumn,
            ComboBox<EvidenceKind> kind, TextField title, TextField url, Button addUrl, Button addFile,
            Button withdraw, Label selectedDetail, Label hint, Label error) {
        table.setItems(editor.evidence());
        table.setRowFactory(t -> new javafx.scene.control.TableRow<>() {
            @Override
            protected void updateItem(Evidence e, boolean empty) {
                super.updateItem(e, empty);
                pseudoClassStateChanged(WITHDRAWN, !empty && e != null && e.isWithdrawn());
            }
        });
        Cells.textWithTooltip(kindColumn, e -> Formats.label(e.kind().name()), e -> e.kind().label());
        Cells.textWithTooltip(titleColumn, Evidence::title, e -> (e.isFile()
                ? e.fileName() + "\nSHA-256 " + e.sha256() : e.url()) + withdrawnNote(e).map(w -> "\n" + w).orElse(""));
        // withdrawn, then what is wrong with the copy: the column is narrow, and that is what staff must see
        Cells.textWithTooltip(sourceColumn, e -> (e.isWithdrawn() ? "withdrawn · " : "") + (!e.isFile() ? "web address"
                : editor.away(e).map(p -> awayMark(p) + " · ").orElse("") + "file, " + EvidenceRules.size(e.sizeBytes())),
                e -> withdrawnNote(e).map(w -> w + "\n").orElse("") + (!e.isFile() ? e.url()
                        : editor.away(e).map(p -> awayHint(p, editor.evidenceFolder()))
                                .orElse("Its copy is kept in " + editor.evidenceFolder())));
        Cells.textWithTooltip(addedColumn, e -> Formats.date(java.time.LocalDate.ofInstant(e.addedAt(),
                java.time.ZoneId.systemDefault())), e -> Formats.time(e.addedAt()) + " by " + e.addedBy());
        kind.getItems().setAll(EvidenceKind.values());
        kind.setCellFactory(list -> FieldForm.kindCell());
        kind.setButtonCell(FieldForm.kindCell());
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
        // what the tooltips hold, for the selected reference, on screen: its address or file and its withdrawal
        selectedDetail.textProperty().bind(table.getSelectionModel().selectedItemProperty().map(e -> (e.isFile()
                ? e.fileName() + " · " + EvidenceRules.size(e.sizeBytes()) + " · SHA-256 " + e.sha256().substring(0, 16)
                        + "…" : e.url()) + withdrawnNote(e).map(w -> ". " + w).orElse("")));
        javafx.beans.binding.BooleanBinding withdrawable = javafx.beans.binding.Bindings.createBooleanBinding(() -> {
            Evidence selected = table.getSelectionModel().getSelectedItem();
            return selected != null && !selected.isWithdrawn();
        }, table.getSelectionModel().selectedItemProperty());
        withdraw.disableProperty().bind(editor.canEditProperty().not().or(editor.evidenceBusyProperty())
                .or(withdrawable.not()));
        withdraw.setTooltip(new Tooltip("Withdraws the selected reference, added by mistake: it stays listed, struck"
                + " through, and is not sent to the state from now on; its file is kept. Asks why; audited (Delete)"));
        withdraw.setOnAction(e -> askWithdraw(editor, table));
        table.addEventHandler(javafx.scene.input.KeyEvent.KEY_PRESSED, k -> {
            // Delete, or the Mac's delete key (backspace)
            if ((k.getCode() == javafx.scene.input.KeyCode.DELETE || k.getCode() == javafx.scene.input.KeyCode.BACK_SPACE)
                    && !withdraw.isDisabled()) {
                askWithdraw(editor, table);
                k.consume();
            }
        });
        addUrl.setTooltip(new Tooltip("Adds the http or https address as evidence; audited"));
        addFile.setTooltip(new Tooltip("Copies a file of at most 25 MB into ClaimDesk's evidence folder; audited"));
        addUrl.setOnAction(e -> editor.addUrl(kind.getValue(), url.getText(), title.getText()));
        // what was typed stays when the add is refused, to be corrected (and through a withdrawal)
        editor.evidenceAddsProperty().addListener((obs, was, adds) -> {
            url.clear();
            title.clear();
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

    /** "Withdrawn by Kim at 2026-12-07 09:14: wrong claimant's document" for a withdrawn reference. */
    static java.util.Optional<String> withdrawnNote(Evidence e) {
        return java.util.Optional.ofNullable(e.withdrawal()).map(w -> "Withdrawn by " + w.by() + " at "
                + Formats.time(w.at()) + ": " + w.reason());
    }

    /** Asks why the selected reference is withdrawn, then withdraws it (in the background). */
    private static void askWithdraw(ClaimEditViewModel editor, TableView<Evidence> table) {
        Evidence selected = table.getSelectionModel().getSelectedItem();
        if (selected == null || selected.isWithdrawn()) {
            return;
        }
        String what = selected.kind().label() + " \"" + selected.title() + "\"";
        org.claimdesk.ui.common.Dialogs.confirmWithReason(table.getScene().getWindow(), "Withdraw evidence",
                "Withdraw " + what + " from the claim? It stays listed, struck through, with your reason; from now on"
                        + " it is not sent to the state and does not count for the evidence checklist."
                        + (selected.isFile() ? " Its file is kept." : ""),
                "Withdraw", true, "Why? (required: for example, another claimant's document)",
                editor.withdrawReasonToRetry(selected))
                .ifPresent(a -> editor.withdraw(selected, a.reason()));
    }

    /** The new tax id and the reason staff typed in {@link #askTaxId}. */
    record TaxIdAnswer(String taxId, String reason) {
        /** The tax id masked, as everywhere it is shown. */
        @Override
        public String toString() {
            return "TaxIdAnswer[" + org.claimdesk.domain.TaxIds.mask(taxId) + "]";
        }
    }

    /**
     * Asks for a claim's new tax id, whole, and the reason: the tax id rule's message shows under the field
     * (the rule is {@link ClaimField#TAX_ID}'s, through the view-model) and OK stays disabled until the value
     * keeps it and a reason is typed. The field is {@code #newTaxIdField}, its message {@code #newTaxIdError}.
     */
    static java.util.Optional<TaxIdAnswer> askTaxId(javafx.stage.Window owner, ClaimEditViewModel editor,
            String claimNumber, long claimId) {
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
        box.setPrefWidth(org.claimdesk.ui.common.TextSize.scaled(480));
        dialog.getDialogPane().setContent(box);
        Node okButton = dialog.getDialogPane().lookupButton(ok);
        okButton.setId("dialogOkButton");
        okButton.disableProperty().bind(javafx.beans.binding.Bindings.createBooleanBinding(
                () -> taxId.getText().isBlank() || editor.taxIdRule(taxId.getText()) != null
                        || reason.getText().isBlank(), taxId.textProperty(), reason.textProperty()));
        ReasonKeys.enterConfirms(reason, (javafx.scene.control.Button) okButton);
        dialog.setResultConverter(button -> button == ok
                ? new TaxIdAnswer(taxId.getText().strip(), reason.getText().strip()) : null);
        ReasonKeys.offer(reason, editor.taxIdReasonToRetry(claimId));
        javafx.application.Platform.runLater(taxId::requestFocus);
        return dialog.showAndWait();
    }
}
