package org.claimdesk.ui.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.claimdesk.delivery.WorkerSnapshot;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.testing.DirectTaskRunner;
import org.claimdesk.ui.testing.FakeWorker;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WorkerViewModelTest {
    FakeWorker worker;
    WorkerViewModel model;

    @BeforeEach
    void setUp() {
        worker = new FakeWorker();
        model = new WorkerViewModel(worker, new DirectTaskRunner(), "tester");
        model.attach();
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
        assertThat(worker.commands).contains("pause:paused by tester");
        assertThat(model.canResumeProperty().get()).isTrue();
        assertThat(model.systemPauseProperty().get()).as("paused by staff, not by the system").isNull();
        model.resume();
        model.drainNow();
        assertThat(worker.commands).endsWith("resume", "drainNow");
    }

    @Test
    void aPauseByTheWorkerItselfRaisesTheBannerWithItsReason() {
        worker.publish(worker.with(WorkerSnapshot.RunState.PAUSED, "the state refused our credentials (401)", true));
        assertThat(model.systemPauseProperty().get()).isEqualTo("the state refused our credentials (401)");
        assertThat(model.stateTextProperty().get()).isEqualTo("Paused by the worker");
        worker.resume();
        assertThat(model.systemPauseProperty().get()).isNull();
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
