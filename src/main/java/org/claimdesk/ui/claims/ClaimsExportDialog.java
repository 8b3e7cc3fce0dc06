package org.claimdesk.ui.claims;

import java.io.File;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Optional;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.stage.Window;
import org.claimdesk.ui.common.Dialogs;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.ReasonKeys;

/**
 * The question "Export…" on the Claims page asks: the file (typed, or chosen with the file chooser), and whether to
 * include full tax ids, which needs a reason for the audit trail. Asks only; the export runs in
 * {@link ClaimsExportViewModel}.
 */
final class ClaimsExportDialog {
    private ClaimsExportDialog() {
    }

    /** What staff answered: the file, and the tax ids whole with a reason, or masked. */
    record Answer(Path file, boolean includeTaxIds, String reason, boolean replace) {
    }

    /**
     * @param claims the current filters' claims, negative when they are not counted yet
     * @param again an export asked for before that failed, offered again as it was typed; null for none
     */
    static Optional<Answer> ask(Window owner, int claims, ClaimsExportViewModel.Request again) {
        Dialog<Answer> dialog = new Dialog<>();
        dialog.initOwner(owner);
        dialog.setTitle("Export claims");
        dialog.setHeaderText("Export the " + (claims < 0 ? "" : Formats.count(claims) + " ")
                + "claim(s) of the current filters in the import's format (docs/import.md)");
        Dialogs.styled(dialog);
        ButtonType ok = new ButtonType("Export", ButtonBar.ButtonData.OK_DONE);
        dialog.getDialogPane().getButtonTypes().addAll(ok, ButtonType.CANCEL);

        TextField file = new TextField(again != null ? again.file().toString() : Path.of(System.getProperty("user.home"),
                "claimdesk-claims-" + LocalDate.now() + ".csv").toString());
        // the file chooser asks itself before replacing a file it was given; a path typed is asked about once the
        // export has found it there (off the UI thread: the folder may be a share)
        Path[] replaceAsked = {null};
        file.setId("exportFileField");
        HBox.setHgrow(file, Priority.ALWAYS);
        Button choose = new Button("Choose…");
        choose.setOnAction(e -> {
            FileChooser chooser = new FileChooser();
            chooser.setTitle("Export claims");
            chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("CSV files", "*.csv"));
            Path typed = path(file.getText());
            if (typed != null && typed.toAbsolutePath().getParent() != null
                    && typed.toAbsolutePath().getParent().toFile().isDirectory()) {
                chooser.setInitialDirectory(typed.toAbsolutePath().getParent().toFile());
                chooser.setInitialFileName(typed.getFileName().toString());
            }
            File chosen = chooser.showSaveDialog(dialog.getDialogPane().getScene().getWindow());
            if (chosen != null) {
                replaceAsked[0] = chosen.toPath().toAbsolutePath();
                file.setText(chosen.getPath());
            }
        });
        HBox fileRow = new HBox(8, org.claimdesk.ui.common.Accessible.tiedLabel("File", file), file, choose);
        fileRow.setAlignment(javafx.geometry.Pos.CENTER_LEFT);

        Label masked = new Label("Tax ids are masked to their last four digits: the file is for reading, and an"
                + " import rejects its rows at taxId.");
        masked.setWrapText(true);
        masked.getStyleClass().add("text-muted");
        CheckBox include = new CheckBox("Include full tax ids (so the file imports into another database)");
        include.setId("includeTaxIdsCheck");
        TextArea reason = new TextArea();
        reason.setId("exportReasonField");
        reason.setPromptText("Why are full tax ids exported? (required; written to the audit trail with your name)");
        reason.setPrefRowCount(2);
        reason.setWrapText(true);
        if (again != null) {
            include.setSelected(again.includeTaxIds());
            reason.setText(again.reason() == null ? "" : again.reason());
        }
        reason.visibleProperty().bind(include.selectedProperty());
        reason.managedProperty().bind(reason.visibleProperty());
        masked.visibleProperty().bind(include.selectedProperty().not());
        masked.managedProperty().bind(masked.visibleProperty());

        Label reasonLabel = org.claimdesk.ui.common.Dialogs.reasonLabel(reason, true);
        reasonLabel.visibleProperty().bind(reason.visibleProperty());
        reasonLabel.managedProperty().bind(reason.managedProperty());
        VBox box = new VBox(10, fileRow, include, new VBox(4, reasonLabel, reason), masked);
        box.setPrefWidth(org.claimdesk.ui.common.TextSize.scaled(620));
        dialog.getDialogPane().setContent(box);
        Node okButton = dialog.getDialogPane().lookupButton(ok);
        okButton.setId("dialogOkButton");
        okButton.disableProperty().bind(Bindings.createBooleanBinding(() -> path(file.getText()) == null
                || include.isSelected() && reason.getText().isBlank(),
                file.textProperty(), include.selectedProperty(), reason.textProperty()));
        ReasonKeys.enterConfirms(reason, (javafx.scene.control.Button) okButton);
        dialog.setResultConverter(b -> b == ok
                ? new Answer(path(file.getText()), include.isSelected(), include.isSelected() ? reason.getText().strip() : null,
                        path(file.getText()).toAbsolutePath().equals(replaceAsked[0]))
                : null);
        Platform.runLater(file::requestFocus);
        return dialog.showAndWait();
    }

    private static Path path(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Path.of(text.strip());
        } catch (InvalidPathException e) {
            return null;
        }
    }
}
