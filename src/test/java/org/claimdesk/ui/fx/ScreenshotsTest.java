package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import javafx.embed.swing.SwingFXUtils;
import javafx.scene.control.TableView;
import javafx.scene.image.WritableImage;
import javafx.scene.input.KeyCode;
import javax.imageio.ImageIO;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.ui.main.Page;
import org.claimdesk.ui.outbox.OutboxRow;
import org.junit.jupiter.api.Test;
import org.testfx.matcher.control.LabeledMatchers;

/**
 * Takes a picture of every page in a realistic state, headless. Pictures go to {@code target/screenshots},
 * or to the folder named by {@code -Dclaimdesk.screenshots=docs/screenshots} when refreshing the docs.
 */
class ScreenshotsTest extends ConsoleFxTest {

    @Test
    void everyPageLooksRight() throws Exception {
        Path out = Path.of(System.getProperty("claimdesk.screenshots", "target/screenshots"));
        Files.createDirectories(out);
        waitReady();

        Claim claim = queries.claims(ClaimQuery.all().withStatuses(Set.of(ClaimStatus.SUBMITTED_TO_STATE))
                .withPage(0, 1)).get(0);
        robot.clickOn("#claimSearch").write(claim.claimNumber().substring(0, 9)).type(KeyCode.ENTER);
        waitUntil("the claim shows", () -> robot.lookup("#claimsTable .table-cell")
                .match(LabeledMatchers.hasText(claim.claimNumber())).tryQuery().isPresent());
        robot.clickOn(robot.lookup("#claimsTable .table-cell").match(LabeledMatchers.hasText(claim.claimNumber()))
                .queryAs(javafx.scene.Node.class));
        waitUntil("its detail shows", () -> window.claimsModel().detailProperty().get() != null);
        robot.clickOn("Deliveries");
        shoot(out.resolve("claims.png"));
        var workflow = services.workflow();
        workflow.advance(queries.claims(ClaimQuery.all().withStatuses(Set.of(ClaimStatus.IDENTITY_PENDING))
                .withPage(0, 1)).get(0).claimId(), ClaimStatus.EVIDENCE_PENDING, "m.alvarez", null,
                "photo ID and SSN card verified at the counter", null);
        workflow.advance(queries.claims(ClaimQuery.all().withStatuses(Set.of(ClaimStatus.NEEDS_INFO))
                .withPage(0, 1)).get(0).claimId(), ClaimStatus.REJECTED, "supervisor.kim", null,
                "state: notarized claim form not received within 60 days (R-07)", null);
        workflow.revealTaxId(claim.claimId(), "j.chen", "claimant on the phone; verifying identity before a payment question");

        fx(() -> window.mainModel().darkProperty().set(true));
        shoot(out.resolve("claims-dark.png"));
        fx(() -> window.mainModel().darkProperty().set(false));

        robot.press(KeyCode.CONTROL, KeyCode.DIGIT2).release(KeyCode.DIGIT2, KeyCode.CONTROL);
        javafx.scene.control.ListView<org.claimdesk.domain.FailureGroup> groups = robot.lookup("#errorGroups").queryListView();
        TableView<OutboxRow> rows = robot.lookup("#outboxTable").queryTableView();
        waitUntil("groups show", () -> !groups.getItems().isEmpty() && !rows.getItems().isEmpty());
        String signature = onFx(() -> groups.getItems().get(0).shown());
        robot.clickOn(robot.lookup("#errorGroups .group-signature").match(LabeledMatchers.hasText(signature))
                .queryAs(javafx.scene.Node.class));
        waitUntil("the group's rows show", () -> window.outboxModel().selectedGroupProperty().get() != null
                && rows.getItems().size() == Math.min(200, window.outboxModel().selectedGroupProperty().get().count()));
        String second = onFx(() -> rows.getItems().get(1).claimNumber());
        robot.clickOn(robot.lookup("#outboxTable .table-cell").match(LabeledMatchers.hasText(second))
                .queryAs(javafx.scene.Node.class));
        waitUntil("the row's attempts show", () -> window.outboxModel().detailProperty().get() != null);
        shoot(out.resolve("outbox.png"));

        // sent again, each row carries its claim's holder id, so the state judges the claim's own data
        db.useTransaction(h -> h.execute("""
                UPDATE outbox_event SET delivery_state = 'pending', next_attempt_at = 0, sent_at = NULL,
                    payload = json_set(payload, '$.holderId',
                        (SELECT c.holder_id FROM claim c WHERE c.claim_id = outbox_event.aggregate_id))
                WHERE outbox_event_id IN (SELECT outbox_event_id FROM outbox_event WHERE delivery_state = 'sent' LIMIT 600)"""));
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT3).release(KeyCode.DIGIT3, KeyCode.CONTROL);
        robot.doubleClickOn("#concurrencySpinner .text-field").write("3");
        robot.clickOn("#applySettingsButton");
        waitUntil("the worker takes the settings", () -> services.worker().settings().concurrency() == 3);
        robot.clickOn("#workerStartButton");
        waitUntil("the drain is under way and the chart has points", () ->
                window.workerModel().drainProgressProperty().get() > 0.2
                && window.workerModel().rates().stream().filter(p -> p.sent() > 0).count() >= 3);
        shoot(out.resolve("worker.png"));
        robot.clickOn("#workerPauseButton");
        typeReason("state portal maintenance window tonight");
        robot.clickOn("#dialogOkButton");
        waitUntil("the worker pauses", () -> window.workerModel().staffPauseProperty().get() != null);

        robot.press(KeyCode.CONTROL, KeyCode.DIGIT4).release(KeyCode.DIGIT4, KeyCode.CONTROL);
        waitUntil("audit rows show", () -> !robot.lookup("#auditTable").queryTableView().getItems().isEmpty());
        shoot(out.resolve("audit.png"));

        for (String name : new String[] {"claims", "claims-dark", "outbox", "worker", "audit"}) {
            BufferedImage image = ImageIO.read(out.resolve(name + ".png").toFile());
            assertThat(image.getWidth()).as(name).isEqualTo(1440);
        }
    }

    private void shoot(Path file) throws Exception {
        WritableImage image = onFx(() -> window.scene().snapshot(null));
        ImageIO.write(SwingFXUtils.fromFXImage(image, null), "png", file.toFile());
    }
}
