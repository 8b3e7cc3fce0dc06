package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.stage.Stage;
import org.claimdesk.app.BulkEdit;
import org.claimdesk.app.Queries;
import org.claimdesk.app.Resubmission;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.Database;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.ui.common.FxTaskRunner;
import org.claimdesk.ui.outbox.FixFieldDialogView;
import org.claimdesk.ui.outbox.FixFieldViewModel;
import org.claimdesk.ui.testing.TestDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The "Fix a field…" dialog's real FXML over a real demo database, its work on background threads: the rule's
 * message next to a refused value, the preview of each claim's value now and after, Apply with a reason, then
 * "Resubmit N corrected rows".
 */
class FixFieldDialogTest {
    static final String REGISTERED = "HLD-100200";

    @TempDir
    Path dir;

    private final FxRobot robot = new FxRobot();
    private final ExecutorService background = Executors.newSingleThreadExecutor();
    private final ExecutorService interactive = Executors.newSingleThreadExecutor();
    private Database db;
    private Queries queries;
    private final OutboxQuery unregistered = OutboxQuery.all().withState(DeliveryState.FAILED)
            .withErrorText("holder registry");

    FixFieldDialogView view;
    FixFieldViewModel fix;

    @BeforeEach
    void show() throws Exception {
        db = TestDatabases.demo(dir, 800);
        queries = TestDatabases.queries(db);
        FixFieldViewModel model = new FixFieldViewModel(new BulkEdit(db, Clock.systemUTC()),
                new Resubmission(db, Clock.systemUTC()), new FxTaskRunner(background, interactive), "r.okafor");
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupStage(stage -> {
            model.open(unregistered, "the rows refused for an unregistered holder");
            view = FixFieldDialogView.load(model);
            fix = model;
            stage.setScene(new Scene(view.root()));
            stage.show();
        });
        waitUntil(() -> robot.lookup("#fixValueField").tryQuery().isPresent());
    }

    @AfterEach
    void close() throws Exception {
        FxToolkit.setupStage(Stage::hide);
        background.shutdown();
        interactive.shutdown();
        assertThat(background.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        db.close();
    }

    private static void waitUntil(Callable<Boolean> condition) throws Exception {
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, condition);
    }

    private boolean visible(String id) {
        return robot.lookup(id).tryQuery().map(Node::isVisible).orElse(false);
    }

    private boolean disabled(String id) {
        return robot.lookup(id).queryAs(Node.class).isDisabled();
    }

    @Test
    void aRefusedValueShowsItsRuleThenThePreviewApplyAndTheResubmissionOfTheCorrectedRows() throws Exception {
        int rows = queries.outbox(unregistered).size();
        long claims = queries.outbox(unregistered).stream().map(OutboxEvent::aggregateId).distinct().count();
        assertThat(rows).isPositive();

        robot.clickOn("#fixValueField").write("HLD 1");
        waitUntil(() -> visible("#fixValueError"));
        assertThat(robot.lookup("#fixValueError").queryAs(Label.class).getText())
                .startsWith("Holder id must be HLD- and six digits");
        assertThat(disabled("#fixPreviewButton")).isTrue();

        robot.interact(() -> robot.lookup("#fixValueField").queryTextInputControl().clear());
        robot.clickOn("#fixValueField").write(REGISTERED);
        waitUntil(() -> !visible("#fixValueError") && !disabled("#fixPreviewButton"));
        robot.clickOn("#fixPreviewButton");
        TableView<BulkEdit.Target> table = robot.lookup("#fixPreviewTable").queryTableView();
        waitUntil(() -> table.getItems().size() == claims);
        assertThat(String.valueOf(table.getColumns().get(0).getCellData(0))).startsWith("UPC-");
        assertThat(String.valueOf(table.getColumns().get(1).getCellData(0))).startsWith("HLD-").isNotEqualTo(REGISTERED);
        assertThat(String.valueOf(table.getColumns().get(2).getCellData(0))).isEqualTo(REGISTERED);
        Button apply = robot.lookup("#fixApplyButton").queryButton();
        assertThat(apply.getText()).isEqualTo("Apply to " + claims + " claim(s)");
        assertThat(apply.isDisabled()).as("a reason is required first").isTrue();

        robot.clickOn("#fixReasonField").write("registered id from the state's holder list");
        waitUntil(() -> !apply.isDisabled());
        robot.clickOn(apply);

        waitUntil(() -> visible("#resubmitCorrectedButton"));
        assertThat(robot.lookup("#fixNotice").queryAs(Label.class).getText())
                .isEqualTo(claims + " of " + claims + " claim(s) changed (holderId → " + REGISTERED + ")");
        assertThat(visible("#fixCancelButton")).isFalse();
        assertThat(queries.outbox(unregistered)).allSatisfy(r ->
                assertThat(queries.claim(r.aggregateId()).orElseThrow().holderId()).isEqualTo(REGISTERED));
        Button resubmit = robot.lookup("#resubmitCorrectedButton").queryButton();
        assertThat(resubmit.getText()).isEqualTo("Resubmit " + rows + " corrected row(s)");
        assertThat(robot.lookup("#resubmitReasonField").queryAs(TextArea.class).getText())
                .isEqualTo("registered id from the state's holder list");

        robot.clickOn(resubmit);

        waitUntil(() -> robot.lookup("#fixNotice").queryAs(Label.class).getText().contains("resubmitted under new keys"));
        assertThat(robot.lookup("#fixNotice").queryAs(Label.class).getText())
                .startsWith(rows + " of " + rows + " row(s) resubmitted under new keys");
        assertThat(queries.outbox(unregistered)).isEmpty();
        assertThat(queries.countOutboxByState().get(DeliveryState.SUPERSEDED)).isGreaterThanOrEqualTo(rows);

        // opened again for another group, the same view starts over: no reason of this fix is offered for the next
        robot.interact(() -> {
            fix.open(OutboxQuery.all().withState(DeliveryState.FAILED), "every failed row");
            view.startOver();
        });
        assertThat(robot.lookup("#fixReasonField").queryTextInputControl().getText()).isEmpty();
        assertThat(robot.lookup("#resubmitReasonField").queryTextInputControl().getText()).isEmpty();
        assertThat(robot.lookup("#fixSkippedList").queryListView().getItems()).isEmpty();
    }
}
