package org.claimdesk.ui;

import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.SchemaProgress;

/**
 * The small window shown while the database is still opening when the toolkit is up: after an upgrade of
 * ClaimDesk the first opening of a large database brings its schema up to date, which takes seconds, and staff
 * see what is going on instead of nothing. The console's window replaces it once the database is open.
 */
final class OpeningWindow {
    /** What the opening is doing, told on the opening thread; kept for the window, which may come later. */
    static final class Progress implements SchemaProgress {
        private volatile String step = "Opening the database…";
        private volatile boolean upgrading;
        private volatile Runnable onChange = () -> { };

        @Override
        public void applying(int found, int version, int latest) {
            upgrading = found > 0;
            step = SchemaProgress.describe(found, version, latest) + "…";
            onChange.run();
        }

        String step() {
            return step;
        }
    }

    /** Said under an upgrade's step: each version is one transaction, so stopping loses nothing. */
    static final String UPGRADE_NOTE = "This happens once after ClaimDesk is updated and can take a minute on a large"
            + " database. Closing ClaimDesk now loses nothing: the update goes on at its next start.";

    private final Stage stage = new Stage();

    private OpeningWindow(DatabaseLocation location, Progress progress) {
        Label heading = new Label("Opening ClaimDesk");
        heading.getStyleClass().add("title-3");
        Label where = new Label(location.describe());
        where.getStyleClass().add("text-muted");
        where.setWrapText(true);
        ProgressBar working = new ProgressBar(ProgressBar.INDETERMINATE_PROGRESS);
        working.setMaxWidth(Double.MAX_VALUE);
        Label step = new Label();
        step.setId("openingStep");
        step.setWrapText(true);
        Label note = new Label(UPGRADE_NOTE);
        note.setId("openingNote");
        note.getStyleClass().add("text-muted");
        note.setWrapText(true);
        note.managedProperty().bind(note.visibleProperty());
        Runnable show = () -> {
            step.setText(progress.step());
            note.setVisible(progress.upgrading);
        };
        // the listener first, then the step as it is now: a step told in between is not lost
        progress.onChange = () -> Platform.runLater(show);
        show.run();
        VBox content = new VBox(10, heading, where, working, step, note);
        content.setPadding(new Insets(20, 24, 24, 24));
        content.setPrefWidth(480);
        stage.setTitle("Opening ClaimDesk");
        stage.setScene(new Scene(content));
    }

    static OpeningWindow show(DatabaseLocation location, Progress progress) {
        OpeningWindow window = new OpeningWindow(location, progress);
        window.stage.show();
        return window;
    }

    void close() {
        stage.close();
    }
}
