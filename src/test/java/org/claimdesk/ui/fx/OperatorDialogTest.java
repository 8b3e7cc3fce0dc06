package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.scene.input.KeyCode;
import org.claimdesk.ui.OperatorDialogProbe;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.NodeQueryUtils;
import org.testfx.util.WaitForAsyncUtils;

/** First start: the operator is asked, the OS user offered, and a blank name is not accepted. */
class OperatorDialogTest {
    private final FxRobot robot = new FxRobot();

    @Test
    void theOperatorIsAskedWithTheOsUserOfferedAndABlankNameIsRefused() throws Exception {
        FxToolkit.registerPrimaryStage();
        CompletableFuture<String> answer = new CompletableFuture<>();
        Platform.runLater(() -> answer.complete(OperatorDialogProbe.ask("os-user")));

        // the field exists before its dialog is on screen: wait until it can be clicked
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, this::nameFieldShown);
        assertThat(robot.lookup("#operatorName").queryTextInputControl().getText()).isEqualTo("os-user");
        robot.clickOn("#operatorName").press(KeyCode.CONTROL, KeyCode.A).release(KeyCode.A, KeyCode.CONTROL)
                .type(KeyCode.BACK_SPACE);
        robot.clickOn("#operatorOk");

        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> robot.lookup((javafx.scene.Node n) ->
                n instanceof javafx.scene.control.Label l && l.getText() != null
                        && l.getText().contains("An actor name is required")).tryQuery().isPresent());
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, this::nameFieldShown);
        assertThat(robot.lookup("#operatorName").queryTextInputControl().getText()).as("asked again, the default offered")
                .isEqualTo("os-user");
        robot.clickOn("#operatorName").press(KeyCode.CONTROL, KeyCode.A).release(KeyCode.A, KeyCode.CONTROL)
                .write("j.chen");
        robot.clickOn("#operatorOk");

        assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo("j.chen");
    }

    private boolean nameFieldShown() {
        return robot.lookup("#operatorName").match(NodeQueryUtils.isVisible()).tryQuery().isPresent();
    }
}
