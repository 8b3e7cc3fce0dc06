package org.claimdesk.ui.common;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the console remembers between runs on this workstation: window bounds, theme, text size, the last page, split
 * positions, table column layouts (order, width, visibility) and whether the delivery worker starts with
 * the console. Mutable, touched on the FX thread only; written as
 * JSON by {@link UiSettingsStore}.
 */
public final class UiSettings {
    public double x = Double.NaN;
    public double y = Double.NaN;
    public double width = 1440;
    public double height = 900;
    public boolean maximized;
    public boolean dark;
    /** The text size, in percent of the normal size ({@link TextSize}). */
    public int textSize = TextSize.NORMAL;
    public String page = "CLAIMS";
    /** Who works at this console; asked at first start. */
    public String operator;
    /** Start the delivery worker with the console (unless staff paused it); on unless staff turned it off. */
    public boolean startWorker = true;
    public Map<String, double[]> dividers = new LinkedHashMap<>();
    public Map<String, List<Column>> columns = new LinkedHashMap<>();

    /** One table column as it was left: its id, width and whether it was shown. */
    public static final class Column {
        public String id;
        public double width;
        public boolean visible = true;

        public Column() {
        }

        public Column(String id, double width, boolean visible) {
            this.id = id;
            this.width = width;
            this.visible = visible;
        }
    }

    /**
     * Takes the window's part of {@code from} (bounds, theme, text size, page, split positions, columns), leaving who
     * works here and whether the worker starts with the console as they are.
     */
    public void takeWindowOf(UiSettings from) {
        x = from.x;
        y = from.y;
        width = from.width;
        height = from.height;
        maximized = from.maximized;
        dark = from.dark;
        textSize = from.textSize;
        page = from.page;
        dividers = new LinkedHashMap<>();
        from.dividers.forEach((k, v) -> dividers.put(k, v.clone()));
        columns = new LinkedHashMap<>();
        from.columns.forEach((k, v) -> columns.put(k, v.stream().map(col -> new Column(col.id, col.width, col.visible))
                .toList()));
    }

    public UiSettings copy() {
        UiSettings c = new UiSettings();
        c.takeWindowOf(this);
        c.operator = operator;
        c.startWorker = startWorker;
        return c;
    }
}
