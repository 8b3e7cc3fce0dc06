package org.claimdesk.ui;

import java.nio.file.Path;
import org.claimdesk.store.DatabaseLocation;
import java.util.function.Consumer;
import java.util.function.Function;
import javafx.application.Application;

/** Opens the console window on a database file and returns when it is closed. */
public final class Console {
    private Console() {
    }

    /**
     * Draw every region's background directly instead of from a cached image of it. The cache pays off on
     * a graphics card; with the software renderer (a workstation or remote session without one) drawing
     * the cached image, scaled in nine slices, costs more than the plain fills it replaces, and table rows
     * redraw their backgrounds at every live refresh. Set before JavaFX starts; an explicit setting wins.
     */
    static final String REGION_CACHING = "prism.disableRegionCaching";

    public static void open(DatabaseLocation databaseFile) {
        if (System.getProperty(REGION_CACHING) == null) {
            System.setProperty(REGION_CACHING, "true");
        }
        ConsoleApp.databaseFile = databaseFile;
        ConsoleApp.openInBackground();
        Application.launch(ConsoleApp.class);
    }

    /**
     * Opens the console with other services and settings folder, and {@code onShown} called on the FX thread
     * once the window is up: the extension point for a caller that drives or watches the window (the
     * benchmark and the start-up training in {@code org.claimdesk.bench}); the console itself passes nothing.
     */
    public static void open(DatabaseLocation databaseFile, Function<DatabaseLocation, ConsoleServices> services,
            Path settingsDirectory,
            Consumer<ConsoleWindow> onShown) {
        ConsoleApp.servicesFactory = (location, progress) -> services.apply(location);
        ConsoleApp.settingsDirectory = settingsDirectory;
        ConsoleApp.onShown = onShown;
        open(databaseFile);
    }
}
