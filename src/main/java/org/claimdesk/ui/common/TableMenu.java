package org.claimdesk.ui.common;

import java.util.ArrayList;
import java.util.List;
import javafx.geometry.Bounds;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.input.ContextMenuEvent;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;

/**
 * A page table's own menu (the Menu key or Shift+F10, a right click): sort by a column and show or hide columns,
 * what the column headers and the table's header menu button offer the mouse only. Sorting goes through the table's
 * sort order, so a table sorted in the database sorts there as a header click does.
 */
public final class TableMenu {
    private TableMenu() {
    }

    public static <T> void install(TableView<T> table) {
        Menu sort = new Menu("Sort by");
        Menu columns = new Menu("Columns");
        ContextMenu menu = new ContextMenu(sort, columns);
        // its entries as the columns are when it opens (their order, which shows, which sorts)
        fill(table, sort, columns);
        menu.setOnShowing(e -> fill(table, sort, columns));
        table.setContextMenu(menu);
        // not every platform turns these keys into a context menu request (Linux does not): opened here
        table.addEventHandler(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.CONTEXT_MENU || e.getCode() == KeyCode.F10 && e.isShiftDown()) {
                Bounds shown = table.localToScreen(table.getBoundsInLocal());
                if (shown != null) {
                    menu.show(table, shown.getMinX() + 24, shown.getMinY() + 32);
                }
                e.consume();
            }
        });
        // where the platform turns those keys into a request as well (Windows), the menu is open already
        table.addEventFilter(ContextMenuEvent.CONTEXT_MENU_REQUESTED, e -> {
            if (e.isKeyboardTrigger() && menu.isShowing()) {
                e.consume();
            }
        });
    }

    static <T> void fill(TableView<T> table, Menu sort, Menu columns) {
        List<MenuItem> sortBy = new ArrayList<>();
        List<MenuItem> shownColumns = new ArrayList<>();
        TableColumn<T, ?> sortedBy = table.getSortOrder().isEmpty() ? null : table.getSortOrder().get(0);
        for (TableColumn<T, ?> column : table.getColumns()) {
            String name = column.getText();
            if (name == null || name.isBlank()) {
                continue;
            }
            if (column.isSortable() && column.isVisible()) {
                boolean reversing = column == sortedBy;
                MenuItem by = new MenuItem(name + (reversing ? ", the other way" : ""));
                by.setId("sortBy-" + column.getId());
                by.setOnAction(e -> {
                    if (reversing) {
                        column.setSortType(column.getSortType() == TableColumn.SortType.ASCENDING
                                ? TableColumn.SortType.DESCENDING : TableColumn.SortType.ASCENDING);
                    } else {
                        column.setSortType(TableColumn.SortType.ASCENDING);
                        table.getSortOrder().setAll(List.of(column));
                    }
                });
                sortBy.add(by);
            }
            CheckMenuItem shown = new CheckMenuItem(name);
            shown.setId("showColumn-" + column.getId());
            shown.setSelected(column.isVisible());
            shown.setOnAction(e -> column.setVisible(shown.isSelected()));
            shownColumns.add(shown);
        }
        sort.getItems().setAll(sortBy);
        sort.setVisible(!sortBy.isEmpty());
        columns.getItems().setAll(shownColumns);
    }
}
