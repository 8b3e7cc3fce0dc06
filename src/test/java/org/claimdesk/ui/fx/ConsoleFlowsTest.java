package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javafx.css.PseudoClass;
import javafx.scene.Node;
import javafx.scene.chart.NumberAxis;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.ui.claims.ClaimRow;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.main.Page;
import org.claimdesk.ui.outbox.OutboxRow;
import org.testfx.matcher.control.LabeledMatchers;
import org.junit.jupiter.api.Test;
import org.testfx.util.WaitForAsyncUtils;

class ConsoleFlowsTest extends ConsoleFxTest {

    @Test
    void searchAndStatusFiltersQueryTheDatabase() {
        waitReady();
        TableView<ClaimRow> table = robot.lookup("#claimsTable").queryTableView();
        assertThat(onFx(() -> table.getItems().size())).isEqualTo(200);

        Claim target = queries.claim(777L).orElseThrow();
        robot.clickOn("#claimSearch").write(target.claimNumber()).type(KeyCode.ENTER);
        waitUntil("only the searched claim shows", () -> table.getItems().size() == 1
                && table.getItems().get(0).claimId() == 777L);

        robot.clickOn("#claimSearch").press(KeyCode.CONTROL, KeyCode.A).release(KeyCode.A, KeyCode.CONTROL)
                .type(KeyCode.BACK_SPACE);
        waitUntil("every claim shows again", () -> table.getItems().size() == 200);

        robot.clickOn("#status-NEEDS_INFO");
        int needsInfo = queries.countClaims(ClaimQuery.all().withStatuses(Set.of(ClaimStatus.NEEDS_INFO)));
        waitUntil("only claims needing information show", () -> table.getItems().size() == Math.min(200, needsInfo)
                && table.getItems().stream().allMatch(r -> r.status() == ClaimStatus.NEEDS_INFO));
        assertThat(robot.lookup("#status-NEEDS_INFO").queryLabeled().getText()).endsWith(" " + needsInfo);
    }

    @Test
    void overdueClaimsShowTheirDecisionDateMarkedAndTheOthersDoNot() {
        waitReady();
        TableView<ClaimRow> table = robot.lookup("#claimsTable").queryTableView();
        robot.clickOn("#overdueFilter");
        waitUntil("only overdue claims show", () -> !table.getItems().isEmpty()
                && table.getItems().stream().allMatch(ClaimRow::overdue));
        waitUntil("their decision dates are marked", () -> dueCells(table).size() > 3
                && dueCells(table).stream().allMatch(c -> c.getText().startsWith("⚠") && marked(c)));

        // the same cells then show claims still within their date: the mark goes with the claim, not the cell
        robot.clickOn("#overdueFilter");
        robot.clickOn("#status-SUBMITTED_TO_STATE");
        waitUntil("submitted claims show, marked only when overdue", () -> !table.getItems().isEmpty()
                && table.getItems().stream().allMatch(r -> r.status() == ClaimStatus.SUBMITTED_TO_STATE)
                && dueCells(table).stream().anyMatch(c -> !marked(c))
                && dueCells(table).stream().allMatch(c -> {
                    ClaimRow row = (ClaimRow) c.getTableRow().getItem();
                    return row != null && marked(c) == row.overdue() && c.getText().startsWith("⚠") == row.overdue();
                }));
    }

    /** The decision-due cells on screen that show a date. */
    private List<TableCell<?, ?>> dueCells(TableView<ClaimRow> table) {
        return onFx(() -> table.lookupAll(".table-cell").stream()
                .filter(n -> n instanceof TableCell<?, ?> c && c.getTableColumn() != null
                        && "due".equals(c.getTableColumn().getId()) && !c.isEmpty() && c.getText() != null)
                .<TableCell<?, ?>>map(n -> (TableCell<?, ?>) n)
                .toList());
    }

    private static boolean marked(Node cell) {
        return cell.getPseudoClassStates().contains(PseudoClass.getPseudoClass("overdue"));
    }

