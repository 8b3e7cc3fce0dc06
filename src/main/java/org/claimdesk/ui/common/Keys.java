package org.claimdesk.ui.common;

import java.util.Collection;
import javafx.scene.control.Control;
import javafx.scene.control.Labeled;
import javafx.scene.control.TextInputControl;
import javafx.scene.control.Tooltip;

/**
 * The shortcut key as staff's keyboard names it. The console's shortcuts are JavaFX's Shortcut modifier (menus'
 * {@code Shortcut+N}, a table's select-all and click to add to the selection), which is the Command key on macOS and
 * Ctrl elsewhere; the texts that name a shortcut (notices, tooltips, prompts, the shortcuts' list) are written with
 * "Ctrl+" and said "Cmd+" on macOS. The menus show their own keys as each platform does.
 */
public final class Keys {
    private static final boolean MAC = System.getProperty("os.name", "").startsWith("Mac");

    private Keys() {
    }

    /** {@code text} with its shortcut key named as on this platform ({@code null} stays). */
    public static String say(String text) {
        return say(text, MAC);
    }

    static String say(String text, boolean mac) {
        return text == null || !mac ? text : text.replace("Ctrl+", "Cmd+");
    }

    /**
     * Names the shortcut key as on this platform in the texts of {@code objects} (what an FXML file made: the labels'
     * and buttons' texts, the fields' prompts, the controls' tooltips); a text bound to a model is left to it.
     */
    public static void sayIn(Collection<?> objects) {
        if (MAC) {
            sayIn(objects, true);
        }
    }

    static void sayIn(Collection<?> objects, boolean mac) {
        for (Object object : objects) {
            if (object instanceof Labeled labeled && !labeled.textProperty().isBound()) {
                labeled.setText(say(labeled.getText(), mac));
            }
            if (object instanceof TextInputControl input && !input.promptTextProperty().isBound()) {
                input.setPromptText(say(input.getPromptText(), mac));
            }
            if (object instanceof Control control && control.getTooltip() != null) {
                Tooltip tooltip = control.getTooltip();
                if (!tooltip.textProperty().isBound()) {
                    tooltip.setText(say(tooltip.getText(), mac));
                }
            }
        }
    }
}
