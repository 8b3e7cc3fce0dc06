package org.claimdesk.ui.common;

import java.util.function.Predicate;
import javafx.beans.InvalidationListener;
import javafx.beans.Observable;
import javafx.beans.value.ObservableValue;

/** An action run once, at the first change after which an observable value meets a condition. */
public final class Once {
    private Once() {
    }

    /**
     * Runs {@code action} the first time {@code value} changes to meet {@code condition} (its value now is not
     * tested), then stops listening. On the value's thread, the FX thread for the console's properties.
     */
    public static <T> void when(ObservableValue<T> value, Predicate<? super T> condition, Runnable action) {
        value.addListener(new InvalidationListener() {
            @Override
            public void invalidated(Observable changed) {
                if (condition.test(value.getValue())) {
                    value.removeListener(this);
                    action.run();
                }
            }
        });
    }
}
