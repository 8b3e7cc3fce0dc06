package org.claimdesk.ui.common;

import javafx.animation.PauseTransition;
import javafx.beans.value.ObservableBooleanValue;
import javafx.scene.Node;
import javafx.util.Duration;

/**
 * A page's busy indicator, shown only once its work has lasted {@link #DELAY}. Most reads answer sooner: they show
 * nothing, rather than an indicator that flickers at every refresh and whose spinning, on the software renderer,
 * is painted at every frame beside the rows that arrive. The indicator keeps its place in the layout while hidden.
 */
public final class BusyIndicator {
    /** How long work runs before the indicator appears. */
    public static final Duration DELAY = Duration.millis(300);

    private BusyIndicator() {
    }

    /** Shows {@code indicator} while {@code busy} has been true for {@link #DELAY}. FX thread. */
    public static void bind(Node indicator, ObservableBooleanValue busy) {
        PauseTransition wait = new PauseTransition(DELAY);
        wait.setOnFinished(e -> indicator.setVisible(busy.get()));
        busy.addListener((o, was, now) -> {
            if (now) {
                wait.playFromStart();
            } else {
                wait.stop();
                indicator.setVisible(false);
            }
        });
        indicator.setVisible(false);
        if (busy.get()) {
            wait.playFromStart();
        }
    }
}
