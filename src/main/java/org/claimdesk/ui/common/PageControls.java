package org.claimdesk.ui.common;

/**
 * What the main window asks of the page on screen: refresh (F5), focus its search (Ctrl+F), and take the focus when
 * it is switched to (its table, where staff go on with the arrow keys).
 */
public interface PageControls {
    void refresh();

    void focusSearch();

    void focusMain();
}
