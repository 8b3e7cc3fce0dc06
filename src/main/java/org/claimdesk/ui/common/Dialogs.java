package org.claimdesk.ui.common;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javafx.application.Platform;
import javafx.fxml.FXMLLoader;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

/**
 * The console's questions: a confirmation with an optional or required reason, and a plain confirmation.
 * The reason field is {@code #reasonField}; OK stays disabled while a required reason is empty.
 */
public final class Dialogs {
    /** The console's own styles, over the theme's: the main window's scene and the dialogs that use them. */
    public static final String STYLESHEET = "/org/claimdesk/ui/claimdesk.css";

    private Dialogs() {
    }

    /** Gives {@code dialog} the console's own styles (a dialog is a scene of its own). */
    public static void styled(Dialog<?> dialog) {
        dialog.getDialogPane().getStylesheets().add(Dialogs.class.getResource(STYLESHEET).toExternalForm());
    }

    /** The answer to {@link #confirmWithReason}: confirmed, with the reason typed (possibly empty). */
    public record Answer(String reason) {
    }

    public static Optional<Answer> confirmWithReason(Window owner, String title, String question, String okLabel,
            boolean reasonRequired, String reasonPrompt) {
        return confirmWithReason(owner, title, question, okLabel, reasonRequired, reasonPrompt, "");
    }

    /**
     * As {@link #confirmWithReason(Window, String, String, String, boolean, String)}, the reason box holding
     * {@code given} (the reason of an attempt that failed, see {@link RetryReasons}), selected: typing replaces it.
     */
    public static Optional<Answer> confirmWithReason(Window owner, String title, String question, String okLabel,
            boolean reasonRequired, String reasonPrompt, String given) {
        Dialog<Answer> dialog = new Dialog<>();
        dialog.initOwner(owner);
        dialog.setTitle(title);
        dialog.setHeaderText(question);
        ButtonType ok = new ButtonType(okLabel, ButtonBar.ButtonData.OK_DONE);
        dialog.getDialogPane().getButtonTypes().addAll(ok, ButtonType.CANCEL);
        TextArea reason = reasonArea(reasonPrompt, given);
        Label hint = new Label(reasonRequired ? "A reason is required; it is written to the audit trail."
                : "Optional; written to the audit trail when given.");
        hint.getStyleClass().add("text-muted");
        VBox box = new VBox(8, reasonLabel(reason, reasonRequired), reason, hint);
        box.setPrefWidth(TextSize.scaled(480));
        dialog.getDialogPane().setContent(box);
        okOnReason(dialog, ok, reason, reasonRequired);
        dialog.setResultConverter(button -> button == ok ? new Answer(reason.getText().strip()) : null);
        return dialog.showAndWait();
    }

    public static boolean confirm(Window owner, String title, String question, String okLabel) {
        Alert alert = new Alert(Alert.AlertType.CONFIRMATION);
        alert.initOwner(owner);
        alert.setTitle(title);
        alert.setHeaderText(question);
        ButtonType ok = new ButtonType(okLabel, ButtonBar.ButtonData.OK_DONE);
        alert.getButtonTypes().setAll(ok, ButtonType.CANCEL);
        alert.getDialogPane().lookupButton(ok).setId("dialogOkButton");
        // the button takes the focus: a screen reader reads its help with its name, the question with the answer
        alert.getDialogPane().lookupButton(ok).setAccessibleHelp(question);
        return alert.showAndWait().filter(b -> b == ok).isPresent();
    }

    /**
     * An information dialog of keys and what they do, one row each, in two columns that never wrap, and a note
     * under them.
     */
    public static void keys(Window owner, String title, List<Map.Entry<String, String>> rows, String note) {
        Alert alert = new Alert(Alert.AlertType.INFORMATION);
        alert.initOwner(owner);
        alert.setTitle(title);
        alert.setHeaderText(title);
        GridPane grid = new GridPane();
        grid.getStyleClass().add("key-list");
        StringBuilder read = new StringBuilder(title).append('.');
        for (Map.Entry<String, String> row : rows) {
            Label keys = new Label(Keys.say(row.getKey()));
            keys.getStyleClass().add("keys");
            keys.setMinWidth(Region.USE_PREF_SIZE);
            Label what = new Label(row.getValue());
            what.setMinWidth(Region.USE_PREF_SIZE);
            grid.addRow(grid.getRowCount(), keys, what);
            read.append(' ').append(keys.getText()).append(": ").append(row.getValue()).append('.');
        }
        Label noteLabel = new Label(note);
        noteLabel.setWrapText(true);
        noteLabel.getStyleClass().add("text-muted");
        VBox content = new VBox(grid, noteLabel);
        content.getStyleClass().add("key-list-content");
        alert.getDialogPane().setContent(content);
        alert.getDialogPane().lookupButton(ButtonType.OK).setAccessibleHelp(read.append(' ').append(note).toString());
        alert.showAndWait();
    }

    public static void error(Window owner, String title, String message) {
        Alert alert = new Alert(Alert.AlertType.ERROR);
        if (owner != null) {
            alert.initOwner(owner);
        }
        alert.setTitle(title);
        alert.setHeaderText(title);
        alert.setContentText(message);
        alert.getDialogPane().lookupButton(ButtonType.OK).setAccessibleHelp(message);
        alert.showAndWait();
    }

    /**
     * Loads the FXML file {@code fxml} next to {@code controller}'s class and returns the controller it made: for
     * the dialogs that are built from FXML.
     */
    public static <C> C loadController(Class<C> controller, String fxml) {
        FXMLLoader loader = new FXMLLoader(controller.getResource(fxml));
        try {
            loader.load();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load " + fxml + ": " + e.getMessage(), e);
        }
        ViewFactory.loaded(loader.getNamespace().values());
        return loader.getController();
    }

    /**
     * The reason box of a question (id {@code reasonField}): three lines, wrapped, holding {@code offered} (a reason
     * kept from a try that failed, {@link ReasonKeys#offer}) selected.
     */
    public static TextArea reasonArea(String prompt, String offered) {
        TextArea reason = new TextArea();
        reason.setId("reasonField");
        reason.setPromptText(prompt);
        reason.setPrefRowCount(3);
        reason.setWrapText(true);
        ReasonKeys.offer(reason, offered);
        return reason;
    }

    /**
     * The reason box's visible name, "Reason (required)" or "Reason (optional)", tied to it ({@code labelFor}): what a
     * screen reader names the box by, and what stays on screen when the box's prompt gives way to the caret.
     */
    public static Label reasonLabel(TextArea reason, boolean required) {
        return Accessible.tiedLabel(required ? "Reason (required)" : "Reason (optional)", reason);
    }

    /**
     * {@code ok} (id {@code dialogOkButton}) confirms {@code reason}: Enter in the box presses it, and, {@code required},
     * it waits for a reason; the box takes the focus.
     */
    public static void okOnReason(Dialog<?> dialog, ButtonType ok, TextArea reason, boolean required) {
        Button button = (Button) dialog.getDialogPane().lookupButton(ok);
        button.setId("dialogOkButton");
        if (required) {
            button.disableProperty().bind(reason.textProperty().map(String::isBlank));
        }
        ReasonKeys.enterConfirms(reason, button);
        // the box takes the focus: a screen reader reads its help (the question) with its name
        if (reason.getAccessibleHelp() == null) {
            reason.setAccessibleHelp(dialog.getHeaderText());
        }
        Platform.runLater(reason::requestFocus);
    }
}
