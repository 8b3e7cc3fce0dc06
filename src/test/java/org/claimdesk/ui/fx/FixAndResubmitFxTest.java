package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import org.claimdesk.delivery.HolderRegistry;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.PayloadDiff;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.ui.main.Page;
import org.claimdesk.ui.outbox.OutboxRow;
import org.junit.jupiter.api.Test;

/**
 * The console's fix-and-resubmit loop on the real FXML: a demo row the state refused for its holder id,
 * opened from the Outbox page in the claim editor at that field, corrected, resubmitted with its diff under
 * a new key, and delivered by the worker.
 */
class FixAndResubmitFxTest extends ConsoleFxTest {

    @Test
    void aRefusedHolderIdIsFixedAtItsFieldResubmittedUnderANewKeyAndDelivered() throws Exception {
        waitReady();
        OutboxEvent refused = queries.outbox(OutboxQuery.all().withState(DeliveryState.FAILED)).stream()
                .filter(e -> "holderId".equals(lastField(e.outboxEventId())))
                .findFirst().orElseThrow();
        Claim claim = queries.claim(refused.aggregateId()).orElseThrow();
        String registered = HolderRegistry.standard().holdersFor(claim.jurisdiction()).stream()
                .filter(h -> h.name().equals(claim.holderName())).findFirst().orElseThrow().id();

        selectOutboxRow(refused.outboxEventId());
        waitUntil("the row's attempts show", () -> window.outboxModel().detailProperty().get() != null
                && window.outboxModel().detailProperty().get().row().id() == refused.outboxEventId());
        robot.clickOn("#fixClaimButton");

        waitUntil("the claim opens in the editor at the refused field", () -> window.mainModel().pageProperty().get()
                == Page.CLAIMS && visible(robot.lookup("#editForm").query())
                && window.claimsModel().selectedProperty().get().claimId() == claim.claimId()
                && visible(robot.lookup("#fault-holderId").query()));
        assertThat(robot.lookup("#faultLabel").queryAs(Label.class).getText())
                .startsWith("The state refused Holder id: 422 invalid_claim: holder id " + claim.holderId());
        TextField holderId = robot.lookup("#edit-holderId").queryAs(TextField.class);
        robot.doubleClickOn(holderId).eraseText(claim.holderId().length() + 2).write(registered);
        robot.clickOn("#editReason").write("holder id as the state registers it");
        robot.press(KeyCode.CONTROL, KeyCode.S).release(KeyCode.S, KeyCode.CONTROL);
        waitUntil("the corrected holder id is stored", () -> queries.claim(claim.claimId()).orElseThrow().holderId()
                .equals(registered));

        selectOutboxRow(refused.outboxEventId());
        robot.clickOn("#resubmitButton");
        TableView<PayloadDiff.Change> diff = waitForDiff();
        assertThat(onFx(() -> List.copyOf(diff.getItems()))).singleElement().satisfies(c -> {
            assertThat(c.field()).isEqualTo("holderId");
            assertThat(c.before()).isEqualTo(claim.holderId());
            assertThat(c.after()).isEqualTo(registered);
        });
        typeReason("holder id corrected");
        snapshot("resubmit-diff", onFx(() -> diff.getScene()));
        robot.clickOn("#dialogOkButton");

        waitUntil("the refused row is superseded", () -> queries.outboxEvent(refused.outboxEventId()).orElseThrow()
                .deliveryState() == DeliveryState.SUPERSEDED);
        OutboxEvent old = queries.outboxEvent(refused.outboxEventId()).orElseThrow();
        OutboxEvent fresh = queries.outboxEvent(old.supersededBy()).orElseThrow();
        assertThat(fresh.idempotencyKey()).isNotEqualTo(refused.idempotencyKey());
        assertThat(fresh.payload()).contains("\"holderId\":\"" + registered + "\"");
        assertThat(queries.attempts(old.outboxEventId())).as("the refused row keeps its attempts")
                .hasSize(refused.attempts());

        // stepping through the failed rows: Ctrl+Enter selects the next one after the row just resubmitted
        TableView<OutboxRow> rows = robot.lookup("#outboxTable").queryTableView();
        waitUntil("the superseded row leaves the failed rows", () -> !rows.getItems().isEmpty()
                && rows.getItems().stream().noneMatch(r -> r.id() == refused.outboxEventId()));
        long next = onFx(() -> rows.getItems().stream().filter(r -> r.event().deliveryState() == DeliveryState.FAILED)
                .map(OutboxRow::id).filter(id -> id > refused.outboxEventId()).findFirst()
                .orElse(rows.getItems().get(0).id()));
        waitUntil("the table has the focus back after the dialog", rows::isFocused);
        robot.press(KeyCode.CONTROL, KeyCode.ENTER).release(KeyCode.ENTER, KeyCode.CONTROL);
        waitUntil("the next failed row is selected", () -> rows.getSelectionModel().getSelectedItem() != null
                && rows.getSelectionModel().getSelectedItem().id() == next);
        waitUntil("its attempts show", () -> robot.lookup("#attemptsTable").query().isVisible()
                && robot.lookup("#lastErrorView").query().isVisible());
        // and again: on from the row selected, not back to the one after the row resubmitted
        long afterThat = onFx(() -> rows.getItems().stream().filter(r -> r.event().deliveryState()
                == DeliveryState.FAILED).map(OutboxRow::id).filter(id -> id > next).findFirst()
                .orElse(rows.getItems().get(0).id()));
        assertThat(afterThat).isNotEqualTo(next);
        robot.press(KeyCode.CONTROL, KeyCode.ENTER).release(KeyCode.ENTER, KeyCode.CONTROL);
        waitUntil("the row after it is selected", () -> rows.getSelectionModel().getSelectedItem() != null
                && rows.getSelectionModel().getSelectedItem().id() == afterThat);

        services.worker().start();
        waitUntil("the state accepts the corrected claim", () -> queries.claim(claim.claimId()).orElseThrow().status()
                == ClaimStatus.SUBMITTED_TO_STATE);
        assertThat(queries.outboxEvent(fresh.outboxEventId()).orElseThrow().deliveryState()).isEqualTo(DeliveryState.SENT);
        assertThat(queries.audit(Long.toString(claim.claimId()), null, AuditActions.CLAIM_EDIT, 0, 0)).hasSize(1);
        assertThat(queries.audit(Long.toString(refused.outboxEventId()), null, AuditActions.OUTBOX_RESUBMIT, 0, 0))
                .singleElement().satisfies(a -> assertThat(a.reason()).isEqualTo("holder id corrected"));
    }

