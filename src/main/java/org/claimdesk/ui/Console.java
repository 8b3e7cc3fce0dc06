package org.claimdesk.ui;

import java.nio.file.Path;
import javafx.application.Application;

/** Opens the console window on a database file and returns when it is closed. */
public final class Console {
    private Console() {
    }

    public static void open(Path databaseFile) {
        ConsoleApp.databaseFile = databaseFile;
        Application.launch(ConsoleApp.class);
    }
}
