package org.claimdesk.ui;

import java.nio.file.Path;
import org.claimdesk.store.DatabaseLocation;
import java.util.function.Consumer;
import java.util.function.Function;
import javafx.application.Application;
import org.slf4j.LoggerFactory;

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
     * Shows why ClaimDesk cannot start (a setting it refuses, such as the database address in {@code CLAIMDESK_DB})
     * in the console's refusal dialog, for a start from the desktop, whose standard error nobody sees; returns when
     * it is closed. Nothing is opened.
     */
    public static void cannotStart(String why) {
        if (noDisplay(System.getProperty("os.name", ""), System.getenv())) {
            // a start from a terminal without a desktop: standard error has said it already
            return;
        }
        ConsoleApp.refusal = new IllegalArgumentException(why);
        try {
            Application.launch(ConsoleApp.class);
        } catch (RuntimeException | Error noToolkit) {
            LoggerFactory.getLogger(Console.class).warn("could not show why ClaimDesk cannot start", noToolkit);
        }
    }

    /** On Linux and other X11 or Wayland systems, a process started without a display to open windows on. */
    static boolean noDisplay(String osName, java.util.Map<String, String> env) {
        String os = osName.toLowerCase(java.util.Locale.ROOT);
        if (os.startsWith("windows") || os.startsWith("mac")) {
            return false;
        }
        return isBlank(env.get("DISPLAY")) && isBlank(env.get("WAYLAND_DISPLAY"));
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
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
