package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import org.claimdesk.app.AuditedWorker;
import org.claimdesk.delivery.WorkerSnapshot;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.store.Database;
import org.claimdesk.ui.common.UiSettings;
import org.claimdesk.ui.common.UiSettingsStore;
import org.claimdesk.ui.testing.FakeWorker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The console as a workstation starts it, with "start the delivery worker with the console" on (the
 * default): the worker runs unless staff paused it, and the status bar says which.
 */
class WorkerStartFxTest extends ConsoleFxTest {
    static final String PAUSED_TEST = "aWorkerPausedByStaffComesUpPausedAndTheStatusBarSaysByWhomAndWhy";
    static final String REASON = "state asked us to hold submissions until the portal upgrade is done";

    @Override
    UiSettings settings() {
        UiSettings ui = super.settings();
        ui.startWorker = true;
        return ui;
    }

    @Override
    void prepare(Database database, TestInfo test) {
        if (test.getTestMethod().orElseThrow().getName().equals(PAUSED_TEST)) {
            new AuditedWorker(new FakeWorker(), database, Clock.systemUTC(), "r.okafor").pause(REASON);
        }
    }

    private Label workerStatus() {
        return robot.lookup("#workerStatus").queryAs(Label.class);
    }

    @Test
    void theWorkerStartsWithTheConsoleAndTheStatusBarSaysItRuns() {
        waitReady();
        waitUntil("the status bar says the worker runs", () -> workerStatus().getText().equals("Worker running"));
        assertThat(workerStatus().getStyleClass()).doesNotContain("status-warning");
        assertThat(services.worker().snapshot().runState()).isEqualTo(WorkerSnapshot.RunState.RUNNING);
        assertThat(robot.lookup("#demoBanner").query().isVisible()).as("nothing to say at start").isFalse();

        robot.press(KeyCode.CONTROL, KeyCode.DIGIT3).release(KeyCode.DIGIT3, KeyCode.CONTROL);
        waitUntil("the Worker page says it runs", () ->
                robot.lookup("#workerStateLabel").queryAs(Label.class).getText().startsWith("Running")
                && robot.lookup("#workerStartButton").queryAs(Button.class).isDisabled());
        CheckBox startWithConsole = robot.lookup("#startWithConsoleCheck").queryAs(CheckBox.class);
        assertThat(startWithConsole.isSelected()).isTrue();

        robot.clickOn(startWithConsole);
        waitUntil("the change is kept and audited", () -> !new UiSettingsStore(dir.resolve("settings")).load().startWorker
                && !queries.audit(AuditActions.WORKER_ID, services.actor(), AuditActions.SETTINGS_CHANGE, 0, 0).isEmpty());
        assertThat(onFx(() -> window.captureSettings().startWorker)).as("and saved again when the console closes")
                .isFalse();
        assertThat(workerStatus().getText()).as("it takes effect at the next start").isEqualTo("Worker running");
    }

    @Test
    void aWorkerPausedByStaffComesUpPausedAndTheStatusBarSaysByWhomAndWhy() {
        waitReady();
        waitUntil("the status bar says who paused the worker, when and why", () ->
                workerStatus().getText().startsWith("Worker paused by r.okafor at ")
                && workerStatus().getText().endsWith(": " + REASON)
                && workerStatus().getStyleClass().contains("status-warning"));
        assertThat(robot.lookup("#demoBannerText").queryAs(Label.class).getText())
                .startsWith("The delivery worker is paused by r.okafor at ");
        WorkerSnapshot held = services.worker().snapshot();
        assertThat(held.runState()).isEqualTo(WorkerSnapshot.RunState.PAUSED);
        assertThat(held.attemptsThisRun()).as("never started, nothing delivered").isZero();

        robot.press(KeyCode.CONTROL, KeyCode.DIGIT3).release(KeyCode.DIGIT3, KeyCode.CONTROL);
        waitUntil("the Worker page offers Resume, not Start", () ->
                !robot.lookup("#workerResumeButton").queryAs(Button.class).isDisabled()
                && robot.lookup("#workerStartButton").queryAs(Button.class).isDisabled()
                && robot.lookup("#staffPauseBanner").queryAs(Label.class).isVisible());
        robot.clickOn("#workerResumeButton");
        typeReason("portal upgrade finished");
        robot.clickOn("#dialogOkButton");

        waitUntil("the worker runs and the status bar says so", () -> workerStatus().getText().equals("Worker running")
                && !workerStatus().getStyleClass().contains("status-warning"));
        assertThat(queries.audit(AuditActions.WORKER_ID, services.actor(), AuditActions.WORKER_RESUME, 0, 0))
                .singleElement().satisfies(e -> assertThat(e.reason()).isEqualTo("portal upgrade finished"));
    }
}
