package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import org.claimdesk.ui.OperatorDialogProbe;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/** First start: the operator is asked, the OS user offered, and a blank name is not accepted. */
class OperatorDialogTest {
    private final FxRobot robot = new FxRobot();

    @Test
    void theOperatorIsAskedWithTheOsUserOfferedAndABlankNameIsRefused() throws Exception {
        FxToolkit.registerPrimaryStage();
        FxToolkit.cleanupStages();
        CompletableFuture<String> answer = new CompletableFuture<>();
        Platform.runLater(() -> answer.complete(OperatorDialogProbe.ask("os-user")));

        TextField name = nameFieldOnScreen();
        assertThat(name.getText()).isEqualTo("os-user");
        robot.clickOn(name).press(KeyCode.CONTROL, KeyCode.A).release(KeyCode.A, KeyCode.CONTROL)
                .type(KeyCode.BACK_SPACE);
        robot.clickOn("#operatorOk");

        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> robot.lookup((Node n) ->
                n instanceof Label l && l.getText() != null
                        && l.getText().contains("An actor name is required")).tryQuery().isPresent());
        TextField again = nameFieldOnScreen();
        assertThat(again.getText()).as("asked again, the default offered").isEqualTo("os-user");
        robot.clickOn(again).press(KeyCode.CONTROL, KeyCode.A).release(KeyCode.A, KeyCode.CONTROL).write("j.chen");
        robot.clickOn("#operatorOk");

        assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo("j.chen");
    }

    /**
     * The dialog's name field once it can be clicked: its window showing and the field laid out inside its scene,
     * read on the FX thread (read from the test's thread during a layout pass, the field's bounds can be half made).
     */
    private TextField nameFieldOnScreen() throws Exception {
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS,
                () -> WaitForAsyncUtils.asyncFx(this::fieldOnScreen).get() != null);
        WaitForAsyncUtils.waitForFxEvents();
        return WaitForAsyncUtils.asyncFx(this::fieldOnScreen).get(10, TimeUnit.SECONDS);
    }

    private TextField fieldOnScreen() {
        return robot.lookup("#operatorName").queryAllAs(TextField.class).stream().filter(OperatorDialogTest::onScreen)
                .findFirst().orElse(null);
    }

    private static boolean onScreen(Node field) {
        Scene scene = field.getScene();
        if (scene == null || scene.getWindow() == null || !scene.getWindow().isShowing()) {
            return false;
        }
        for (Node n = field; n != null; n = n.getParent()) {
            if (!n.isVisible()) {
                return false;
            }
        }
        Bounds bounds = field.localToScene(field.getBoundsInLocal());
        return bounds.getWidth() > 0 && bounds.getHeight() > 0
                && bounds.intersects(0, 0, scene.getWidth(), scene.getHeight());
    }
}
