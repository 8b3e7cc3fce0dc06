package org.claimdesk.ui.common;

import javafx.scene.control.Button;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;

/**
 * The keys of a reason typed in a text area, for staff at the keyboard: Tab and Shift+Tab move the focus as they do
 * from a text field (a text area would type a tab), and where the area ends a question, Enter answers it as the
 * dialog's button would be clicked (when enabled) and Shift+Enter starts a new line.
 */
public final class ReasonKeys {
    private ReasonKeys() {
    }

    /** Tab and Shift+Tab move the focus out of {@code area}. */
    public static void tabMovesOn(TextArea area) {
        install(area, null);
    }

    /** As {@link #tabMovesOn}, and Enter fires {@code confirm} when it is enabled; Shift+Enter starts a new line. */
    public static void enterConfirms(TextArea area, Button confirm) {
        install(area, confirm);
    }

    /**
     * Puts {@code kept} in the box, selected (typing replaces it): the reason given when the action last failed (see
     * {@link RetryReasons}); null or empty leaves it empty.
     */
    public static void offer(TextArea area, String kept) {
        area.setText(kept == null ? "" : kept);
        area.selectAll();
    }

    private static void install(TextArea area, Button confirm) {
        area.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            boolean plain = !e.isControlDown() && !e.isAltDown() && !e.isMetaDown();
            if (e.getCode() == KeyCode.TAB && plain) {
                e.consume();
                // Ctrl+Tab (and Ctrl+Shift+Tab) is the text area's own way to the next (previous) control
                area.fireEvent(new KeyEvent(KeyEvent.KEY_PRESSED, "", "", KeyCode.TAB, e.isShiftDown(), true, false,
                        false));
            } else if (e.getCode() == KeyCode.ENTER && plain && confirm != null) {
                e.consume();
                if (e.isShiftDown()) {
                    area.replaceSelection("\n");
                } else if (!confirm.isDisabled()) {
                    confirm.fire();
                }
            }
        });
    }
}
