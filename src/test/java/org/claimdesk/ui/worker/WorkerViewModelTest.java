package org.claimdesk.ui.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.claimdesk.app.AuditedWorker;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.store.Database;
import org.claimdesk.ui.common.UiSettingsStore;
import org.claimdesk.ui.testing.TestDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.delivery.WorkerSnapshot;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.testing.DirectTaskRunner;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.testing.FakeWorker;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WorkerViewModelTest {
    @TempDir
    Path dir;

    Database db;
    FakeWorker worker;
    UiSettingsStore settings;
    AuditedWorker audited;
    WorkerViewModel model;

    @BeforeEach
    void setUp() {
        db = TestDatabases.demo(dir, 0);
        worker = new FakeWorker();
        settings = new UiSettingsStore(dir.resolve("settings"));
        audited = new AuditedWorker(worker, db, Clock.systemUTC(), "tester");
        model = new WorkerViewModel(audited, new DirectTaskRunner(),
                "tester", true, on -> settings.update(kept -> kept.startWorker = on));
        model.attach();
    }

    @AfterEach
    void tearDown() {
        db.close();
    }

    private List<AuditEntry> audit(String action) {
        return TestDatabases.queries(db).audit(AuditActions.WORKER_ID, null, action, 0, 0);
    }

    @Test
    void commandsReachTheWorkerAndButtonsFollowItsState() {
        assertThat(model.canStartProperty().get()).isTrue();
        assertThat(model.canPauseProperty().get()).isFalse();
        model.start();
        assertThat(worker.commands).containsExactly("start");
        assertThat(model.runStateProperty().get()).isEqualTo(WorkerSnapshot.RunState.RUNNING);
        assertThat(model.canStartProperty().get()).isFalse();
        assertThat(model.canPauseProperty().get()).isTrue();
        model.pause();
        assertThat(worker.commands).contains("pause:paused by tester on the Worker page");
        assertThat(model.canResumeProperty().get()).isTrue();
        assertThat(model.systemPauseProperty().get()).as("paused by staff, not by the system").isNull();
        model.resume();
        model.drainNow();
        assertThat(worker.commands).endsWith("resume", "drainNow");
    }

    @Test
    void aPauseByStaffIsAuditedWithItsReasonShownWithWhoAndWhenAndEndedByAnAuditedResume() {
        model.start();
        model.pause("the state's portal is down for maintenance until 18:00");

        assertThat(worker.commands).containsExactly("start", "pause:the state's portal is down for maintenance until 18:00",
                "refreshCounts");
        assertThat(model.stateTextProperty().get()).isEqualTo("Paused by tester");
        assertThat(model.staffPauseProperty().get()).startsWith("Paused by tester at ")
                .endsWith(": the state's portal is down for maintenance until 18:00");
        assertThat(model.systemPauseProperty().get()).isNull();
        assertThat(model.canResumeProperty().get()).isTrue();
        assertThat(model.canStartProperty().get()).isFalse();
        assertThat(audit(AuditActions.WORKER_PAUSE)).singleElement().satisfies(e -> {
            assertThat(e.actor()).isEqualTo("tester");
            assertThat(e.subjectType()).isEqualTo(AuditActions.SUBJECT_WORKER);
            assertThat(e.reason()).isEqualTo("the state's portal is down for maintenance until 18:00");
            assertThat(e.details()).contains("\"running\":true");
        });

        model.resume("portal back up");

        assertThat(worker.commands).endsWith("resume");
        assertThat(model.runStateProperty().get()).isEqualTo(WorkerSnapshot.RunState.RUNNING);
        assertThat(model.staffPauseProperty().get()).isNull();
        assertThat(audit(AuditActions.WORKER_RESUME)).singleElement().satisfies(e -> {
            assertThat(e.actor()).isEqualTo("tester");
            assertThat(e.reason()).isEqualTo("portal back up");
            assertThat(e.details()).contains("\"pausedBy\":\"tester\"")
                    .contains("\"reason\":\"the state's portal is down for maintenance until 18:00\"");
        });
        model.resume("again");
        assertThat(audit(AuditActions.WORKER_RESUME)).as("a worker that is not paused is not resumed").hasSize(1);
    }

    @Test
    void aPauseWithoutAReasonIsRefusedAndChangesNothing() {
        model.start();
        model.pause("  ");
        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.ERROR);
        assertThat(model.noticeProperty().get().text()).contains("a reason is required");
        assertThat(worker.commands).containsExactly("start");
        assertThat(model.runStateProperty().get()).isEqualTo(WorkerSnapshot.RunState.RUNNING);
        assertThat(audit(AuditActions.WORKER_PAUSE)).isEmpty();
    }

    @Test
    void startWithTheConsoleIsKeptOnThisWorkstationAndEveryChangeAudited() {
        assertThat(model.startWithConsoleProperty().get()).isTrue();
        model.setStartWithConsole(false);

        assertThat(model.startWithConsoleProperty().get()).isFalse();
        assertThat(settings.load().startWorker).isFalse();
        assertThat(model.noticeProperty().get().text()).contains("will not start with the console");
        List<AuditEntry> changes = audit(AuditActions.SETTINGS_CHANGE);
        assertThat(changes).singleElement().satisfies(e -> {
            assertThat(e.actor()).isEqualTo("tester");
            assertThat(e.subjectType()).isEqualTo(AuditActions.SUBJECT_SETTINGS);
            assertThat(e.reason()).startsWith("start the delivery worker with the console off on ");
            assertThat(e.details()).contains("\"setting\":\"startWithConsole\"").contains("\"before\":true")
                    .contains("\"after\":false").contains("\"workstation\":");
        });

        model.setStartWithConsole(false);
        assertThat(audit(AuditActions.SETTINGS_CHANGE)).as("no change, nothing written").hasSize(1);
        model.setStartWithConsole(true);
        assertThat(settings.load().startWorker).isTrue();
        assertThat(audit(AuditActions.SETTINGS_CHANGE)).hasSize(2).first()
                .satisfies(e -> assertThat(e.details()).contains("\"after\":true"));
    }

    @Test
    void aSecondClickWaitsForTheFirstChangeToBeKept() {
        org.claimdesk.ui.testing.QueuedTaskRunner queued = new org.claimdesk.ui.testing.QueuedTaskRunner();
        WorkerViewModel m = new WorkerViewModel(audited, queued, "tester", true,
                on -> settings.update(kept -> kept.startWorker = on));
        m.setStartWithConsole(false);
        assertThat(m.keepingStartProperty().get()).isTrue();
        m.setStartWithConsole(true);
        assertThat(queued.size()).as("the second change is not raced against the first").isEqualTo(1);
        assertThat(m.startWithConsoleProperty().get()).isFalse();
        queued.runAll();
        assertThat(m.keepingStartProperty().get()).isFalse();
        assertThat(settings.load().startWorker).isFalse();
        assertThat(audit(AuditActions.SETTINGS_CHANGE)).singleElement()
                .satisfies(e -> assertThat(e.details()).contains("\"after\":false"));
    }

    @Test
    void aSettingThatCannotBeKeptIsNotAuditedAndTheCheckBoxGoesBack() throws Exception {
        java.nio.file.Files.writeString(dir.resolve("settings"), "a file where the settings folder should be");
        model.setStartWithConsole(false);
        assertThat(model.startWithConsoleProperty().get()).isTrue();
        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.ERROR);
        assertThat(model.noticeProperty().get().text()).contains("cannot save the console settings");
        assertThat(audit(AuditActions.SETTINGS_CHANGE)).isEmpty();
    }

    @Test
    void aSnapshotReadBeforeAPauseCameIntoForceIsShownPausedWhenItIsAppliedAfter() {
        WorkerSnapshot readBefore = audited.snapshot();
        assertThat(readBefore.runState()).isEqualTo(WorkerSnapshot.RunState.STOPPED);
        new AuditedWorker(new FakeWorker(), db, Clock.systemUTC(), "r.okafor").pause("hold for the portal upgrade");
        assertThat(audited.startWithConsole(true)).as("the console comes up under the pause")
                .isEqualTo(AuditedWorker.Startup.PAUSED);

        model.apply(readBefore);

        assertThat(model.runStateProperty().get()).isEqualTo(WorkerSnapshot.RunState.PAUSED);
        assertThat(model.canResumeProperty().get()).isTrue();
        assertThat(model.canStartProperty().get()).as("a paused worker is resumed, not started").isFalse();
        assertThat(model.staffPauseProperty().get()).startsWith("Paused by r.okafor at ")
                .endsWith(": hold for the portal upgrade");
    }

    @Test
    void aPauseByTheWorkerItselfRaisesTheBannerWithItsReason() {
        worker.publish(worker.with(WorkerSnapshot.RunState.PAUSED, "the state refused our credentials (401)", true));
        assertThat(model.systemPauseProperty().get()).isEqualTo("the state refused our credentials (401)");
        assertThat(model.stateTextProperty().get()).isEqualTo("Paused by the worker");
        worker.resume();
        assertThat(model.systemPauseProperty().get()).isNull();
    }

    /** A command's snapshot read before a newer one the worker published, applied after it: the newer one stays. */
    @Test
    void aCommandsSnapshotOlderThanTheOneShownIsNotAppliedOverIt() {
        org.claimdesk.ui.testing.QueuedTaskRunner queued = new org.claimdesk.ui.testing.QueuedTaskRunner();
        WorkerViewModel m = new WorkerViewModel(audited, queued, "tester", true, on -> { });
        m.attach();
        WorkerSnapshot older = FakeWorker.running(Instant.parse("2026-11-30T10:00:00Z"), 0, 0, 240, 10);
        worker.publish(FakeWorker.running(Instant.parse("2026-11-30T10:00:05Z"), 0, 0, 300, 10));
        assertThat(m.countersTextProperty().get()).contains("Sent 300");

        m.drainNow();
        // the command reads its snapshot, then the worker publishes a newer one before the read is shown
        queued.run(0);
        assertThat(m.countersTextProperty().get()).contains("Sent 300");
        worker.answerWith(older);
        m.drainNow();
        org.claimdesk.ui.testing.QueuedTaskRunner.Held held = queued.holdResult(0);
        worker.publish(FakeWorker.running(Instant.parse("2026-11-30T10:00:06Z"), 0, 0, 310, 10));
        held.deliver();

        assertThat(m.countersTextProperty().get()).as("the newer counts stay").contains("Sent 310");
        assertThat(m.noticeProperty().get().text()).isEqualTo("Looking for due rows now");
        m.detach();
    }

    @Test
    void drainProgressIsDoneOverTotal() {
        worker.publish(FakeWorker.running(Instant.parse("2026-11-30T10:00:00Z"), 250, 1000, 240, 10));
        assertThat(model.drainProgressProperty().get()).isEqualTo(0.25);
        assertThat(model.drainTextProperty().get()).startsWith("250 / 1,000");
        assertThat(model.countersTextProperty().get()).contains("Sent 240").contains("failed 10");
        assertThat(model.rateTextProperty().get()).isEqualTo("12.5 / s");
        worker.publish(FakeWorker.running(Instant.parse("2026-11-30T10:00:01Z"), 0, 0, 240, 10));
        assertThat(model.drainProgressProperty().get()).isZero();
    }

    @Test
    void showingThePageAsksAWorkerNotStartedToCountItsRowsAndARunningOneNothing() {
        model.shown();
        assertThat(worker.commands).containsExactly("refreshCounts");
        model.start();
        model.shown();
        assertThat(worker.commands).containsExactly("refreshCounts", "start");
    }

    @Test
    void rowsDueWithNoDrainSayWhatTheyWaitFor() {
        worker.publish(FakeWorker.running(Instant.parse("2026-11-30T10:00:00Z"), 0, 0, 0, 0));
        assertThat(model.drainTextProperty().get()).isEqualTo("10 due, waiting for the next tick");
        worker.publish(worker.with(WorkerSnapshot.RunState.PAUSED, "paused by tester", false));
        assertThat(model.drainTextProperty().get()).isEqualTo("10 due, waiting while the worker is paused");
        worker.publish(worker.with(WorkerSnapshot.RunState.STOPPED, null, false));
        assertThat(model.drainTextProperty().get()).isEqualTo("10 due, delivered once the worker is started");
    }

    @Test
    void aHoldAskedByTheStateSaysUntilWhenAndWhyThenGoesAway() {
        Instant until = Instant.parse("2026-11-30T10:00:30Z");
        worker.publish(FakeWorker.held(Instant.parse("2026-11-30T10:00:00Z"),
                new WorkerSnapshot.Hold(until.minusSeconds(30), until,
                        "429 rate_limited: slow down (Retry-After 30 s)")));

        assertThat(model.stateTextProperty().get())
                .isEqualTo("Held until " + Formats.time(until) + " (the state asked ClaimDesk to slow down)");
        assertThat(model.drainTextProperty().get()).isEqualTo("10 due, to be sent after " + Formats.time(until));
        assertThat(model.canPauseProperty().get()).as("staff may still pause it").isTrue();
        assertThat(model.heldProperty().get()).as("Drain now has nothing to do").isTrue();
        assertThat(model.systemPauseProperty().get()).as("not a pause").isNull();

        WorkerSnapshot.Hold hold = new WorkerSnapshot.Hold(until.minusSeconds(30), until, "429 rate_limited: slow down");
        WorkerSnapshot draining = FakeWorker.running(Instant.parse("2026-11-30T10:00:01Z"), 250, 1000, 240, 10);
        worker.publish(new WorkerSnapshot(draining.at(), draining.runState(), null, false, draining.endpoint(),
                draining.pending(), draining.due(), 0, draining.drainDone(), draining.drainTotal(),
                draining.sentThisRun(), 0, draining.failedThisRun(), draining.attemptsThisRun(), draining.sentTotal(),
                draining.failedTotal(), 0.0, hold.reason(), hold));
        assertThat(model.drainTextProperty().get()).as("during a drain")
                .isEqualTo("250 / 1,000 delivered or settled; the rest waits until " + Formats.time(until));
        assertThat(model.drainProgressProperty().get()).isEqualTo(0.25);

        worker.publish(FakeWorker.running(Instant.parse("2026-11-30T10:00:31Z"), 0, 0, 0, 0));
        assertThat(model.stateTextProperty().get()).isEqualTo("Running · 2 in flight");
        assertThat(model.heldProperty().get()).isFalse();
        assertThat(model.drainTextProperty().get()).isEqualTo("10 due, waiting for the next tick");
    }

    @Test
    void theChartGetsOnePointPerFinishedSecond() {
        Instant t = Instant.ofEpochSecond(worker.snapshot().at().getEpochSecond() + 3);
        worker.publish(FakeWorker.running(t, 0, 100, 0, 0));
        worker.publish(FakeWorker.running(t.plusMillis(400), 10, 100, 9, 1));
        worker.publish(FakeWorker.running(t.plusMillis(900), 20, 100, 18, 2));
        assertThat(model.rates()).as("quiet seconds before t only").allSatisfy(p -> {
            assertThat(p.epochSecond()).isLessThan(t.getEpochSecond());
            assertThat(p.sent()).isZero();
        });
        worker.publish(FakeWorker.running(t.plusMillis(1100), 30, 100, 27, 3));
        assertThat(model.rates()).last().isEqualTo(new RateHistory.Point(t.getEpochSecond(), 18, 2));
    }

    @Test
    void settingsAreCheckedBeforeTheyReachTheWorker() {
        model.concurrencyProperty().set(0);
        model.applySettings();
        assertThat(worker.commands).doesNotContain("settings");
        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.ERROR);
        assertThat(model.noticeProperty().get().text()).contains("concurrency must be between 1 and 256");

        model.concurrencyProperty().set(4);
        model.maxAttemptsProperty().set(5);
        model.intervalMillisProperty().set(500);
        model.applySettings();
        assertThat(worker.settings().concurrency()).isEqualTo(4);
        assertThat(worker.settings().maxAttempts()).isEqualTo(5);
        assertThat(worker.settings().interval().toMillis()).isEqualTo(500);
        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.SUCCESS);
    }

    @Test
    void detachStopsListening() {
        assertThat(worker.listenerCount()).isEqualTo(1);
        model.detach();
        assertThat(worker.listenerCount()).isZero();
    }
}
