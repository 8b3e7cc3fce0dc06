package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.skin.VirtualFlow;
import org.claimdesk.ui.claims.ClaimRow;
import org.claimdesk.ui.common.UiSettings;
import org.claimdesk.ui.main.Page;
import org.junit.jupiter.api.Test;

class ConsoleLayoutTest extends ConsoleFxTest {

    @Override
    UiSettings settings() {
        UiSettings ui = super.settings();
        ui.page = "CLAIMS";
        ui.dividers.put("claims", new double[] {0.5});
        ui.columns.put("claims", List.of(new UiSettings.Column("claimant", 260, true),
                new UiSettings.Column("number", 150, true), new UiSettings.Column("taxId", 110, false)));
        return ui;
    }

    @Test
    void theRememberedLayoutIsAppliedAndCapturedAgain() {
        waitReady();
        TableView<ClaimRow> table = robot.lookup("#claimsTable").queryTableView();
        List<TableColumn<ClaimRow, ?>> columns = onFx(() -> List.copyOf(table.getColumns()));
        assertThat(columns).extracting(TableColumn::getId).startsWith("claimant", "number");
        assertThat(columns.get(0).getWidth()).isEqualTo(260);
        assertThat(columns).filteredOn(c -> "taxId".equals(c.getId())).singleElement()
                .satisfies(c -> assertThat(c.isVisible()).isFalse());
        SplitPane split = robot.lookup("#claimsSplit").queryAs(SplitPane.class);
        assertThat(onFx(() -> split.getDividerPositions()[0])).isCloseTo(0.5, org.assertj.core.data.Offset.offset(0.02));

        fx(() -> {
            split.setDividerPositions(0.6);
            table.getColumns().get(1).setPrefWidth(180);
            window.mainModel().darkProperty().set(true);
            window.mainModel().show(Page.AUDIT);
        });
        UiSettings captured = onFx(() -> window.captureSettings());
        assertThat(captured.dividers.get("claims")[0]).isCloseTo(0.6, org.assertj.core.data.Offset.offset(0.02));
        assertThat(captured.columns.get("claims").get(1).id).isEqualTo("number");
        assertThat(captured.columns.get("claims").get(1).width).isEqualTo(180);
        assertThat(captured.dark).isTrue();
        assertThat(captured.page).isEqualTo("AUDIT");
        assertThat(captured.width).isEqualTo(1440);
        assertThat(captured.columns).containsKeys("claims", "outbox", "audit");
    }

    @Test
    void liveRefreshWhileTheWorkerRunsKeepsTheSelectionAndTheScrollPosition() {
        waitReady();
        db.useTransaction(h -> h.execute("UPDATE outbox_event SET delivery_state = 'pending', next_attempt_at = 0,"
                + " sent_at = NULL WHERE outbox_event_id IN (SELECT outbox_event_id FROM outbox_event"
                + " WHERE delivery_state = 'sent' LIMIT 700)"));
        TableView<ClaimRow> table = robot.lookup("#claimsTable").queryTableView();
        fx(() -> {
            table.scrollTo(120);
            table.getSelectionModel().select(130);
        });
        long selectedId = onFx(() -> table.getSelectionModel().getSelectedItem().claimId());
        int firstVisible = onFx(() -> firstVisible(table));
        assertThat(firstVisible).isGreaterThan(100);
        long pagesBefore = onFx(() -> window.claimsModel().pagesShownProperty().get());

        fx(() -> window.workerModel().start());
        waitUntil("two live refreshes of the claims page", () ->
                window.claimsModel().pagesShownProperty().get() >= pagesBefore + 2);

        assertThat(onFx(() -> table.getSelectionModel().getSelectedItem().claimId())).isEqualTo(selectedId);
        assertThat(onFx(() -> table.getSelectionModel().getSelectedIndex())).isEqualTo(130);
        assertThat(onFx(() -> firstVisible(table))).isEqualTo(firstVisible);
        assertThat(onFx(() -> window.claimsModel().selectedProperty().get().claimId())).isEqualTo(selectedId);
        fx(() -> window.workerModel().pause());
    }

    private static int firstVisible(TableView<?> table) {
        VirtualFlow<?> flow = (VirtualFlow<?>) table.lookup(".virtual-flow");
        return flow.getFirstVisibleCell().getIndex();
    }
}
