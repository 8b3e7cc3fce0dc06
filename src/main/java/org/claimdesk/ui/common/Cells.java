package org.claimdesk.ui.common;

import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.Tooltip;

/** Small cell factories for the console's tables. */
public final class Cells {
    private Cells() {
    }

    /** Text from the row; {@code null} shows as empty. */
    public static <T> void text(TableColumn<T, String> column, Function<T, String> value) {
        column.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue() == null ? null : value.apply(c.getValue())));
    }

    /** Text with the full value as tooltip (for long error texts). */
    public static <T> void textWithTooltip(TableColumn<T, String> column, Function<T, String> shown,
            Function<T, String> full) {
        column.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue() == null ? null : shown.apply(c.getValue())));
        column.setCellFactory(col -> new TableCell<>() {
            private final Tooltip tip = new Tooltip();

            {
                tip.setWrapText(true);
                tip.setMaxWidth(640);
            }

            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                T row = empty || getTableRow() == null ? null : getTableRow().getItem();
                String whole = row == null ? null : full.apply(row);
                setText(empty ? null : item);
                setTooltip(whole == null || whole.isBlank() ? null : tip);
                tip.setText(whole);
            }
        });
    }

    /** Right-aligned text (numbers, amounts). */
    public static <T> void number(TableColumn<T, String> column, Function<T, String> value) {
        text(column, value);
        column.getStyleClass().add("numeric");
    }

    /** A coloured badge: style classes {@code badge} and {@code badge-<name in lower case>}. */
    public static <T> void badge(TableColumn<T, String> column, Function<T, String> name, Function<String, String> label) {
        column.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue() == null ? null : name.apply(c.getValue())));
        column.setCellFactory(col -> new TableCell<>() {
            private final Label badge = new Label();

            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                if (empty || item == null) {
                    setGraphic(null);
                } else {
                    badge.setText(label.apply(item));
                    // A style class change makes JavaFX work out the label's CSS again: only when it differs.
                    String style = "badge-" + item.toLowerCase(java.util.Locale.ROOT);
                    if (!badge.getStyleClass().contains(style)) {
                        badge.getStyleClass().setAll("label", "badge", style);
                    }
                    setGraphic(badge);
                }
                setText(null);
            }
        });
    }

    public static Label badge(String name, String text) {
        Label badge = new Label(text);
        badge.getStyleClass().addAll("badge", "badge-" + name.toLowerCase(java.util.Locale.ROOT));
        return badge;
    }
}
