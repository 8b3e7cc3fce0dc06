package org.claimdesk.ui.outbox;

import org.claimdesk.ui.common.Accessible;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.fxml.FXML;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.layout.VBox;
import org.claimdesk.app.Resubmission;
import org.claimdesk.domain.KeyPolicy;
import org.claimdesk.domain.PayloadDiff;
import org.claimdesk.ui.common.Dialogs;
import org.claimdesk.ui.common.Keys;

/**
 * The content of the Resubmit dialog (ResubmitDialog.fxml): the state's error, the payload diff against the
 * refused payload, what will happen, and the reason. Shows a {@link Resubmission.Check}; does no IO.
 */
public final class ResubmitDialogView {
    @FXML private VBox resubmitPane;
    @FXML private Label resubmitTitle;
    @FXML private TextArea resubmitStateError;
    @FXML private TableView<PayloadDiff.Change> resubmitDiffTable;
    @FXML private TableColumn<PayloadDiff.Change, String> diffFieldColumn;
    @FXML private TableColumn<PayloadDiff.Change, String> diffBeforeColumn;
    @FXML private TableColumn<PayloadDiff.Change, String> diffAfterColumn;
    @FXML private Label resubmitExplanation;
    @FXML private TextArea reasonField;
    @FXML private javafx.scene.control.Label reasonLabel;

    /** Loads the dialog's FXML; its controller is this class. */
    public static ResubmitDialogView load() {
        return Dialogs.loadController(ResubmitDialogView.class, "ResubmitDialog.fxml");
    }

    @FXML
    private void initialize() {
        Accessible.name(resubmitStateError, "The state's error");
        diffFieldColumn.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().field()));
        diffBeforeColumn.setCellValueFactory(c -> new ReadOnlyStringWrapper(shown(c.getValue().before())));
        diffAfterColumn.setCellValueFactory(c -> new ReadOnlyStringWrapper(shown(c.getValue().after())));
        reasonLabel.setLabelFor(reasonField);
        reasonLabel.visibleProperty().bind(reasonField.visibleProperty());
        reasonLabel.managedProperty().bind(reasonField.managedProperty());
    }

    public VBox root() {
        return resubmitPane;
    }

    public TextArea reasonField() {
        return reasonField;
    }

    public void show(Resubmission.Check check) {
        resubmitTitle.setText("Outbox row " + check.outboxEventId() + " · claim " + check.claimNumber());
        resubmitStateError.setText(check.lastError() == null ? "(no error recorded)" : check.lastError());
        resubmitDiffTable.getItems().setAll(check.diff().changes());
        resubmitExplanation.setText(explanation(check));
        reasonField.setVisible(check.decision() == KeyPolicy.Decision.RESUBMIT);
        reasonField.setManaged(reasonField.isVisible());
        // read with the box's name when it takes the focus: what is sent, and why it needs the reason
        reasonField.setAccessibleHelp(resubmitTitle.getText() + ". " + resubmitExplanation.getText());
    }

    /** What resubmitting does, or why it cannot be done yet and what to do instead. */
    static String explanation(Resubmission.Check check) {
        if (check.decision() == KeyPolicy.Decision.RESUBMIT) {
            return "Resubmitting sends the claim as it is now under a new idempotency key; row " + check.outboxEventId()
                    + " is kept, marked superseded, with its attempts."
                    + (check.stateMayHoldIt() ? " Its last attempt had no answer from the state, so the state is"
                            + " asked first whether it holds the row; if it does, nothing is resubmitted." : "");
        }
        String fix = Keys.say("The claim's data has not changed since the state refused it: correct it first"
                + " (edit the claim: Claims page, Ctrl+E), then resubmit.");
        return check.decision() == KeyPolicy.Decision.REQUEUE_NEEDS_CONFIRMATION
                ? fix + " Re-queueing it unchanged is possible, but " + KeyPolicy.UNCHANGED_REFUSAL_WARNING + "."
                : fix + " It did not fail for its content: re-queueing it unchanged under its key is safe.";
    }

    private static String shown(String value) {
        return value == null ? "(none)" : value;
    }
}
