package org.claimdesk.ui.common;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.collections.ListChangeListener;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;

/**
 * Remembers split positions and table column layouts (order, width at the normal text size, visibility) in {@link
 * UiSettings}.
 * Views register their split panes and tables once; saved layouts are applied then, and captured again when staff
 * change them ({@link #onChange}) and when the console closes. FX thread only.
 */
public final class LayoutMemory {
    private final UiSettings settings;
    private final Map<String, SplitPane> splits = new LinkedHashMap<>();
    private final Map<String, TableView<?>> tables = new LinkedHashMap<>();
    private Runnable onChange = () -> { };

    public LayoutMemory(UiSettings settings) {
        this.settings = settings;
    }

    public UiSettings settings() {
        return settings;
    }

    /**
     * Runs {@code listener} at each change of a registered layout from now on (a divider moved; a column widened,
     * moved, shown or hidden), including those the layout makes itself, as a window's resize does to a table that fills
     * its width.
     */
    public void onChange(Runnable listener) {
        onChange = listener;
    }

    private void changed() {
        onChange.run();
    }

    public void split(String key, SplitPane pane) {
        splits.put(key, pane);
        double[] saved = settings.dividers.get(key);
        if (saved != null && saved.length == pane.getDividers().size()) {
            pane.setDividerPositions(saved);
        }
        pane.getDividers().forEach(d -> d.positionProperty().addListener((o, before, now) -> changed()));
    }

    /** Columns need a non-empty {@code id}; columns the saved layout does not know keep their place at the end. */
    public <T> void table(String key, TableView<T> table) {
        tables.put(key, table);
        table.setTableMenuButtonVisible(true);
        TableMenu.install(table);
        apply(settings.columns.get(key), table);
        table.getColumns().addListener((ListChangeListener<TableColumn<T, ?>>) c -> changed());
        for (TableColumn<T, ?> column : table.getColumns()) {
            column.widthProperty().addListener((o, before, now) -> changed());
            column.visibleProperty().addListener((o, before, now) -> changed());
        }
    }

    private static <T> void apply(List<UiSettings.Column> saved, TableView<T> table) {
        if (saved == null || saved.isEmpty()) {
            return;
        }
        List<TableColumn<T, ?>> ordered = new ArrayList<>();
        List<TableColumn<T, ?>> rest = new ArrayList<>(table.getColumns());
        for (UiSettings.Column c : saved) {
            for (TableColumn<T, ?> col : rest) {
                if (c.id != null && c.id.equals(col.getId())) {
                    if (c.width > 10) {
                        col.setPrefWidth(TextSize.widthFor(table, c.width));
                    }
                    col.setVisible(c.visible);
                    ordered.add(col);
                    rest.remove(col);
                    break;
                }
            }
        }
        ordered.addAll(rest);
        table.getColumns().setAll(ordered);
    }

    /** Writes the current layout of every registered split pane and table into the settings. */
    public void capture() {
        splits.forEach((key, pane) -> settings.dividers.put(key, pane.getDividerPositions()));
        tables.forEach((key, table) -> {
            List<UiSettings.Column> cols = new ArrayList<>();
            for (TableColumn<?, ?> col : table.getColumns()) {
                if (col.getId() != null) {
                    cols.add(new UiSettings.Column(col.getId(), TextSize.normalWidth(table, col.getWidth()),
                            col.isVisible()));
                }
            }
            settings.columns.put(key, cols);
        });
    }
}
