package org.claimdesk.ui.fx;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import org.claimdesk.app.AuditedWorker;
import org.claimdesk.app.DemoData;
import org.claimdesk.app.OutboxTriage;
import org.claimdesk.app.Workflow;
import org.claimdesk.delivery.DeliveryWorker;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.FailureGroup;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Workers;
import org.claimdesk.ui.main.Page;
import org.claimdesk.ui.testing.TestDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.matcher.control.LabeledMatchers;

/**
 * The console on a team database (a real PostgreSQL server) while staff at another workstation work on the same
 * claims: what they commit shows on this console's open page without a refresh (the console's own worker is off,
 * so no tick reloads anything), their pause holds this console's worker, and an edit of a claim they changed
 * meanwhile is refused naming them.
 */
class TeamConsoleFxTest extends ConsoleFxTest {
    private static final int TEAM_CLAIMS = 300;

    private Database otherWorkstation;
    private Workflow otherWorkflow;

    @Override
    Database openDatabase() {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();
        Database team = Database.open(location);
        if (!testInfo.getTestMethod().orElseThrow().getName().startsWith("anEmpty")) {
            new DemoData(team, LocalDate.now(ZoneId.systemDefault()), Deadlines.statutory())
                    .generate(TEAM_CLAIMS, TestDatabases.SEED, n -> { });
        }
        otherWorkstation = Database.open(location);
        otherWorkflow = new Workflow(otherWorkstation, Clock.systemDefaultZone(), Deadlines.statutory());
        return team;
    }

    @AfterEach
    void closeOtherWorkstation() {
        if (otherWorkstation != null) {
            otherWorkstation.close();
        }
    }

    @Test
    void aClaimAdvancedOnAnotherWorkstationShowsOnTheOpenPageWithoutARefresh() throws Exception {
        waitReady();
        waitUntil("the status bar says the updates are live", () -> visible(robot.lookup("#liveStatus").query())
                && robot.lookup("#liveStatus").queryAs(Label.class).getText().equals("● Live"));
        Claim claim = firstClaim(ClaimStatus.IDENTITY_PENDING);
        selectClaim(claim);

        otherWorkflow.advance(claim.claimId(), ClaimStatus.EVIDENCE_PENDING, "m.alvarez", null, null, claim.version());

        waitUntil("the selected row shows the status set elsewhere", () ->
                window.claimsModel().selectedProperty().get().status() == ClaimStatus.EVIDENCE_PENDING);
        waitUntil("the table shows it", () -> robot.lookup("#claimsTable .badge")
                .match(LabeledMatchers.hasText(ClaimStatus.EVIDENCE_PENDING.label())).tryQuery().isPresent());
        waitUntil("and so does its detail", () -> onFx(() -> window.claimsModel().detailProperty().get().claim()
                .status()) == ClaimStatus.EVIDENCE_PENDING);
        snapshot("team-live-claim");
    }

    @Test
    void rowsReQueuedOnAnotherWorkstationLeaveTheFailedCountHere() {
        waitReady();
        fx(() -> window.mainModel().show(Page.OUTBOX));
        waitUntil("the outbox counts show failed rows", () -> failedShown() > 0);
        int failedBefore = failedShown();
        waitUntil("the error groups hold the failed rows", () -> groupedShown() == failedBefore);
        waitUntil("the switch's reads are over", () -> onFx(window::idle));
        int requeued = requeueTwoFailedRowsElsewhere();

        waitUntil("the outbox page counts the re-queued rows", () -> failedShown() == failedBefore - requeued);
        waitUntil("and groups the failed rows again", () -> groupedShown() == failedBefore - requeued);
    }

