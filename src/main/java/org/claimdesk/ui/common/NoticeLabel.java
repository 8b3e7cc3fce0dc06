package org.claimdesk.ui.common;

import java.util.Locale;
import javafx.beans.value.ObservableValue;
import javafx.scene.control.Label;

/** Shows a ViewModel's latest {@link Notice} in a label styled by its kind; hidden when there is none. */
public final class NoticeLabel {
    private NoticeLabel() {
    }

    public static void bind(Label label, ObservableValue<Notice> notice) {
        label.managedProperty().bind(label.visibleProperty());
        show(label, notice.getValue());
        notice.addListener((obs, old, n) -> show(label, n));
    }

    private static void show(Label label, Notice n) {
        label.getStyleClass().removeIf(c -> c.startsWith("notice-"));
        if (n == null) {
            label.setVisible(false);
            label.setText("");
            return;
        }
        label.setVisible(true);
        label.setText(n.text());
        label.getStyleClass().add("notice-" + n.kind().name().toLowerCase(Locale.ROOT));
    }
}
