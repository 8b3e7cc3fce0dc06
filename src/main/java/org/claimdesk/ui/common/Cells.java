package org.claimdesk.ui.common;

import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.css.PseudoClass;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.Tooltip;
import javafx.scene.text.Text;

/** Small cell factories for the console's tables. */
public final class Cells {
    private Cells() {
    }

    /** Text from the row; {@code null} shows as empty. */
    public static <T> void text(TableColumn<T, String> column, Function<T, String> value) {
        column.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue() == null ? null : value.apply(c.getValue())));
    }

    /** Text with the full value as tooltip (for long error texts; {@link WholeText}). */
    public static <T> void textWithTooltip(TableColumn<T, String> column, Function<T, String> shown,
            Function<T, String> full) {
        column.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue() == null ? null : shown.apply(c.getValue())));
        column.setCellFactory(col -> new TableCell<>() {
            private final WholeText tip = new WholeText();

            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item);
                tip.show(this, full);
            }
        });
    }

    /**
     * Text wrapped within its column's width, its row as high as the lines need (a claim's history's reasons in the
     * narrow detail, shown whole instead of cut to a few words), and at least a dense row's 2em. The text takes the
     * cell's colour, the selected row's included. Its table has the style class {@code wraps}: a row whose CSS cell
     * size is under 24 px (a dense row's 2em at a text size under 100 %) would not ask its cells how high they are.
     */
    public static <T> void wrapped(TableColumn<T, String> column, Function<T, String> value) {
        wrapped(column, value, null);
    }

    /** As {@link #wrapped(TableColumn, Function)}, with {@code full} (when not null) as the cell's tooltip. */
    public static <T> void wrapped(TableColumn<T, String> column, Function<T, String> value, Function<T, String> full) {
        text(column, value);
        column.setCellFactory(col -> new TableCell<>() {
            private final Text text = new Text();
            private final WholeText tip = new WholeText();

            {
                text.fillProperty().bind(textFillProperty());
                text.fontProperty().bind(fontProperty());
                // the cell's padding and border on either side
                text.wrappingWidthProperty().bind(col.widthProperty().subtract(Bindings.createDoubleBinding(
                        () -> snappedLeftInset() + snappedRightInset(), insetsProperty())));
                getStyleClass().add("wrapped-cell");
                setContentDisplay(ContentDisplay.GRAPHIC_ONLY);
            }

            @Override
            protected double computePrefHeight(double width) {
                return Math.max(super.computePrefHeight(width), snapSizeY(2 * getFont().getSize()));
            }

            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                text.setText(empty || item == null ? "" : item);
                setGraphic(empty ? null : text);
                // for screen readers and lookups, the cell's own text as well (not shown: the graphic is)
                setText(empty ? null : item);
                tip.show(this, full);
            }
        });
    }

    /**
     * A cell's tooltip with its row's whole text, made the first time the cell shows a row that has one: a tooltip is a
     * popup control of its own, and a page of rows without that text should not pay for forty of them.
     */
    private static final class WholeText {
        private Tooltip tip;

        /** Shows {@code full}'s text of {@code cell}'s row (none when {@code full} is null or the text blank). */
        <T> void show(TableCell<T, ?> cell, Function<T, String> full) {
            T row = full == null || cell.isEmpty() || cell.getTableRow() == null ? null : cell.getTableRow().getItem();
            String whole = row == null ? null : full.apply(row);
            if (whole == null || whole.isBlank()) {
                cell.setTooltip(null);
                return;
            }
            if (tip == null) {
                tip = new Tooltip();
                tip.setWrapText(true);
                tip.setMaxWidth(640);
            }
            tip.setText(whole);
            cell.setTooltip(tip);
        }
    }

    /** Right-aligned text (numbers, amounts). */
    public static <T> void number(TableColumn<T, String> column, Function<T, String> value) {
        text(column, value);
        column.getStyleClass().add("numeric");
    }

    /**
     * A coloured badge: style class {@code badge} and the pseudo-class {@code :<name in lower case>}.
     * Rows change under a cell all the time (live refresh): a pseudo-class change restyles the badge from
     * JavaFX's cache, where a style class change makes it work out the badge's CSS anew each time.
     */
    public static <T> void badge(TableColumn<T, String> column, Function<T, String> name, Function<String, String> label) {
        column.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue() == null ? null : name.apply(c.getValue())));
        column.setCellFactory(col -> new TableCell<>() {
            private final Label badge = new Label();
            private PseudoClass shown;

            {
                badge.getStyleClass().add("badge");
            }

            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                if (empty || item == null) {
                    setGraphic(null);
                } else {
                    badge.setText(label.apply(item));
                    PseudoClass kind = PseudoClass.getPseudoClass(item.toLowerCase(java.util.Locale.ROOT));
                    if (kind != shown) {
                        if (shown != null) {
                            badge.pseudoClassStateChanged(shown, false);
                        }
                        badge.pseudoClassStateChanged(kind, true);
                        shown = kind;
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