    /** Another workstation re-queues two failed rows; how many. */
    private int requeueTwoFailedRowsElsewhere() {
        List<OutboxEvent> failed = TestDatabases.queries(otherWorkstation)
                .outbox(OutboxQuery.all().withState(DeliveryState.FAILED).withPage(0, 2));
        OutboxTriage triage = new OutboxTriage(otherWorkstation, Clock.systemDefaultZone(), Deadlines.statutory(),
                new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable())));
        triage.apply(triage.preview(OutboxTriage.Action.REQUEUE,
                OutboxQuery.byIds(failed.stream().map(OutboxEvent::outboxEventId).toList())), "m.alvarez",
                "state portal back", false, null);
        return failed.size();
    }

    /** The Worker page's counts follow another workstation's re-queue, this console's own worker off. */
    @Test
    void theWorkerPagesCountsFollowRowsReQueuedOnAnotherWorkstation() {
        waitReady();
        fx(() -> window.mainModel().show(Page.WORKER));
        waitUntil("the worker page has its counts", () -> onFx(() -> window.workerModel().snapshotProperty().get())
                != null && onFx(() -> window.workerModel().snapshotProperty().get().failedTotal()) > 0);
        long failedBefore = onFx(() -> window.workerModel().snapshotProperty().get().failedTotal());
        int requeued = requeueTwoFailedRowsElsewhere();

        waitUntil("the worker page counts the re-queued rows", () -> onFx(() -> window.workerModel()
                .snapshotProperty().get().failedTotal()) == failedBefore - requeued);
    }

    @Test
    void aPauseMadeOnAnotherWorkstationShowsInTheStatusBar() {
        waitReady();
        try (AuditedWorker theirs = new AuditedWorker(new DeliveryWorker(otherWorkstation,
                new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable())), Workers.fast(),
                Clock.systemDefaultZone(), Deadlines.statutory()), otherWorkstation, Clock.systemDefaultZone(),
                "m.alvarez")) {
            theirs.pause("state maintenance tonight");

            waitUntil("the status bar names the pause", () -> window.mainModel().workerStateProperty().get()
                    .contains("paused by m.alvarez"));
            assertThat(services.worker().staffPause()).hasValueSatisfying(p ->
                    assertThat(p.reason()).isEqualTo("state maintenance tonight"));
        }
    }

    @Test
    void anEditOfAClaimChangedOnAnotherWorkstationKeepsWhatWasTypedAndNamesWhoChangedIt() {
        waitReady();
        Claim claim = firstClaim(ClaimStatus.READY_FOR_SUBMISSION);
        selectClaim(claim);
        robot.press(KeyCode.CONTROL, KeyCode.E).release(KeyCode.E, KeyCode.CONTROL);
        waitUntil("the edit form shows", () -> visible(robot.lookup("#editForm").query()));
        TextField holderId = robot.lookup("#edit-holderId").queryAs(TextField.class);
        robot.doubleClickOn(holderId).eraseText(claim.holderId().length() + 2).write("HLD-424242");

        otherWorkflow.editing().edit(claim.claimId(), claim.version(), Map.of("holderName", "Other Bank NA"),
                "m.alvarez", "holder merged");
        waitUntil("the live update reads the claim again", () ->
                window.claimsModel().detailProperty().get().claim().holderName().equals("Other Bank NA"));
        assertThat(holderId.getText()).as("what staff typed stays through the live update").isEqualTo("HLD-424242");

        robot.clickOn("#editReason").write("holder id from the state's registry");
        robot.press(KeyCode.CONTROL, KeyCode.S).release(KeyCode.S, KeyCode.CONTROL);

        Label conflict = robot.lookup("#conflictLabel").queryAs(Label.class);
        waitUntil("the conflict names who changed the claim", () -> visible(conflict)
                && conflict.getText().contains("was changed by m.alvarez at ")
                && conflict.getText().contains("nothing was saved"));
        assertThat(queries.claim(claim.claimId()).orElseThrow().holderId()).isEqualTo(claim.holderId());
    }

    @Test
    void anEmptyTeamDatabaseGetsNoDemoDataAndSaysHowClaimsComeIn() throws Exception {
        waitUntil("the console is ready", () -> window.mainModel().readyProperty().get());

        assertThat(window.mainModel().bannerProperty().get()).startsWith("This team database holds no claims yet")
                .contains("claimdesk migrate");
        assertThat(queries.countClaims(org.claimdesk.store.ClaimQuery.all())).isZero();
        snapshot("team-empty");
    }

    private int groupedShown() {
        return onFx(() -> window.outboxModel().groups().stream().mapToInt(FailureGroup::count).sum());
    }

    private int failedShown() {
        Map<DeliveryState, Integer> counts = window.outboxModel().stateCountsProperty().get();
        return counts == null ? 0 : counts.getOrDefault(DeliveryState.FAILED, 0);
    }
}
