package org.claimdesk.ui;

import javafx.scene.control.ButtonType;
import javafx.scene.control.TextInputDialog;
import org.claimdesk.app.Operators;
import org.claimdesk.domain.ClaimDeskException;

/** First start: who works at this console. Every audited action carries this name. */
final class OperatorDialog {
    private OperatorDialog() {
    }

    /** Asks until the name is acceptable; closing the dialog keeps {@code suggested}. */
    static String ask(String suggested) {
        String error = null;
        while (true) {
            TextInputDialog dialog = new TextInputDialog(suggested);
            dialog.setTitle("ClaimDesk: who is working here?");
            dialog.setHeaderText("Your name goes on every action you take in ClaimDesk (the audit trail).");
            dialog.setContentText(error == null ? "Operator name:" : error + "\nOperator name:");
            dialog.getDialogPane().lookupButton(ButtonType.OK).setId("operatorOk");
            dialog.getEditor().setId("operatorName");
            String answer = dialog.showAndWait().orElse(suggested);
            try {
                return Operators.check(answer);
            } catch (ClaimDeskException e) {
                error = e.getMessage().substring(0, 1).toUpperCase(java.util.Locale.ROOT) + e.getMessage().substring(1) + ".";
            }
        }
    }
}
