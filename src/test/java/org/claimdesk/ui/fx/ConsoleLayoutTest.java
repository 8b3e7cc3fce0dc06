package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Control;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.skin.VirtualFlow;
import org.claimdesk.ui.ConsoleWindow;
import org.claimdesk.ui.claims.ClaimRow;
import org.claimdesk.ui.claims.ClaimsView;
import org.claimdesk.ui.common.Keys;
import org.claimdesk.ui.common.UiSettings;
import org.claimdesk.ui.common.UiSettingsStore;
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

    /** This workstation's file as the console starts: who works here and the worker's setting, which it must keep. */
    @Override
    void prepare(org.claimdesk.store.Database database, org.junit.jupiter.api.TestInfo test) {
        new UiSettingsStore(dir.resolve("settings")).update(k -> {
            k.operator = "kim";
            k.startWorker = false;
        });
    }

    /** What the window's first pulse laid out: filled in by {@link #shown}. */
    private final Map<String, Boolean> firstFrame = new ConcurrentHashMap<>();

    @Override
    void shown(ConsoleWindow shownWindow) {
        Scene scene = shownWindow.scene();
        // an event queued here runs after every event show() queued, before or after the first pulse: the page on
        // screen must not be built by one of those, only once the first pulse has laid out the window's frame
        Platform.runLater(() -> firstFrame.put("claims page in the events queued by show",
                scene.lookup("#claimsPage") != null));
        scene.addPostLayoutPulseListener(new Runnable() {
            @Override
            public void run() {
                if (!firstFrame.containsKey("navigation")) {
                    firstFrame.put("navigation", scene.lookup("#claimsNav").getLayoutBounds().getWidth() > 0);
                    firstFrame.put("claims page", scene.lookup("#claimsPage") != null);
                    firstFrame.put("navigation tooltips", ((Control) scene.lookup("#claimsNav")).getTooltip() != null);
                    Platform.runLater(() -> scene.removePostLayoutPulseListener(this));
                }
            }
        });
    }

    @Test
    void theFirstFrameIsTheWindowsFrameAndThePageOnScreenIsBuiltRightAfterIt() {
        waitReady();
        assertThat(firstFrame).as("what the first pulse laid out").containsExactlyInAnyOrderEntriesOf(Map.of(
                "navigation", true, "claims page", false, "navigation tooltips", false,
                "claims page in the events queued by show", false));
        assertThat(robot.lookup("#claimsTable").tryQuery()).isPresent();
    }

    /** The main view's tooltips, windows of their own, are not made for the first frame but once start-up is idle. */
    @Test
    void theNavigationAndStatusBarTooltipsAreThereOnceStartUpIsIdle() {
        waitReady();
        waitUntil("start-up is idle", () -> onFx(window::idle));
        waitUntil("the tooltips are made", () -> onFx(() -> robot.lookup("#auditNav").queryAs(Control.class)
                .getTooltip() != null));
        assertThat(onFx(() -> robot.lookup("#claimsNav").queryAs(Control.class).getTooltip().getText()))
                .isEqualTo(Keys.say("Claims (Ctrl+1)"));
        assertThat(onFx(() -> robot.lookup("#auditNav").queryAs(Control.class).getTooltip().getText()))
                .isEqualTo(Keys.say("Audit (Ctrl+4)"));
        assertThat(onFx(() -> robot.lookup("#databaseStatus").queryAs(Control.class).getTooltip().getText()))
                .isEqualTo(onFx(() -> window.mainModel().databasePathProperty().get())).isNotBlank();
        assertThat(onFx(() -> robot.lookup("#workerStatus").queryAs(Control.class).getTooltip().getText()))
                .isEqualTo(onFx(() -> window.mainModel().workerStateProperty().get()));
    }

    /** The claim's detail (tabs, five tables) is not styled before the first rows: it joins at the first selection. */
    @Test
    void theClaimsDetailJoinsTheSceneAtTheFirstSelection() {
        waitReady();
        TableView<ClaimRow> table = robot.lookup("#claimsTable").queryTableView();
        waitUntil("the first page is on screen", () -> !rowCells(table).isEmpty());
        assertThat(robot.lookup("#detailContent").tryQuery()).as("the detail before a selection").isEmpty();
        assertThat(robot.lookup("#historyTable").tryQuery()).isEmpty();
        assertThat(onFx(() -> visible(robot.lookup("#detailPlaceholder").query()))).isTrue();

        fx(() -> table.getSelectionModel().select(2));
        waitUntil("the selected claim's history is on screen", () -> {
            TableView<?> history = robot.lookup("#historyTable").queryAs(TableView.class);
            return visible(history) && !history.getItems().isEmpty() && !rowCells(history).isEmpty();
        });
        assertThat(onFx(() -> visible(robot.lookup("#detailPlaceholder").query()))).isFalse();
        // a second selection keeps the one detail
        fx(() -> table.getSelectionModel().select(5));
        assertThat(robot.lookup("#detailContent").queryAll()).hasSize(1);
    }

    /**
     * The detail is built from its own FXML once start-up is idle, before any selection, and stays out of the scene;
     * the first selection joins that one.
     */
    @Test
    void theClaimsDetailIsBuiltWhenStartUpIsIdleAndTheFirstSelectionJoinsIt() {
        waitReady();
        waitUntil("start-up is idle", () -> onFx(window::idle));
        ClaimsView claims = onFx(window::claimsView);
        waitUntil("the detail is built", () -> onFx(claims::detailBuilt));
        Node built = onFx(claims::prepareDetail);
        assertThat(onFx(built::getScene)).as("built, not in the scene").isNull();
        assertThat(onFx(claims::prepareDetail)).as("built once").isSameAs(built);

        TableView<ClaimRow> table = robot.lookup("#claimsTable").queryTableView();
        fx(() -> table.getSelectionModel().select(1));
        waitUntil("the detail joined", () -> robot.lookup("#detailContent").tryQuery().isPresent());
        assertThat(robot.lookup("#detailContent").<Node>query()).isSameAs(built);
        String number = onFx(() -> table.getItems().get(1).claimNumber());
        waitUntil("it shows the selected claim", () -> onFx(() ->
                robot.lookup("#detailTitle").queryAs(Label.class).getText().equals(number)));
    }

    /** A read-only claim's reason wraps beside the Edit button, which keeps its whole label. */
    @Test
    void theEditButtonKeepsItsWholeLabelBesideTheReadOnlyReason() {
        waitReady();
        selectClaim(firstClaim(org.claimdesk.domain.ClaimStatus.SUBMITTED_TO_STATE));
        javafx.scene.control.Button edit = robot.lookup("#editButton").queryButton();
        javafx.scene.control.Label reason = robot.lookup("#readOnlyLabel").queryAs(javafx.scene.control.Label.class);
        waitUntil("the reason is shown and laid out", () -> visible(reason) && reason.getText().startsWith("Read-only:")
                && !edit.getParent().isNeedsLayout() && !reason.isNeedsLayout() && edit.getWidth() > 0);
        assertThat(onFx(() -> edit.getWidth() - edit.prefWidth(-1))).as("the button's width beyond its preferred")
                .isGreaterThanOrEqualTo(-0.5);
    }

    /**
     * In the detail at the window's split, a claim's status history and audit show their texts whole (dates, statuses,
     * names, reasons and changes wrap within their columns instead of being cut short), every column within the table.
     */
    @Test
    void theDetailsHistoryAndAuditShowTheirTextsWhole() {
        waitReady();
        selectClaim(firstClaim(org.claimdesk.domain.ClaimStatus.NEEDS_INFO));
        waitUntil("the selected claim's history is on screen", () -> robot.lookup("#historyTable").tryQuery()
                .map(t -> visible(t) && !rowCells((TableView<?>) t).isEmpty()).orElse(false));
        TableView<?> history = robot.lookup("#historyTable").queryTableView();
        waitForLayoutPulse(history);
        assertShownWhole(history);
        chooseDetailTab("Audit");
        waitUntil("the claim's audit entries are on screen", () -> robot.lookup("#claimAuditTable").tryQuery()
                .map(t -> visible(t) && !rowCells((TableView<?>) t).isEmpty()).orElse(false));
        TableView<?> audit = robot.lookup("#claimAuditTable").queryTableView();
        waitForLayoutPulse(audit);
        assertShownWhole(audit);
    }

    /**
     * A failed row's attempts on the Outbox page, in its narrow detail: each attempt's number, time, HTTP status,
     * outcome, field and duration whole (the response on one line, whole in its tooltip and above the table).
     */
    @Test
    void aRowsAttemptsShowTheirTextsWhole() {
        waitReady();
        robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.DIGIT2)
                .release(javafx.scene.input.KeyCode.DIGIT2, javafx.scene.input.KeyCode.CONTROL);
        TableView<?> rows = robot.lookup("#outboxTable").queryTableView();
        waitUntil("the failed rows are listed", () -> onFx(() -> !rows.getItems().isEmpty()));
        fx(() -> rows.getSelectionModel().select(0));
        waitUntil("the row's attempts are on screen", () -> robot.lookup("#attemptsTable").tryQuery()
                .map(t -> visible(t) && !rowCells((TableView<?>) t).isEmpty()).orElse(false));
        TableView<?> attempts = robot.lookup("#attemptsTable").queryTableView();
        waitForLayoutPulse(attempts);
        assertShownWhole(attempts, "Response");
    }

    /** Of the detail's tabs, only the one on screen is in the scene; each other tab's content joins when chosen. */
    @Test
    void aDetailTabsContentJoinsTheSceneWhenTheTabIsFirstChosen() {
        waitReady();
        // a submitted claim has audit entries of its own
        selectClaim(firstClaim(org.claimdesk.domain.ClaimStatus.SUBMITTED_TO_STATE));
        waitUntil("the selected claim's history is on screen", () -> robot.lookup("#historyTable").tryQuery()
                .map(h -> visible(h)).orElse(false));
        for (String id : List.of("#claimAuditTable", "#evidenceTable", "#evidenceUrl", "#claimOutboxTable",
                "#claimAttemptsTable")) {
            assertThat(robot.lookup(id).tryQuery()).as(id + " before its tab is chosen").isEmpty();
        }

        chooseDetailTab("Audit");
        waitUntil("the claim's audit entries are on screen", () -> robot.lookup("#claimAuditTable").tryQuery()
                .map(t -> visible(t) && !rowCells((TableView<?>) t).isEmpty()).orElse(false));
        assertThat(robot.lookup("#evidenceTable").tryQuery()).as("another tab's content").isEmpty();
        // back and forth keeps the same content, with its rows
        TableView<?> audit = robot.lookup("#claimAuditTable").queryTableView();
        chooseDetailTab("Status history");
        chooseDetailTab("Audit");
        waitUntil("the Audit tab is shown again", () -> visible(audit));
        assertThat(robot.lookup("#claimAuditTable").queryTableView()).isSameAs(audit);
        assertThat(onFx(() -> audit.getItems().isEmpty())).isFalse();
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

    /**
     * What staff change in the window's layout is in this workstation's settings file a moment later, while the console
     * is still open: a console that is killed or loses its power keeps it too.
     */
    @Test
    void aLayoutStaffChangeIsKeptOnceItSettlesNotOnlyAtTheClose() {
        waitReady();
        waitUntil("start-up is idle", () -> onFx(window::idle));
        waitUntil("the tooltips are made", () -> onFx(() -> robot.lookup("#auditNav").queryAs(Control.class)
                .getTooltip() != null));
        UiSettingsStore file = new UiSettingsStore(dir.resolve("settings"));
        TableView<ClaimRow> table = robot.lookup("#claimsTable").queryTableView();
        SplitPane split = robot.lookup("#claimsSplit").queryAs(SplitPane.class);
        fx(() -> {
            split.setDividerPositions(0.62);
            // the number column dragged 40 px wider, the status column hidden
            table.resizeColumn(table.getColumns().get(1), 40);
            table.getColumns().stream().filter(c -> "status".equals(c.getId())).findFirst().orElseThrow()
                    .setVisible(false);
        });
        waitUntil("the layout is kept", () -> {
            UiSettings kept = file.load();
            double[] dividers = kept.dividers.get("claims");
            return dividers != null && Math.abs(dividers[0] - 0.62) < 0.02;
        });
        UiSettings kept = file.load();
        assertThat(kept.columns.get("claims")).extracting(c -> c.id).startsWith("claimant", "number");
        assertThat(kept.columns.get("claims").get(1).width).isEqualTo(190);
        assertThat(kept.columns.get("claims")).filteredOn(c -> "status".equals(c.id)).singleElement()
                .satisfies(c -> assertThat(c.visible).isFalse());
        assertThat(kept.operator).as("who works here, left as it was").isEqualTo("kim");
        assertThat(kept.startWorker).as("the worker's setting, left as it was").isFalse();
    }

    /** A settings file that cannot be written: staff are told, and the console goes on. */
    @Test
    void settingsThatCannotBeKeptAreSaidInANotice() throws Exception {
        waitReady();
        java.nio.file.Path settingsDir = dir.resolve("settings");
        org.claimdesk.app.TemporaryFolders.deleteQuietly(settingsDir);
        java.nio.file.Files.writeString(settingsDir, "a file where the settings' folder should be");
        fx(() -> window.mainModel().largerText());
        waitUntil("staff are told", () -> onFx(() -> window.mainModel().noticeProperty().get().text())
                .startsWith("Could not keep the window's settings (text size, theme, layout) on this workstation: "));
        assertThat(onFx(() -> window.mainModel().textSizeProperty().get())).isEqualTo(110);
        // once the file can be written again, the next change kept takes the notice away
        java.nio.file.Files.delete(settingsDir);
        waitUntil("start-up is idle", () -> onFx(window::idle));
        waitUntil("the tooltips are made", () -> onFx(() -> robot.lookup("#auditNav").queryAs(Control.class)
                .getTooltip() != null));
        fx(() -> robot.lookup("#claimsSplit").queryAs(SplitPane.class).setDividerPositions(0.62));
        waitUntil("the notice is gone", () -> onFx(() -> window.mainModel().noticeProperty().get() == null));
        assertThat(new UiSettingsStore(settingsDir).load().textSize).isEqualTo(110);
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

    @Test
    void aRefreshShowsChangedAndOtherRowsInTheCellsTheTableAlreadyHas() {
        waitReady();
        TableView<ClaimRow> table = robot.lookup("#claimsTable").queryTableView();
        // idle too: nothing start-up began still changes the window while the test counts the table's row cells
        waitUntil("the first page is on screen and nothing runs", () -> !rowCells(table).isEmpty() && window.idle());
        // what the last results changed (the status chips' counts may wrap them onto a second line) is laid out
        waitForLayoutPulse(table);
        double tableHeight = onFx(table::getHeight);
        Set<TableRow<?>> cellsBefore = onFx(() -> rowCells(table));
        ClaimRow first = onFx(() -> table.getItems().get(0));
        db.useTransaction(h -> h.execute("UPDATE claim SET claimant_name = 'Renamed Claimant' WHERE claim_id = ?",
                first.claimId()));

        long pages = onFx(() -> window.claimsModel().pagesShownProperty().get());
        fx(() -> window.claimsModel().refreshRows());
        waitUntil("the changed claimant is on screen", () -> window.claimsModel().pagesShownProperty().get() > pages
                && shownText(table, 0, "claimant").equals("Renamed Claimant"));
        waitForLayoutPulse(table);
        assertThat(onFx(table::getHeight)).as("the table's height").isEqualTo(tableHeight);
        assertThat(onFx(() -> rowCells(table))).as("the same row cells, given their new rows").isEqualTo(cellsBefore);

        // A filter brings other claims into the same positions: still the same cells; the selection, whose
        // claim is no longer on the page, is cleared rather than left on whatever claim took its place.
        fx(() -> table.getSelectionModel().select(3));
        ClaimRow other = onFx(() -> table.getItems().get(150));
        fx(() -> {
            window.claimsModel().searchProperty().set(other.claimNumber());
            window.claimsModel().applyFilters();
        });
        waitUntil("the searched claim is on screen", () -> table.getItems().size() == 1
                && shownText(table, 0, "number").equals(other.claimNumber()));
        assertThat(onFx(() -> table.getSelectionModel().getSelectedIndex())).isEqualTo(-1);
        assertThat(onFx(() -> cellsBefore.containsAll(rowCells(table)))).isTrue();
    }

    /** The table's row cells that show a row. */
    private static Set<TableRow<?>> rowCells(TableView<?> table) {
        Set<TableRow<?>> rows = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (javafx.scene.Node n : table.lookupAll(".table-row-cell")) {
            if (n instanceof TableRow<?> r && !r.isEmpty() && r.isVisible()) {
                rows.add(r);
            }
        }
        return rows;
    }

    /** The text of the cell of column {@code columnId} in the row showing {@code index}, or "". */
    private static String shownText(TableView<?> table, int index, String columnId) {
        for (javafx.scene.Node n : table.lookupAll(".table-cell")) {
            if (n instanceof TableCell<?, ?> c && c.getIndex() == index && c.getTableColumn() != null
                    && columnId.equals(c.getTableColumn().getId()) && c.getText() != null) {
                return c.getText();
            }
        }
        return "";
    }

    private static int firstVisible(TableView<?> table) {
        VirtualFlow<?> flow = (VirtualFlow<?>) table.lookup(".virtual-flow");
        return flow.getFirstVisibleCell().getIndex();
    }
}
