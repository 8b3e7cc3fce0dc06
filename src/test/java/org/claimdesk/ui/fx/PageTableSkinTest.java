package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.Scene;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.skin.TableViewSkin;
import javafx.scene.layout.HBox;
import org.claimdesk.ui.common.PageTableSkin;
import org.claimdesk.ui.common.RowList;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The claims table's skin lays a new number of rows out once, and shows them as the stock skin does: the same
 * rows, texts and empty rows after every change of the row count.
 */
class PageTableSkinTest {
    private final RowList<String> ours = new RowList<>();
    private final RowList<String> stock = new RowList<>();
    private final AtomicInteger oursIndexed = new AtomicInteger();
    private final AtomicInteger stockIndexed = new AtomicInteger();
    private TableView<String> oursTable;
    private TableView<String> stockTable;

    @Test
    void aNewRowCountIsLaidOutOnceAndShownAsTheStockSkinShowsIt() throws Exception {
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupStage(stage -> {
            oursTable = table(ours, oursIndexed);
            PageTableSkin.install(oursTable);
            stockTable = table(stock, stockIndexed);
            stockTable.setSkin(new TableViewSkin<>(stockTable));
            stage.setScene(new Scene(new HBox(oursTable, stockTable), 640, 400));
            stage.show();
        });

        List<int[]> counts = new ArrayList<>();
        for (List<String> page : List.of(rows("a", 200), rows("b", 1), rows("c", 200), rows("d", 0), rows("e", 7),
                rows("f", 200))) {
            FxToolkit.setupFixture(() -> {
                oursIndexed.set(0);
                stockIndexed.set(0);
                ours.showInPlace(page);
                stock.showInPlace(page);
            });
            WaitForAsyncUtils.waitForFxEvents();
            List<String> shownByOurs = onFx(() -> shown(oursTable));
            assertThat(shownByOurs).as("rows on screen after %d rows", page.size()).isEqualTo(onFx(() -> shown(stockTable)));
            if (page.isEmpty()) {
                assertThat(shownByOurs).as("rows on screen after no rows").containsOnly("");
            } else {
                assertThat(shownByOurs).as("rows on screen after %d rows", page.size())
                        .startsWith(page.subList(0, Math.min(page.size(), 3)).toArray(String[]::new));
            }
            counts.add(new int[] {oursIndexed.get(), stockIndexed.get()});
        }
        // 200 -> 1 -> 200 -> 0 and 7 -> 200: the stock skin gives every visible row its index twice (at once
        // when the count is set, and again in the pulse's layout), this skin once
        for (int change : new int[] {1, 2, 3, 5}) {
            int[] c = counts.get(change);
            assertThat(c[0]).as("rows indexed by this skin, change %d", change).isPositive();
            assertThat(c[0] * 2).as("this skin %d, stock skin %d (change %d)", c[0], c[1], change)
                    .isLessThanOrEqualTo(c[1]);
        }
    }

    private static TableView<String> table(RowList<String> items, AtomicInteger indexed) {
        TableView<String> table = new TableView<>(items);
        table.setFixedCellSize(24);
        table.setPrefSize(320, 400);
        TableColumn<String, String> column = new TableColumn<>("Row");
        column.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue()));
        column.setPrefWidth(200);
        table.getColumns().add(column);
        table.setRowFactory(t -> new TableRow<>() {
            @Override
            public void updateIndex(int i) {
                indexed.incrementAndGet();
                super.updateIndex(i);
            }
        });
        return table;
    }

    /** The texts of the visible rows' cells from the top, "" for an empty row. */
    private static List<String> shown(TableView<String> table) {
        List<TableCell<?, ?>> cells = new ArrayList<>();
        table.lookupAll(".table-cell").forEach(n -> {
            if (n instanceof TableCell<?, ?> c && c.isVisible() && c.getTableRow() != null && c.getTableRow().isVisible()) {
                cells.add(c);
            }
        });
        cells.sort((a, b) -> Double.compare(a.getTableRow().getLayoutY(), b.getTableRow().getLayoutY()));
        List<String> texts = new ArrayList<>();
        for (TableCell<?, ?> c : cells) {
            if (c.getTableRow().getLayoutY() < table.getHeight()) {
                texts.add(c.isEmpty() || c.getText() == null ? "" : c.getText());
            }
        }
        return texts;
    }

    private static List<String> rows(String prefix, int n) {
        return IntStream.range(0, n).mapToObj(i -> prefix + i).toList();
    }

    private static <T> T onFx(Supplier<T> work) throws Exception {
        return WaitForAsyncUtils.asyncFx(work::get).get();
    }
}
