package org.claimdesk.ui.common;

import java.util.Collection;
import java.util.List;
import javafx.beans.InvalidationListener;
import javafx.beans.WeakInvalidationListener;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableMap;
import javafx.event.EventHandler;
import javafx.geometry.Rectangle2D;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.DialogPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.Region;
import javafx.scene.Scene;
import javafx.stage.Screen;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.stage.WindowEvent;

/**
 * The console's text size: a percentage of the normal size, in steps, that staff choose (View › Larger text, Smaller
 * text, Normal text size) and that this workstation remembers. The stylesheet's text sizes are relative (em) to their
 * window's, so the size set on a window's root sets all of its text; the tables' columns widen or narrow with it, so
 * that what a column showed whole still shows whole. One size for the whole console, the main window and its dialogs
 * alike: FX thread only.
 */
public final class TextSize {
    /** The normal size, in percent. */
    public static final int NORMAL = 100;
    /** The sizes staff step through, in percent. */
    static final List<Integer> STEPS = List.of(80, 90, 100, 110, 125, 150, 175, 200);
    /** The main window's text at the normal size ({@code .main-root} in the console's stylesheet), in pixels. */
    public static final double MAIN_WINDOW_PX = 13;
    /** A dialog's text at the normal size (the AtlantaFX theme's), in pixels. */
    public static final double DIALOG_PX = 14;
    /** A tooltip's text at the normal size (the AtlantaFX theme's, in any window), in pixels. */
    static final double TOOLTIP_PX = 14;

    private static final IntegerProperty PERCENT = new SimpleIntegerProperty(NORMAL);
    /** A table's key: the percent its columns' widths are for (normal when absent). */
    private static final String COLUMNS_FOR = "claimdesk.textSize.columns";
    /** A node's key: what keeps it following the size while the node lives (the size holds it weakly). */
    private static final String FOLLOWING = "claimdesk.textSize.following";
    private static boolean popupsFollowing;

    private TextSize() {
    }

    /** The console's text size in percent, one of the steps. */
    public static IntegerProperty percentProperty() {
        return PERCENT;
    }

    /** The step above {@code percent} (the largest stays). */
    public static int larger(int percent) {
        return STEPS.stream().filter(s -> s > percent).findFirst().orElse(STEPS.get(STEPS.size() - 1));
    }

    /** The step below {@code percent} (the smallest stays). */
    public static int smaller(int percent) {
        int below = STEPS.get(0);
        for (int s : STEPS) {
            if (s < percent) {
                below = s;
            }
        }
        return below;
    }

    /** The step nearest {@code percent} (a remembered value from a settings file, say). */
    public static int step(int percent) {
        int nearest = NORMAL;
        for (int s : STEPS) {
            if (Math.abs(s - percent) < Math.abs(nearest - percent)) {
                nearest = s;
            }
        }
        return nearest;
    }

    /**
     * Keeps {@code root}'s text at the console's size from now on, {@code normalPx} at {@link #NORMAL}: set on the root
     * as its style, none at the normal size (the stylesheet's then).
     */
    public static void follow(Parent root, double normalPx) {
        whileItLives(root, () -> size(root, normalPx));
    }

    private static void size(Parent root, double normalPx) {
        root.setStyle(style(normalPx));
    }

    /** The style that sets a text {@code normalPx} at the normal size at the console's size: none at the normal size. */
    private static String style(double normalPx) {
        return PERCENT.get() == NORMAL ? ""
                : "-fx-font-size: " + String.format(java.util.Locale.ROOT, "%.2f", scaled(normalPx)) + "px;";
    }

    /** Runs {@code apply} now and at each change of the size while {@code node} lives (the size holds it weakly). */
    private static void whileItLives(Node node, Runnable apply) {
        whileItLives(node.getProperties(), apply);
    }

    /** As {@link #whileItLives(Node, Runnable)}, for what holds {@code properties}. */
    private static void whileItLives(ObservableMap<Object, Object> properties, Runnable apply) {
        InvalidationListener listener = o -> apply.run();
        properties.put(FOLLOWING, listener);
        PERCENT.addListener(new WeakInvalidationListener(listener));
        apply.run();
    }

    /**
     * Keeps the columns of the tables among {@code objects} (what an FXML file made, say) at the console's size from
     * now on: the widths they have now are the normal size's.
     */
    public static void tablesFollow(Collection<?> objects) {
        for (Object object : objects) {
            if (object instanceof TableView<?> table && !table.getProperties().containsKey(FOLLOWING)) {
                whileItLives(table, () -> fit(table));
            }
        }
    }

