package org.claimdesk.ui.common;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.scene.control.ComboBox;

/**
 * A filter's choices that change under it (the jurisdictions, read again as staff open the list): the box lists "all"
 * (null) and the values, and keeps the model's choice. Replacing a box's items moves its selection for a moment; only
 * a value staff pick reaches the model meanwhile, so that a list read again applies no filter.
 */
public final class FilterChoices {
    private static final Object SYNCING = new Object();

    private FilterChoices() {
    }

    /**
     * Keeps {@code box}'s items {@code [null, values…]} as {@code values} change, its value {@code chosen}'s, and hands
     * {@code picked} a value staff pick that is not {@code chosen}'s; not the box's own moves while its items are
     * replaced.
     */
    public static <T> void follow(ComboBox<T> box, ObservableList<T> values, Supplier<T> chosen,
            java.util.function.Consumer<T> picked) {
        Runnable sync = () -> {
            List<T> items = new ArrayList<>(values.size() + 1);
            items.add(null);
            items.addAll(values);
            box.getProperties().put(SYNCING, Boolean.TRUE);
            try {
                if (!box.getItems().equals(items)) {
                    box.getItems().setAll(items);
                }
                T current = chosen.get();
                if (!Objects.equals(box.getValue(), current)) {
                    box.setValue(current);
                }
            } finally {
                box.getProperties().remove(SYNCING);
            }
        };
        values.addListener((ListChangeListener<T>) c -> sync.run());
        sync.run();
        box.valueProperty().addListener((obs, old, value) -> {
            if (!box.getProperties().containsKey(SYNCING) && !Objects.equals(value, chosen.get())) {
                picked.accept(value);
            }
        });
    }

    /**
     * Reads a filter's values again in the background ({@code read}, "load jurisdictions"), as staff open its list or
     * the page opens: {@code values} change only when they differ; a failure goes to {@code failed}.
     */
    public static <T> void reload(TaskRunner tasks, String what, java.util.concurrent.Callable<List<T>> read,
            ObservableList<T> values, java.util.function.Consumer<Throwable> failed) {
        tasks.submit(what, p -> read.call(), found -> {
            if (!values.equals(found)) {
                values.setAll(found);
            }
        }, failed);
    }
}
