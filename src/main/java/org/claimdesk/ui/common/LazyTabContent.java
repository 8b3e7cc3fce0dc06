package org.claimdesk.ui.common;

import javafx.scene.Node;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;

/**
 * Keeps the content of a tab pane's unselected tabs out of the scene until each tab is first selected, by staff or
 * by code. A {@code TabPane} keeps every tab's content in the scene, hidden, so the first pulse that shows the pane
 * styles and skins all of them; with this, only the tab on screen. A tab's content joins at its first selection
 * and then stays, so its controls keep their state from then on.
 */
public final class LazyTabContent {
    private LazyTabContent() {
    }

    /** Holds back the content of every tab of {@code tabs} that is not selected now. FX thread. */
    public static void holdUntilSelected(TabPane tabs) {
        for (Tab tab : tabs.getTabs()) {
            Node content = tab.getContent();
            if (tab.isSelected() || content == null) {
                continue;
            }
            tab.setContent(null);
            Once.when(tab.selectedProperty(), Boolean::booleanValue, () -> tab.setContent(content));
        }
    }
}
