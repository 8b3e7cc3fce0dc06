package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.stage.Stage;
import org.claimdesk.app.Resubmission;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.KeyPolicy;
import org.claimdesk.domain.PayloadDiff;
import org.claimdesk.ui.common.Keys;
import org.claimdesk.ui.outbox.ResubmitDialogView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/** The Resubmit dialog's real FXML: the state's error, the diff against the refused payload, the reason. */
class ResubmitDialogTest {
    private final FxRobot robot = new FxRobot();

    private static Resubmission.Check check(PayloadDiff diff) {
        return new Resubmission.Check(41, 7, "UPC-2026-000007", ClaimStatus.SUBMITTING, DeliveryState.FAILED, null,
                "sub-old", "422 invalid_claim: holder id not found", AttemptOutcome.PERMANENT, diff, 3, 1000, false);
    }

    private void show(Resubmission.Check check) throws Exception {
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupStage(stage -> {
            ResubmitDialogView view = ResubmitDialogView.load();
            view.show(check);
            stage.setScene(new Scene(view.root()));
            stage.show();
        });
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> robot.lookup("#resubmitDiffTable").tryQuery().isPresent());
    }

    @AfterEach
    void close() throws Exception {
        FxToolkit.setupStage(Stage::hide);
    }

    @Test
    void theDiffAgainstTheRefusedPayloadAndTheStatesErrorAreShown() throws Exception {
        show(check(new PayloadDiff(List.of(new PayloadDiff.Change("holderId", "HLD", "HLD-100200"),
                new PayloadDiff.Change("amountCents", "100", "250")))));

        TableView<PayloadDiff.Change> table = robot.lookup("#resubmitDiffTable").queryTableView();
        assertThat(table.getItems()).extracting(PayloadDiff.Change::field).containsExactly("holderId", "amountCents");
        assertThat(table.getColumns().get(1).getCellData(0)).isEqualTo("HLD");
        assertThat(table.getColumns().get(2).getCellData(0)).isEqualTo("HLD-100200");
        assertThat(robot.lookup("#resubmitStateError").queryAs(TextArea.class).getText())
                .isEqualTo("422 invalid_claim: holder id not found");
        assertThat(robot.lookup("#resubmitExplanation").queryAs(Label.class).getText()).contains("new idempotency key");
        assertThat(robot.lookup("#reasonField").queryAs(TextArea.class).isVisible()).isTrue();
    }

    @Test
    void anUnchangedClaimIsSentToTheEditorAndTheRequeueWarnsThatItWillBeRefusedAgain() throws Exception {
        show(check(new PayloadDiff(List.of())));

        assertThat(robot.lookup("#resubmitDiffTable").queryTableView().getItems()).isEmpty();
        assertThat(robot.lookup("#resubmitExplanation").queryAs(Label.class).getText())
                .contains(Keys.say("Claims page, Ctrl+E")).contains(KeyPolicy.UNCHANGED_REFUSAL_WARNING);
        assertThat(robot.lookup("#reasonField").queryAs(TextArea.class).isVisible()).isFalse();
    }
}
