package org.claimdesk.ui;

import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.Function;
import javafx.application.Application;

/** Opens the console window on a database file and returns when it is closed. */
public final class Console {
    private Console() {
    }

    public static void open(Path databaseFile) {
        ConsoleApp.databaseFile = databaseFile;
        ConsoleApp.openInBackground();
        Application.launch(ConsoleApp.class);
    }

    /**
     * Opens the console with other services and settings folder, and {@code onShown} called on the FX thread
     * once the window is up (for the benchmark).
     */
    public static void open(Path databaseFile, Function<Path, ConsoleServices> services, Path settingsDirectory,
            Consumer<ConsoleWindow> onShown) {
        ConsoleApp.servicesFactory = services;
        ConsoleApp.settingsDirectory = settingsDirectory;
        ConsoleApp.onShown = onShown;
        open(databaseFile);
    }
}