    @Test
    void advancingAClaimIsStoredWithItsHistory() {
        waitReady();
        Claim claim = firstClaim(ClaimStatus.IDENTITY_PENDING);
        selectClaim(claim);

        robot.clickOn("#action-EVIDENCE_PENDING");
        typeReason("photo ID checked at the counter");
        robot.clickOn("#dialogOkButton");

        waitUntil("the new status is stored", () ->
                queries.claim(claim.claimId()).orElseThrow().status() == ClaimStatus.EVIDENCE_PENDING);
        assertThat(queries.history(claim.claimId())).last().satisfies(h -> {
            assertThat(h.reason()).isEqualTo("photo ID checked at the counter");
            assertThat(h.actor()).isEqualTo(services.actor());
        });
        waitUntil("the action bar offers the next steps", () ->
                robot.lookup("#action-READY_FOR_SUBMISSION").tryQuery().isPresent());
    }

    @Test
    void aReasonIsTypedAndConfirmedFromTheKeyboard() {
        waitReady();
        Claim claim = firstClaim(ClaimStatus.IDENTITY_PENDING);
        selectClaim(claim);

        robot.clickOn("#action-EVIDENCE_PENDING");
        typeReason("photo ID checked");
        Node reason = robot.lookup("#reasonField").query();
        // Tab leaves the reason as it leaves a text field, Shift+Tab comes back to it
        robot.type(KeyCode.TAB);
        waitUntil("Tab moves on", () -> !reason.isFocused());
        robot.press(KeyCode.SHIFT, KeyCode.TAB).release(KeyCode.TAB, KeyCode.SHIFT);
        waitUntil("Shift+Tab comes back", reason::isFocused);
        robot.press(KeyCode.SHIFT, KeyCode.ENTER).release(KeyCode.ENTER, KeyCode.SHIFT);
        robot.write("at the counter");
        robot.type(KeyCode.ENTER);

        waitUntil("Enter confirms", () ->
                queries.claim(claim.claimId()).orElseThrow().status() == ClaimStatus.EVIDENCE_PENDING);
        assertThat(queries.history(claim.claimId())).last().satisfies(h ->
                assertThat(h.reason()).isEqualTo("photo ID checked\nat the counter"));
    }

    @Test
    void aReasonGivenForAnActionThatFailedIsThereWhenItIsAskedAgain() {
        waitReady();
        Claim claim = firstClaim(ClaimStatus.EVIDENCE_PENDING);
        selectClaim(claim);
        robot.clickOn("#action-WITHDRAWN");
        typeReason("claimant's letter of 2 March");
        // another workstation changes the claim while the question is open
        services.workflow().editing().edit(claim.claimId(), claim.version(), java.util.Map.of("amountCents", "123456"),
                "r.okafor", "amount per the holder's report");
        robot.clickOn("#dialogOkButton");
        waitUntil("the conflict is reported", () -> robot.lookup("#claimsNotice").queryAs(Label.class).getText()
                .contains("was changed by r.okafor"));

        waitUntil("the action is offered again", () -> robot.lookup("#action-WITHDRAWN").tryQuery().isPresent()
                && !robot.lookup("#action-WITHDRAWN").query().isDisabled());
        robot.clickOn("#action-WITHDRAWN");
        waitUntil("the reason dialog opens", () -> robot.lookup("#reasonField").tryQuery().isPresent());
        assertThat(robot.lookup("#reasonField").queryAs(javafx.scene.control.TextArea.class).getText())
                .isEqualTo("claimant's letter of 2 March");
        robot.type(KeyCode.ENTER);
        waitUntil("the claim is withdrawn", () ->
                queries.claim(claim.claimId()).orElseThrow().status() == ClaimStatus.WITHDRAWN);
    }

    @Test
    void theStatusFiltersAreReachedAndToggledFromTheKeyboard() {
        waitReady();
        fx(() -> robot.lookup("#refreshClaimsButton").query().requestFocus());
        robot.type(KeyCode.TAB);
        Node first = robot.lookup("#status-IDENTITY_PENDING").query();
        waitUntil("Tab reaches the first status filter", first::isFocused);
        robot.type(KeyCode.SPACE);
        waitUntil("Space applies it", () -> window.claimsModel().activeStatusesProperty().get()
                .equals(Set.of(ClaimStatus.IDENTITY_PENDING)));
    }

