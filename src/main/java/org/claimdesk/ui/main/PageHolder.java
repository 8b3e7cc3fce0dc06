package org.claimdesk.ui.main;

import javafx.scene.Parent;
import javafx.scene.layout.StackPane;

/**
 * Holds one page in the page area and keeps it out of the layout pass while it is hidden. JavaFX lays
 * out a hidden node like a shown one: a page of rows reaching a hidden table would cost layout time on the
 * FX thread while staff watch another page. Here a layout request from inside a hidden page is noted and passed on when the page is shown again, so its
 * first pulse on screen lays it out once with everything that changed. The holder is visible exactly
 * when its page is.
 */
final class PageHolder extends StackPane {
    private boolean deferred;

    PageHolder(Parent page) {
        super(page);
        visibleProperty().bind(page.visibleProperty());
        visibleProperty().addListener((obs, was, shown) -> {
            if (shown && deferred) {
                deferred = false;
                super.requestLayout();
            }
        });
    }

    @Override
    public void requestLayout() {
        if (getParent() != null && !isVisible()) {
            deferred = true;
            return;
        }
        super.requestLayout();
    }
}
