package org.claimdesk.ui.common;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import javafx.collections.ObservableList;

/** Puts a fresh page into a table's list so that selection and scroll position survive a refresh. */
public final class Rows {
    private Rows() {
    }

    /**
     * When the fresh page holds the same rows in the same order, only changed rows are replaced (the table
     * keeps its selection and scroll position); otherwise the whole list is replaced.
     *
     * @return true when the rows were updated in place
     */
    public static <T> boolean merge(ObservableList<T> target, List<T> fresh, Function<T, Object> id) {
        if (target.size() == fresh.size()) {
            boolean sameIds = true;
            for (int i = 0; i < fresh.size() && sameIds; i++) {
                sameIds = Objects.equals(id.apply(target.get(i)), id.apply(fresh.get(i)));
            }
            if (sameIds) {
                for (int i = 0; i < fresh.size(); i++) {
                    if (!Objects.equals(target.get(i), fresh.get(i))) {
                        target.set(i, fresh.get(i));
                    }
                }
                return true;
            }
        }
        target.setAll(fresh);
        return false;
    }
}