    @Test
    void aClaimsDeliveriesTabOpensTheRefusedFieldAndTheResubmitOfItsFailedRow() {
        waitReady();
        OutboxEvent refused = queries.outbox(OutboxQuery.all().withState(DeliveryState.FAILED)).stream()
                .filter(e -> "statePropertyId".equals(lastField(e.outboxEventId())))
                .findFirst().orElseThrow();
        Claim claim = queries.claim(refused.aggregateId()).orElseThrow();
        selectClaim(claim);
        javafx.scene.control.ScrollPane detail = robot.lookup("#detailScroll").queryAs(javafx.scene.control.ScrollPane.class);
        fx(() -> detail.setVvalue(1.0));
        robot.clickOn("Deliveries");
        TableView<?> deliveries = robot.lookup("#claimOutboxTable").queryTableView();
        waitUntil("the claim's deliveries are listed", () -> !deliveries.getItems().isEmpty());
        fx(() -> deliveries.getSelectionModel().select(0));

        robot.clickOn("#fixDeliveryButton");
        waitUntil("the editor marks the refused property id", () -> visible(robot.lookup("#editForm").query())
                && visible(robot.lookup("#fault-statePropertyId").query()));
        assertThat(robot.lookup("#fault-statePropertyId").queryAs(Label.class).getText())
                .isEqualTo("The state: " + refused.lastError());
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        waitUntil("the form closes", () -> !visible(robot.lookup("#editForm").query()));

        robot.clickOn("#resubmitDeliveryButton");
        waitUntil("the Outbox page's resubmit dialog opens for the row", () -> window.mainModel().pageProperty().get()
                == Page.OUTBOX && robot.lookup("#resubmitDiffTable").tryQuery().isPresent());
        assertThat(robot.lookup("#resubmitDiffTable").queryTableView().getItems()).as("nothing corrected yet").isEmpty();
        assertThat(robot.lookup("#resubmitExplanation").queryAs(Label.class).getText())
                .contains("the state refused this data; sent unchanged it will be refused again");
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        waitUntil("the dialog closes", () -> robot.lookup("#resubmitDiffTable").tryQuery().isEmpty());
        assertThat(queries.outboxEvent(refused.outboxEventId()).orElseThrow().deliveryState())
                .isEqualTo(DeliveryState.FAILED);
    }

