package org.claimdesk.ui;

import java.nio.file.Path;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.stage.Stage;
import org.claimdesk.app.DataDirectory;
import org.claimdesk.ui.common.Dialogs;
import org.claimdesk.ui.common.UiSettings;
import org.claimdesk.ui.common.UiSettingsStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JavaFX application. {@link #init()} runs on the launcher thread, so the database is opened and the
 * remembered settings read before the FX thread exists; {@link #stop()} saves the layout and stops the
 * worker and every console thread.
 */
public final class ConsoleApp extends Application {
    private static final Logger LOG = LoggerFactory.getLogger(ConsoleApp.class);

    static volatile Path databaseFile;
    static volatile java.util.function.Consumer<ConsoleWindow> onShown = w -> { };

    private ConsoleServices services;
    private UiSettingsStore settingsStore;
    private UiSettings settings;
    private ConsoleWindow window;
    private RuntimeException failure;

    @Override
    public void init() {
        settingsStore = new UiSettingsStore(DataDirectory.home());
        settings = settingsStore.load();
        try {
            services = ConsoleServices.open(databaseFile);
        } catch (RuntimeException e) {
            LOG.error("cannot open the database {}", databaseFile, e);
            failure = e;
        }
    }

    @Override
    public void start(Stage stage) {
        Thread.currentThread().setUncaughtExceptionHandler((t, e) -> LOG.error("uncaught on the FX thread", e));
        if (failure != null) {
            Dialogs.error(null, "ClaimDesk cannot open its database", failure.getMessage()
                    + "\n\nStart ClaimDesk with --db PATH to use another file.");
            Platform.exit();
            return;
        }
        window = new ConsoleWindow(stage, services, settings);
        window.show();
        onShown.accept(window);
    }

    @Override
    public void stop() {
        if (window != null) {
            UiSettings captured = window.captureSettings();
            window.close();
            settingsStore.save(captured);
        }
        if (services != null) {
            services.close();
        }
        LOG.info("console closed");
    }
}
