package org.claimdesk.ui.common;

/** What the main window asks of the page on screen: refresh (F5) and focus its search (Ctrl+F). */
public interface PageControls {
    void refresh();

    void focusSearch();
}
