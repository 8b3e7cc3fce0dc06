package org.claimdesk.ui.common;

import javafx.scene.control.IndexedCell;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.skin.TableViewSkin;
import javafx.scene.control.skin.VirtualFlow;

/**
 * A {@link TableViewSkin} whose rows are laid out once per pulse when the number of rows changes: the skin
 * of the claims table, whose searches change it all the time.
 *
 * <p>When a page brings another number of rows (a search that finds one claim, then one that finds 200),
 * {@code TableViewSkinBase.updateItemCount} sets the flow's cell count, and {@link VirtualFlow} answers that
 * by laying out every cell at once, from inside the setter; the layout pass of the same pulse then lays
 * them all out again, because none of them has been laid out since. Each of those layouts gives every
 * visible row its index and applies its CSS (rows and cells going from empty to filled are restyled
 * completely). Here the flow only asks for a layout while the count is being set, and the pulse's layout
 * pass, which follows in the same pulse, does the work once.
 */
public final class PageTableSkin<S> extends TableViewSkin<S> {

    public PageTableSkin(TableView<S> table) {
        super(table);
    }

    /** Gives {@code table} this skin. */
    public static <S> void install(TableView<S> table) {
        table.setSkin(new PageTableSkin<>(table));
    }

    @Override
    protected VirtualFlow<TableRow<S>> createVirtualFlow() {
        return new CountFlow<>();
    }

    @Override
    protected void updateItemCount() {
        CountFlow<?> flow = (CountFlow<?>) getVirtualFlow();
        flow.countChanging = true;
        try {
            super.updateItemCount();
        } finally {
            flow.countChanging = false;
        }
    }

    private static final class CountFlow<T extends IndexedCell<?>> extends VirtualFlow<T> {
        private boolean countChanging;

        @Override
        protected void layoutChildren() {
            if (countChanging) {
                requestLayout();
                return;
            }
            super.layoutChildren();
        }
    }
}