    /** Several rows whose claims were corrected, selected and resubmitted together from the page's Resubmit button. */
    @Test
    void severalSelectedRowsAreResubmittedTogetherWithOneReason() {
        waitReady();
        List<OutboxEvent> failed = queries.outbox(OutboxQuery.all().withState(DeliveryState.FAILED)).stream()
                .filter(e -> queries.claim(e.aggregateId()).orElseThrow().status() == ClaimStatus.SUBMITTING)
                .limit(3).toList();
        for (OutboxEvent e : failed.subList(0, 2)) {
            db.useTransaction(h -> h.createUpdate(
                    "UPDATE claim SET holder_id = 'HLD-100200', version = version + 1 WHERE claim_id = :id")
                    .bind("id", e.aggregateId()).execute());
        }
        selectOutboxRow(failed.get(0).outboxEventId());
        TableView<OutboxRow> rows = robot.lookup("#outboxTable").queryTableView();
        fx(() -> rows.getItems().stream().filter(r -> failed.stream().anyMatch(e -> e.outboxEventId() == r.id()))
                .forEach(r -> rows.getSelectionModel().select(r)));
        waitUntil("three rows are selected", () -> window.outboxModel().selectionProperty().get().size() == 3);

        robot.clickOn("#resubmitButton");
        waitUntil("the resubmission of the rows is asked about", () -> robot.lookup("#resubmitSkippedList")
                .tryQuery().isPresent());
        assertThat(robot.lookup("#resubmitSkippedList").queryListView().getItems()).hasSize(1);
        assertThat(robot.lookup("#resubmitTargetList").queryListView().getItems()).hasSize(2)
                .allSatisfy(t -> assertThat(t.toString()).endsWith(": holderId"));
        typeReason("holder ids corrected from the registry");
        robot.clickOn("#dialogOkButton");

        waitUntil("the corrected rows are superseded", () -> failed.subList(0, 2).stream().allMatch(e -> queries
                .outboxEvent(e.outboxEventId()).orElseThrow().deliveryState() == DeliveryState.SUPERSEDED));
        assertThat(queries.outboxEvent(failed.get(2).outboxEventId()).orElseThrow().deliveryState())
                .isEqualTo(DeliveryState.FAILED);
        assertThat(queries.audit(null, null, AuditActions.OUTBOX_RESUBMIT, 0, 0)).hasSize(2)
                .allSatisfy(a -> assertThat(a.reason()).isEqualTo("holder ids corrected from the registry"));
    }

    private String lastField(long outboxEventId) {
        List<DeliveryAttempt> attempts = queries.attempts(outboxEventId);
        return attempts.isEmpty() ? null : attempts.get(attempts.size() - 1).field();
    }

    /** The Outbox page with the failed rows of the row's error text, and the row selected in its table. */
    private void selectOutboxRow(long outboxEventId) {
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT2).release(KeyCode.DIGIT2, KeyCode.CONTROL);
        TableView<OutboxRow> rows = robot.lookup("#outboxTable").queryTableView();
        waitUntil("the row is listed", () -> rows.getItems().stream().anyMatch(r -> r.id() == outboxEventId));
        fx(() -> {
            OutboxRow row = rows.getItems().stream().filter(r -> r.id() == outboxEventId).findFirst().orElseThrow();
            rows.getSelectionModel().clearSelection();
            rows.getSelectionModel().select(row);
            rows.scrollTo(row);
        });
        waitUntil("the row is selected", () -> window.outboxModel().selectionProperty().get().stream()
                .anyMatch(r -> r.id() == outboxEventId));
    }

    private TableView<PayloadDiff.Change> waitForDiff() {
        waitUntil("the resubmit dialog shows the diff", () -> robot.lookup("#resubmitDiffTable").tryQuery().isPresent());
        return robot.lookup("#resubmitDiffTable").queryTableView();
    }
}