    @Test
    void theClaimsAreSortedAndTheirColumnsShownFromTheTablesMenu() {
        waitReady();
        TableView<ClaimRow> table = robot.lookup("#claimsTable").queryTableView();
        assertThat(onFx(() -> sortedByDue(window.claimsModel().rows()))).as("by claim number first").isFalse();
        fx(table::requestFocus);
        robot.press(KeyCode.SHIFT, KeyCode.F10).release(KeyCode.F10, KeyCode.SHIFT);
        waitUntil("the table's menu opens from the keyboard", () -> table.getContextMenu().isShowing());
        fx(() -> menuItem(table, "Sort by", "Decision due").fire());
        // in the database: the page's rows come in decision due order (claims without one first, as SQLite sorts)
        waitUntil("the claims are sorted by decision due", () -> !table.getSortOrder().isEmpty()
                && table.getSortOrder().get(0).getId().equals("due") && sortedByDue(window.claimsModel().rows()));
        fx(() -> table.getContextMenu().hide());

        TableColumn<ClaimRow, ?> taxId = table.getColumns().stream().filter(c -> "taxId".equals(c.getId()))
                .findFirst().orElseThrow();
        boolean visible = taxId.isVisible();
        fx(table::requestFocus);
        robot.press(KeyCode.SHIFT, KeyCode.F10).release(KeyCode.F10, KeyCode.SHIFT);
        waitUntil("the table's menu opens again", () -> table.getContextMenu().isShowing());
        // the entries say the table as it is now: the sort column offers the other way
        assertThat(onFx(() -> menuItem(table, "Sort by", "Decision due, the other way"))).isNotNull();
        fx(() -> {
            // as a click on it does: the check mark changes, then the entry acts
            javafx.scene.control.CheckMenuItem shown = (javafx.scene.control.CheckMenuItem) menuItem(table, "Columns",
                    "Tax id");
            assertThat(shown.isSelected()).isEqualTo(visible);
            shown.setSelected(!shown.isSelected());
            shown.fire();
        });
        waitUntil("the tax id column is shown or hidden", () -> taxId.isVisible() != visible);
        fx(() -> table.getContextMenu().hide());
    }

    private static boolean sortedByDue(List<ClaimRow> rows) {
        for (int i = 1; i < rows.size(); i++) {
            java.time.LocalDate before = rows.get(i - 1).decisionDueOn();
            java.time.LocalDate after = rows.get(i).decisionDueOn();
            if (before != null && (after == null || after.isBefore(before))) {
                return false;
            }
        }
        return rows.size() > 1;
    }

    /** The entry {@code text} of the table menu's submenu {@code menu}. */
    private static javafx.scene.control.MenuItem menuItem(TableView<?> table, String menu, String text) {
        return table.getContextMenu().getItems().stream().filter(i -> menu.equals(i.getText()))
                .map(javafx.scene.control.Menu.class::cast).findFirst().orElseThrow().getItems().stream()
                .filter(i -> text.equals(i.getText())).findFirst().orElseThrow();
    }

