package org.claimdesk.ui;

/** Opens the package-private first-start dialog for {@code OperatorDialogTest}. */
public final class OperatorDialogProbe {
    private OperatorDialogProbe() {
    }

    public static String ask(String suggested) {
        return OperatorDialog.ask(suggested);
    }
}