    /**
     * Keeps the text of every dialog (a window whose root is a {@link DialogPane}) and every tooltip at the console's
     * size, from its showing on; once for the console's life. A tooltip's size is set on it: the stylesheet could size
     * it only relative to the control under the mouse, whose text may be larger or smaller than its window's.
     */
    public static void popupsFollow() {
        if (popupsFollowing) {
            return;
        }
        popupsFollowing = true;
        Window.getWindows().addListener((ListChangeListener<Window>) change -> {
            while (change.next()) {
                for (Window window : change.getAddedSubList()) {
                    if (window instanceof Tooltip tooltip && !tooltip.getProperties().containsKey(FOLLOWING)) {
                        whileItLives(tooltip.getProperties(), () -> tooltip.setStyle(style(TOOLTIP_PX)));
                    } else if (window.getScene() != null && window.getScene().getRoot() instanceof DialogPane pane
                            && !pane.getProperties().containsKey(FOLLOWING)) {
                        whileItLives(pane, () -> {
                            size(pane, DIALOG_PX);
                            fitButtons(pane);
                        });
                        if (PERCENT.get() != NORMAL) {
                            keepCentred(window);
                        }
                    }
                }
            }
        });
    }

    /**
     * A dialog is placed on its owner as it is first shown, at its size before it gets the console's: once shown,
     * placed again as JavaFX places it (centred on the owner's scene) at the size its content asks for, kept on its
     * screen. The window may not have that size yet (a dialog shown and waited for has the size of its first layout
     * when it is said shown, and grows to its content's after): a window left at the smaller size would be placed too
     * low, its buttons off the screen.
     */
    private static void keepCentred(Window window) {
        if (!(window instanceof Stage stage) || stage.getOwner() == null || stage.getOwner().getScene() == null) {
            return;
        }
        window.addEventHandler(WindowEvent.WINDOW_SHOWN, new EventHandler<>() {
            @Override
            public void handle(WindowEvent shown) {
                window.removeEventHandler(WindowEvent.WINDOW_SHOWN, this);
                Window owner = stage.getOwner();
                Scene ownerScene = owner.getScene();
                Parent root = window.getScene().getRoot();
                root.applyCss();
                // the content's size within its least and most (a dialog's widest is the stylesheet's)
                double width = bounded(root.prefWidth(-1), root.minWidth(-1), root.maxWidth(-1));
                // the window's frame (its title bar) is above its scene
                double height = bounded(root.prefHeight(width), root.minHeight(width), root.maxHeight(width))
                        + Math.max(0, window.getScene().getY());
                if (!Double.isNaN(window.getHeight())) {
                    height = Math.max(height, window.getHeight());
                }
                double x = owner.getX() + ownerScene.getWidth() / 2 - width / 2;
                double y = owner.getY() + ownerScene.getY() / 2 + ownerScene.getHeight() / 2 - height / 2;
                Rectangle2D screen = Screen.getScreensForRectangle(x, y, width, height).stream().findFirst()
                        .orElse(Screen.getPrimary()).getVisualBounds();
                window.setX(Math.max(screen.getMinX(), Math.min(x, screen.getMaxX() - width)));
                window.setY(Math.max(screen.getMinY(), Math.min(y, screen.getMaxY() - height)));
            }
        });
    }

    private static double bounded(double preferred, double least, double most) {
        return Math.max(least, Math.min(preferred, most));
    }

    /**
     * A dialog's buttons measured again at its size: its button bar gives them all the width of the widest, measured
     * when it was first laid out (at the normal size, before the dialog was shown) and kept as each one's preferred
     * width, which a larger text would cut short.
     */
    private static void fitButtons(DialogPane pane) {
        if (pane.lookup(".button-bar") instanceof ButtonBar bar) {
            for (Node button : bar.getButtons()) {
                if (button instanceof Region region) {
                    region.setPrefWidth(Region.USE_COMPUTED_SIZE);
                }
            }
            bar.requestLayout();
        }
    }

    /** {@code normalPx} at the console's text size: a width set in code for what holds text (a question's box). */
    public static double scaled(double normalPx) {
        return normalPx * PERCENT.get() / NORMAL;
    }

    /** The percent the columns of {@code table} are sized for. */
    public static int columnsFor(TableView<?> table) {
        Object percent = table.getProperties().get(COLUMNS_FOR);
        return percent instanceof Integer p ? p : NORMAL;
    }

    /** {@code width} at the normal size, from a column of {@code table} as it is now. */
    public static double normalWidth(TableView<?> table, double width) {
        return width * NORMAL / columnsFor(table);
    }

    /** A column width at the normal size, at the size {@code table}'s columns are for. */
    public static double widthFor(TableView<?> table, double normalWidth) {
        return normalWidth * columnsFor(table) / NORMAL;
    }

    private static void fit(TableView<?> table) {
        int percent = PERCENT.get();
        if (columnsFor(table) != percent) {
            double ratio = (double) percent / columnsFor(table);
            for (TableColumn<?, ?> column : table.getColumns()) {
                fit(column, ratio);
            }
            table.getProperties().put(COLUMNS_FOR, percent);
        }
    }

    private static void fit(TableColumn<?, ?> column, double ratio) {
        if (column.getColumns().isEmpty()) {
            // the narrowest staff may drag it to shows as much of its text at any size
            column.setMinWidth(column.getMinWidth() * ratio);
            // its width, which staff may have dragged (a drag sets the width alone; the preferred width sets both)
            column.setPrefWidth(column.getWidth() * ratio);
            return;
        }
        for (TableColumn<?, ?> nested : column.getColumns()) {
            fit(nested, ratio);
        }
    }
}
