package org.claimdesk.ui.common;

import javafx.scene.AccessibleAttribute;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;

/**
 * Names for assistive technology. A screen reader names a text field, a text area or a combo box by the label tied to
 * it ({@link Label#setLabelFor}); its accessible text would be read as its value instead. Where the field's prompt, or
 * the row it sits in, says what it is on screen, {@link #name} ties a label of its own that is not shown.
 */
public final class Accessible {
    private Accessible() {
    }

    /**
     * Names {@code input} {@code name} for a screen reader, by a label tied to it and not shown; a spinner, which
     * reads its value as its name, also gets {@code name} as its help.
     */
    public static <T extends Node> T name(T input, String name) {
        tiedLabel(name, input);
        if (input instanceof Spinner<?>) {
            input.setAccessibleHelp(name);
        }
        return input;
    }

    /** A label {@code text} tied to {@code input} ({@code labelFor}), for a screen reader to name it by. */
    public static Label tiedLabel(String text, Node input) {
        Label label = new Label(text);
        label.setMnemonicParsing(false);
        label.setLabelFor(input);
        return label;
    }

    /** What a screen reader names {@code input} by: its tied label's text; null when none is tied. */
    public static String nameOf(Node input) {
        Object label = input.queryAccessibleAttribute(AccessibleAttribute.LABELED_BY);
        return label instanceof Label l ? l.getText() : null;
    }
}
