package org.claimdesk.ui.common;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javafx.collections.ModifiableObservableListBase;

/**
 * The rows of a page on screen: an observable list that can take a fresh page as <em>updates</em> of the
 * positions that changed, plus rows added or removed at the end.
 *
 * <p>A {@code TableView} answers a <em>replace</em> change ({@code set(i, row)} or {@code setAll}) by throwing
 * away every cell and building new ones, CSS included, on the FX thread, each time a live refresh brings a
 * changed row. Updated positions only make it give the cells it already has their new rows. The table's
 * selection stays on its positions: the views put it back on the same rows by id after each change.
 */
public final class RowList<T> extends ModifiableObservableListBase<T> {
    private final List<T> rows = new ArrayList<>();

    /**
     * Makes this list equal to {@code fresh} in one change: positions whose row differs are updated, and
     * the rows beyond the shorter of the two are removed or added.
     *
     * @return how many positions changed (updated, added or removed)
     */
    public int showInPlace(List<T> fresh) {
        int common = Math.min(rows.size(), fresh.size());
        int changed = 0;
        beginChange();
        try {
            for (int i = 0; i < common; i++) {
                if (!Objects.equals(rows.get(i), fresh.get(i))) {
                    rows.set(i, fresh.get(i));
                    nextUpdate(i);
                    changed++;
                }
            }
            if (rows.size() > common) {
                List<T> tail = rows.subList(common, rows.size());
                List<T> removed = new ArrayList<>(tail);
                tail.clear();
                nextRemove(common, removed);
                changed += removed.size();
            } else if (fresh.size() > common) {
                rows.addAll(fresh.subList(common, fresh.size()));
                nextAdd(common, fresh.size());
                changed += fresh.size() - common;
            }
        } finally {
            endChange();
        }
        return changed;
    }

    @Override
    public T get(int index) {
        return rows.get(index);
    }

    @Override
    public int size() {
        return rows.size();
    }

    @Override
    protected void doAdd(int index, T element) {
        rows.add(index, element);
    }

    @Override
    protected T doSet(int index, T element) {
        return rows.set(index, element);
    }

    @Override
    protected T doRemove(int index) {
        return rows.remove(index);
    }
}