    @Test
    void thePageSwitchedToTakesTheFocus() {
        waitReady();
        waitOtherPagesBuilt();
        fx(() -> robot.lookup("#claimsTable").query().requestFocus());
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT2).release(KeyCode.DIGIT2, KeyCode.CONTROL);
        waitUntil("the outbox table has the focus", () -> robot.lookup("#outboxTable").query().isFocused());
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT4).release(KeyCode.DIGIT4, KeyCode.CONTROL);
        waitUntil("the audit table has the focus", () -> robot.lookup("#auditTable").query().isFocused());
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT1).release(KeyCode.DIGIT1, KeyCode.CONTROL);
        waitUntil("the claims table has the focus", () -> robot.lookup("#claimsTable").query().isFocused());
    }

    @Test
    void revealingATaxIdIsAuditedAndShowsInTheAuditView() {
        waitReady();
        Claim claim = queries.claim(42L).orElseThrow();
        selectClaim(claim);
        Label taxId = robot.lookup("#taxIdValue").queryAs(Label.class);
        assertThat(onFx(taxId::getText)).isEqualTo(claim.maskedTaxId());

        robot.clickOn("#revealTaxIdButton");
        assertThat(robot.lookup("#dialogOkButton").query().isDisabled()).as("a reason is required").isTrue();
        typeReason("claimant verifying by phone");
        robot.clickOn("#dialogOkButton");

        waitUntil("the whole tax id shows", () -> claim.taxId().equals(taxId.getText()));
        List<AuditEntry> audit = queries.audit("42", null, AuditActions.TAX_ID_REVEAL, 0, 10);
        assertThat(audit).singleElement().satisfies(a -> assertThat(a.reason()).isEqualTo("claimant verifying by phone"));

        robot.press(KeyCode.CONTROL, KeyCode.DIGIT4).release(KeyCode.DIGIT4, KeyCode.CONTROL);
        waitUntil("the audit page shows", () -> window.mainModel().pageProperty().get() == Page.AUDIT);
        robot.clickOn("#auditSubjectFilter").write("42").type(KeyCode.ENTER);
        TableView<AuditEntry> auditTable = robot.lookup("#auditTable").queryTableView();
        waitUntil("the reveal is listed", () -> auditTable.getItems().stream().anyMatch(a ->
                a.action().equals(AuditActions.TAX_ID_REVEAL) && "claimant verifying by phone".equals(a.reason())));
    }

    @Test
    void aSubmittedClaimIsDeliveredByTheWorkerWhileTheProgressBarMoves() {
        waitReady();
        db.useTransaction(h -> h.execute("UPDATE outbox_event SET next_attempt_at = 0 WHERE delivery_state = 'pending'"));
        Claim claim = firstClaim(ClaimStatus.READY_FOR_SUBMISSION);
        selectClaim(claim);
        robot.clickOn("#action-SUBMITTING");
        robot.clickOn("#dialogOkButton");
        waitUntil("the submission is queued", () ->
                queries.claim(claim.claimId()).orElseThrow().status() == ClaimStatus.SUBMITTING);

        robot.press(KeyCode.CONTROL, KeyCode.DIGIT3).release(KeyCode.DIGIT3, KeyCode.CONTROL);
        long pending = queries.countOutboxByState().getOrDefault(DeliveryState.PENDING, 0);
        waitUntil("the worker, not started yet, shows the rows waiting for it", () ->
                robot.lookup("#pendingLabel").queryAs(Label.class).getText().equals(Formats.count(pending))
                && robot.lookup("#drainLabel").queryAs(Label.class).getText().endsWith("delivered once the worker is started"));
        assertThat(robot.lookup("#rateValueAxis").queryAs(NumberAxis.class).getUpperBound())
                .as("the rate axis keeps its scale while nothing is delivered").isEqualTo(10);
        ProgressBar bar = robot.lookup("#drainProgress").queryAs(ProgressBar.class);
        AtomicReference<Double> highest = new AtomicReference<>(0.0);
        fx(() -> bar.progressProperty().addListener((obs, old, v) -> {
            if (v.doubleValue() > 0 && v.doubleValue() < 1) {
                highest.accumulateAndGet(v.doubleValue(), Math::max);
            }
        }));
        robot.clickOn("#workerStartButton");

        waitUntil("the claim is delivered", () -> queries.claim(claim.claimId()).orElseThrow().status()
                == ClaimStatus.SUBMITTED_TO_STATE);
        assertThat(queries.outboxForClaim(claim.claimId())).singleElement()
                .satisfies(e -> assertThat(e.deliveryState()).isEqualTo(DeliveryState.SENT));
        assertThat(highest.get()).as("the progress bar showed the drain part-way").isBetween(0.0, 1.0).isPositive();
        waitUntil("the counters show sent rows", () ->
                robot.lookup("#countersLabel").queryAs(Label.class).getText().matches("Sent [1-9].*"));
        robot.clickOn("#workerPauseButton");
        typeReason("state portal maintenance tonight");
        robot.clickOn("#dialogOkButton");
        waitUntil("the worker pauses", () -> !robot.lookup("#workerResumeButton").query().isDisabled());
        waitUntil("the page and the status bar say who paused it and why", () ->
                robot.lookup("#staffPauseBanner").queryAs(Label.class).isVisible()
                && robot.lookup("#staffPauseBanner").queryAs(Label.class).getText()
                        .startsWith("Paused by " + services.actor() + " at ")
                && robot.lookup("#workerStatus").queryAs(Label.class).getText()
                        .endsWith(": state portal maintenance tonight"));
        assertThat(queries.audit(AuditActions.WORKER_ID, services.actor(), AuditActions.WORKER_PAUSE, 0, 0))
                .singleElement().satisfies(e -> assertThat(e.reason()).isEqualTo("state portal maintenance tonight"));
    }

    @Test
    void anExportOverAFileTypedInAsksBeforeReplacingIt() throws Exception {
        waitReady();
        java.nio.file.Path existing = java.nio.file.Files.writeString(dir.resolve("holders.csv"), "the holder's report\n");
        robot.clickOn("#claimsExportButton");
        waitUntil("the export dialog opens", () -> robot.lookup("#exportFileField").tryQuery().isPresent());
        TextField file = robot.lookup("#exportFileField").queryAs(TextField.class);
        fx(() -> file.setText(existing.toString()));
        robot.clickOn("#dialogOkButton");
        waitUntil("it asks first", () -> robot.lookup(".dialog-pane .header-panel .label").queryAll().stream()
                .anyMatch(n -> ((Label) n).getText().contains("already exists. Replace it")));
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        waitUntil("the question closes", () -> robot.lookup(".dialog-pane .header-panel .label").queryAll().stream()
                .noneMatch(n -> ((Label) n).getText().contains("already exists")));
        assertThat(java.nio.file.Files.readString(existing)).isEqualTo("the holder's report\n");

        // Export… again offers what was typed
        robot.clickOn("#claimsExportButton");
        waitUntil("the export dialog opens as typed", () -> robot.lookup("#exportFileField").tryQuery()
                .map(n -> ((TextField) n).getText().equals(existing.toString())).orElse(false));
        robot.clickOn("#dialogOkButton");
        waitUntil("it asks again", () -> robot.lookup(".dialog-pane .header-panel .label").queryAll().stream()
                .anyMatch(n -> ((Label) n).getText().contains("already exists. Replace it")));
        robot.clickOn(robot.lookup(".dialog-pane .button").match(LabeledMatchers.hasText("Replace"))
                .queryAs(javafx.scene.control.Button.class));
        waitUntil("the export replaced it", () -> java.nio.file.Files.readString(existing).contains("jurisdiction"));
    }

    /**
     * A pending row's next attempt counts down while the Outbox page is shown and reads "due" once its time has come,
     * though the row did not change and the page was not read again (the worker is not running).
     */
    @Test
    void aPendingRowsNextAttemptCountsDownToDueWithoutTheRowsChanging() {
        waitReady();
        long id = queries.outbox(OutboxQuery.all().withState(DeliveryState.PENDING).withPage(0, 1)).get(0).outboxEventId();
        // far enough ahead that the page is shown with the row before its time comes, even on a busy machine
        long soon = System.currentTimeMillis() + 6_000;
        db.useTransaction(h -> h.execute("UPDATE outbox_event SET next_attempt_at = ? WHERE outbox_event_id = ?", soon, id));
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT2).release(KeyCode.DIGIT2, KeyCode.CONTROL);
        fx(() -> {
            window.outboxModel().stateProperty().set(DeliveryState.PENDING);
            window.outboxModel().applyFilters();
        });
        java.util.concurrent.Callable<String> shown = () -> robot.lookup("#outboxTable .table-cell")
                .match((TableCell<?, ?> c) -> "next".equals(c.getTableColumn().getId()) && c.getTableRow() != null
                        && c.getTableRow().getItem() instanceof OutboxRow r && r.id() == id)
                .tryQueryAs(TableCell.class).map(TableCell::getText).orElse(null);
        waitUntil("the row shows when it is next tried", () -> {
            String text = shown.call();
            return text != null && text.startsWith("in ");
        });
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        fx(() -> window.outboxModel().loadingProperty().addListener((o, was, loading) -> {
            if (loading) {
                reads.incrementAndGet();
            }
        }));
        waitUntil("the row reads due once its time has come", () -> "due".equals(shown.call()));
        assertThat(reads).as("nothing read again").hasValue(0);
    }

    @Test
    void aFailedGroupIsReQueuedWithAReasonAndAudited() {
        waitReady();
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT2).release(KeyCode.DIGIT2, KeyCode.CONTROL);
        javafx.scene.control.ListView<org.claimdesk.domain.FailureGroup> groups = robot.lookup("#errorGroups").queryListView();
        TableView<OutboxRow> rows = robot.lookup("#outboxTable").queryTableView();
        waitUntil("failed rows and their groups show", () -> !groups.getItems().isEmpty() && !rows.getItems().isEmpty()
                && rows.getItems().stream().allMatch(r -> r.event().deliveryState() == DeliveryState.FAILED));
        assertThat(onFx(() -> robot.lookup("#attemptsTable").query().isVisible()
                || robot.lookup("#lastErrorView").query().isVisible()))
                .as("no row selected: the detail shows only what to do, no empty attempts").isFalse();
        // the counts the status bar read at start, before this page was built, show on it as well
        String failedCount = Formats.count(
                queries.countOutboxByState().get(DeliveryState.FAILED)) + " failed";
        waitUntil("the state counts show", () -> robot.lookup("#outboxCountsLabel").queryAs(Label.class).getText()
                .contains(failedCount));

        org.claimdesk.domain.FailureGroup group = onFx(() -> groups.getItems().get(0));
        String signature = onFx(() -> groups.getItems().get(0).shown());
        robot.clickOn(robot.lookup("#errorGroups .group-signature").match(LabeledMatchers.hasText(signature))
                .queryAs(javafx.scene.Node.class));
        waitUntil("the group's rows show", () -> rows.getItems().size() == Math.min(200, group.count()));
        List<Long> ids = onFx(() -> rows.getItems().stream().map(OutboxRow::id).toList());

        robot.clickOn("#requeueButton");
        typeReason("state fixed the holder lookup");
        robot.clickOn("#dialogOkButton");

        waitUntil("every row of the group is pending again", () -> ids.stream().allMatch(id ->
                queries.outboxEvent(id).orElseThrow().deliveryState() == DeliveryState.PENDING));
        assertThat(queries.audit(null, services.actor(), AuditActions.OUTBOX_REQUEUE, 0, 0))
                .hasSize(group.count())
                .allSatisfy(a -> assertThat(a.reason()).isEqualTo("state fixed the holder lookup"));
        List<OutboxEvent> after = queries.outbox(OutboxQuery.all().withState(DeliveryState.FAILED));
        assertThat(after).extracting(OutboxEvent::outboxEventId).doesNotContainAnyElementsOf(ids);
        waitUntil("the result is reported", () -> robot.lookup("#outboxNotice").queryAs(Label.class).getText()
                .startsWith(group.count() + " row(s) re-queued"));
    }

    @Test
    void aGroupRefusedForAnUnregisteredHolderIsFixedInOneStepAndResubmittedFromTheOutboxPage() {
        waitReady();
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT2).release(KeyCode.DIGIT2, KeyCode.CONTROL);
        javafx.scene.control.ListView<org.claimdesk.domain.FailureGroup> groups = robot.lookup("#errorGroups").queryListView();
        TableView<OutboxRow> rows = robot.lookup("#outboxTable").queryTableView();
        waitUntil("failed rows and their groups show", () -> !groups.getItems().isEmpty() && !rows.getItems().isEmpty());
        org.claimdesk.domain.FailureGroup group = onFx(() -> groups.getItems().stream()
                .filter(g -> g.signature().contains("holder registry")).findFirst().orElseThrow());
        robot.clickOn(robot.lookup("#errorGroups .group-signature").match(LabeledMatchers.hasText(group.shown()))
                .queryAs(javafx.scene.Node.class));
        waitUntil("the group's rows show", () -> rows.getItems().size() == group.count());
        List<Long> ids = onFx(() -> rows.getItems().stream().map(OutboxRow::id).toList());

        robot.clickOn("#fixFieldButton");
        waitUntil("the dialog asks for the value", () -> robot.lookup("#fixValueField").tryQuery().isPresent());
        robot.clickOn("#fixValueField").write("HLD-100200");
        robot.clickOn("#fixPreviewButton");
        TableView<?> preview = robot.lookup("#fixPreviewTable").queryTableView();
        waitUntil("the preview lists the group's claims", () -> preview.getItems().size() == group.count());
        robot.clickOn("#fixReasonField").write("registered id from the state's holder list");
        robot.clickOn("#fixApplyButton");
        waitUntil("the resubmission is offered", () -> robot.lookup("#resubmitCorrectedButton").tryQuery()
                .map(Node::isVisible).orElse(false));
        robot.clickOn("#resubmitCorrectedButton");
        waitUntil("every row of the group is superseded", () -> ids.stream().allMatch(id ->
                queries.outboxEvent(id).orElseThrow().deliveryState() == DeliveryState.SUPERSEDED));
        robot.clickOn("#fixCloseButton");

        assertThat(queries.audit(null, services.actor(), AuditActions.CLAIM_EDIT, 0, 0)).hasSize(group.count())
                .allSatisfy(a -> assertThat(a.reason()).isEqualTo("registered id from the state's holder list"));
        assertThat(queries.audit(null, services.actor(), AuditActions.OUTBOX_RESUBMIT, 0, 0)).hasSize(group.count());
        waitUntil("the page no longer shows the group", () -> groups.getItems().stream()
                .noneMatch(g -> g.signature().equals(group.signature())));
    }

    @Test
    void hiddenPagesAreLaidOutOnceAfterStartUpSoTheirFirstVisitFindsTheirRowsMade() {
        waitReady();
        waitOtherPagesBuilt();
        TableView<?> outbox = robot.lookup("#outboxTable").queryTableView();
        Node outboxPage = robot.lookup("#outboxPage").query();
        waitUntil("the hidden Outbox table has made its rows",
                () -> window.hiddenPagesWarmed() && !outbox.lookupAll(".table-row-cell").isEmpty() && !outboxPage.isVisible());
        assertThat(window.mainModel().pageProperty().get()).isEqualTo(Page.CLAIMS);
        assertThat(outboxPage.isMouseTransparent()).as("back to normal once hidden again").isFalse();
        assertThat(robot.lookup("#claimsPage").query().isVisible()).isTrue();
    }

    @Test
    void aHiddenPageIsLaidOutWhenShownNotWhileHidden() throws Exception {
        waitReady();
        waitOtherPagesBuilt();
        TableView<?> outbox = robot.lookup("#outboxTable").queryTableView();
        javafx.scene.Parent workerPage = robot.lookup("#workerPage").query();
        // idle too: nothing start-up began is still running while the test watches the hidden page
        waitUntil("start-up's warm-up is over and nothing runs",
                () -> window.hiddenPagesWarmed() && !outbox.lookupAll(".table-row-cell").isEmpty() && window.idle());
        Label title = (Label) workerPage.lookup(".section-title");
        // what the last results changed is laid out before the test changes the hidden page
        waitForLayoutPulse(workerPage.getParent());
        waitForLayoutPulse(workerPage.getParent());

        WaitForAsyncUtils.asyncFx(() -> title.setText("Current drain, of every row due")).get(5, TimeUnit.SECONDS);
        waitForLayoutPulse(workerPage.getParent());
        // a pulse has run since: had the request gone up to the window, it would have laid the page out
        assertThat(workerPage.isNeedsLayout()).as("the hidden page keeps its layout request").isTrue();

        robot.press(KeyCode.CONTROL, KeyCode.DIGIT3).release(KeyCode.DIGIT3, KeyCode.CONTROL);
        waitUntil("the Worker page is laid out once shown", () -> workerPage.isVisible() && !workerPage.isNeedsLayout()
                && title.getWidth() >= title.prefWidth(-1) - 0.5);
    }

    /**
     * JavaFX repaints the whole window after a change to a node that is not drawn (it finds no dirty region to
     * limit the repaint to), so a hidden page must not follow the worker's snapshots, which arrive several times
     * a second while rows are delivered; it catches up once shown.
     */
    @Test
    void hiddenPagesDoNotChangeWhileTheWorkerDeliversAndCatchUpWhenShown() {
        waitReady();
        waitOtherPagesBuilt();
        TableView<?> outbox = robot.lookup("#outboxTable").queryTableView();
        waitUntil("start-up's warm-up is over",
                () -> window.hiddenPagesWarmed() && !outbox.lookupAll(".table-row-cell").isEmpty());
        List<String> changes = new java.util.concurrent.CopyOnWriteArrayList<>();
        fx(() -> {
            for (String page : List.of("#outboxPage", "#workerPage", "#auditPage")) {
                recordChanges(robot.lookup(page).query(), page, changes);
            }
        });
        db.useTransaction(h -> h.execute("UPDATE outbox_event SET next_attempt_at = 0 WHERE delivery_state = 'pending'"));
        fx(() -> window.workerModel().start());
        waitUntil("the console has had snapshots of several deliveries", () ->
                window.workerModel().snapshotProperty().get() != null
                && window.workerModel().snapshotProperty().get().sentThisRun() >= 5);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(changes).as("changes to the hidden pages while the Claims page is on screen").isEmpty();

        Label sentTotal = robot.lookup("#sentTotalLabel").queryAs(Label.class);
        Label counters = robot.lookup("#countersLabel").queryAs(Label.class);
        Label badge = robot.lookup("#workerStateLabel").queryAs(Label.class);
        // read in the same turn of the FX thread as the switch, so that no later snapshot can do the catching up
        List<String> shown = onFx(() -> {
            String latest = window.workerModel().countersTextProperty().get();
            String before = counters.getText();
            window.mainModel().show(Page.WORKER);
            return List.of(latest, String.valueOf(before), String.valueOf(counters.getText()),
                    Formats.count(window.workerModel().snapshotProperty().get().sentTotal()), sentTotal.getText(),
                    String.valueOf(badge.getStyleClass().contains("badge-worker-running")));
        });
        assertThat(shown.get(0)).as("the worker's latest counters").matches("Sent [1-9].*");
        assertThat(shown.get(1)).as("the hidden page's counters, not followed").isNotEqualTo(shown.get(0));
        assertThat(shown.get(2)).as("the counters once the page is shown").isEqualTo(shown.get(0));
        assertThat(shown.get(4)).as("the sent total once the page is shown").isEqualTo(shown.get(3));
        assertThat(shown.get(5)).as("the state badge styled as running").isEqualTo("true");
    }

    /**
     * A text in the Worker page's drain card (the last error, which changes with each failed delivery, is the
     * longest) changes neither card's width nor the chart's size: a page that moves as the worker reports is
     * hard to read, and each move repaints the whole page.
     */
    @Test
    void theWorkerPageKeepsItsLayoutWhateverTheDrainCardSays() {
        waitReady();
        waitOtherPagesBuilt();
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT3).release(KeyCode.DIGIT3, KeyCode.CONTROL);
        javafx.scene.Parent workerPage = robot.lookup("#workerPage").query();
        waitUntil("the Worker page is shown and laid out", () -> workerPage.isVisible() && !workerPage.isNeedsLayout());
        List<Node> cards = onFx(() -> List.copyOf(workerPage.lookupAll(".card")));
        Node chart = robot.lookup("#rateChart").query();
        java.util.concurrent.Callable<List<javafx.geometry.Bounds>> sizes = () -> java.util.stream.Stream.concat(
                cards.stream(), java.util.stream.Stream.of(chart)).map(Node::getLayoutBounds).toList();
        List<javafx.geometry.Bounds> before = onFx(sizes);
        Label title = (Label) cards.get(0).lookup(".section-title");

        fx(() -> title.setText("Current drain: " + "a very long text that is wider than the whole window ".repeat(4)));
        waitUntil("the page is laid out again", () -> !workerPage.isNeedsLayout() && title.getWidth() > 0);
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(onFx(sizes)).as("the cards' and the chart's sizes").isEqualTo(before);
        assertThat(onFx(() -> title.getWidth() < title.prefWidth(-1))).as("the long text is cut, not the card widened").isTrue();
    }

    /** Records every change of text, visibility, enabled state, style classes, progress or children under {@code node}. */
    private static void recordChanges(Node node, String path, List<String> changes) {
        String here = path + "/" + (node.getId() != null ? node.getId() : node.getClass().getSimpleName());
        node.visibleProperty().addListener((obs, old, v) -> changes.add(here + " visible " + v));
        node.disableProperty().addListener((obs, old, v) -> changes.add(here + " disable " + v));
        node.getStyleClass().addListener((javafx.collections.ListChangeListener<String>) c ->
                changes.add(here + " style " + node.getStyleClass()));
        if (node instanceof javafx.scene.control.Labeled l) {
            l.textProperty().addListener((obs, old, v) -> changes.add(here + " text " + v));
        }
        if (node instanceof javafx.scene.control.ProgressIndicator p) {
            p.progressProperty().addListener((obs, old, v) -> changes.add(here + " progress " + v));
        }
        if (node instanceof javafx.scene.Parent parent) {
            parent.getChildrenUnmodifiable().addListener((javafx.collections.ListChangeListener<Node>) c ->
                    changes.add(here + " children"));
            parent.getChildrenUnmodifiable().forEach(child -> recordChanges(child, here, changes));
        }
    }

    @Test
    void shortcutsSwitchPagesAndFocusTheSearch() {
        waitReady();
        for (Page page : List.of(Page.OUTBOX, Page.WORKER, Page.AUDIT, Page.CLAIMS)) {
            KeyCode digit = KeyCode.valueOf("DIGIT" + (page.ordinal() + 1));
            robot.press(KeyCode.CONTROL, digit).release(digit, KeyCode.CONTROL);
            waitUntil(page + " shows", () -> window.mainModel().pageProperty().get() == page);
        }
        robot.press(KeyCode.CONTROL, KeyCode.F).release(KeyCode.F, KeyCode.CONTROL);
        waitUntil("the search has focus", () -> robot.lookup("#claimSearch").queryAs(TextField.class).isFocused());
        robot.type(KeyCode.F5);
        assertThat(robot.lookup("#findMenuItem").tryQuery()).as("menu items are not nodes").isEmpty();
    }
}
