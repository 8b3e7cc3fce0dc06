package org.claimdesk.ui.worker;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.claimdesk.delivery.WorkerControl;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.delivery.WorkerSnapshot;
import org.claimdesk.ui.common.Coalescer;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.common.TaskRunner;

/**
 * The worker page: the latest {@link WorkerSnapshot} as properties (applied on the UI thread, coalesced),
 * the drain's progress, the per-second history for the chart, the settings form and the commands.
 */
public final class WorkerViewModel {
    public static final int CHART_SECONDS = 300;

    private final WorkerControl worker;
    private final TaskRunner tasks;
    private final String actor;
    private final Coalescer<WorkerSnapshot> snapshots;
    private final Consumer<WorkerSnapshot> listener;
    private final RateHistory history = new RateHistory(CHART_SECONDS);

    private final ReadOnlyObjectWrapper<WorkerSnapshot> snapshot = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<WorkerSnapshot.RunState> runState =
            new ReadOnlyObjectWrapper<>(WorkerSnapshot.RunState.STOPPED);
    private final ReadOnlyStringWrapper stateText = new ReadOnlyStringWrapper("Stopped");
    private final ReadOnlyStringWrapper endpoint = new ReadOnlyStringWrapper("");
    private final ReadOnlyDoubleWrapper drainProgress = new ReadOnlyDoubleWrapper();
    private final ReadOnlyStringWrapper drainText = new ReadOnlyStringWrapper("No drain under way");
    private final ReadOnlyStringWrapper countersText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper rateText = new ReadOnlyStringWrapper("0.0 / s");
    private final ReadOnlyStringWrapper systemPause = new ReadOnlyStringWrapper();
    private final ReadOnlyStringWrapper lastError = new ReadOnlyStringWrapper();
    private final ReadOnlyBooleanWrapper canStart = new ReadOnlyBooleanWrapper(true);
    private final ReadOnlyBooleanWrapper canPause = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper canResume = new ReadOnlyBooleanWrapper();
    private final ObservableList<RateHistory.Point> rates = FXCollections.observableArrayList();
    private final ReadOnlyObjectWrapper<Notice> notice = new ReadOnlyObjectWrapper<>();

    private final IntegerProperty concurrency = new SimpleIntegerProperty();
    private final IntegerProperty maxAttempts = new SimpleIntegerProperty();
    private final IntegerProperty intervalMillis = new SimpleIntegerProperty();

    public WorkerViewModel(WorkerControl worker, TaskRunner tasks, String actor) {
        this.worker = worker;
        this.tasks = tasks;
        this.actor = actor;
        this.snapshots = new Coalescer<>(tasks.uiThread(), this::apply);
        this.listener = snapshots::offer;
        WorkerSettings s = worker.settings();
        showSettings(s);
    }

    /** Starts listening to the worker and shows its current snapshot. */
    public void attach() {
        worker.addListener(listener);
        snapshots.offer(worker.snapshot());
    }

    public void detach() {
        worker.removeListener(listener);
    }

    /**
     * The page came on screen. A worker counts its rows only while it runs, so one not started yet is
     * asked to count them once, for the page to show what waits for it.
     */
    public void shown() {
        WorkerSnapshot s = snapshot.get();
        if (s == null || s.runState() == WorkerSnapshot.RunState.STOPPED) {
            worker.refreshCounts();
        }
    }

    // ---- outputs ------------------------------------------------------------------------------------

    public ReadOnlyObjectProperty<WorkerSnapshot> snapshotProperty() {
        return snapshot.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<WorkerSnapshot.RunState> runStateProperty() {
        return runState.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty stateTextProperty() {
        return stateText.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty endpointProperty() {
        return endpoint.getReadOnlyProperty();
    }

    /** Done / total of the current drain, 0 when none is under way. */
    public ReadOnlyDoubleProperty drainProgressProperty() {
        return drainProgress.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty drainTextProperty() {
        return drainText.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty countersTextProperty() {
        return countersText.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty rateTextProperty() {
        return rateText.getReadOnlyProperty();
    }

    /** Why the worker paused itself, or null when it did not. */
    public ReadOnlyStringProperty systemPauseProperty() {
        return systemPause.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty lastErrorProperty() {
        return lastError.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty canStartProperty() {
        return canStart.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty canPauseProperty() {
        return canPause.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty canResumeProperty() {
        return canResume.getReadOnlyProperty();
    }

    /** Finished seconds, oldest first, at most {@link #CHART_SECONDS}. */
    public ObservableList<RateHistory.Point> rates() {
        return rates;
    }

    public ReadOnlyObjectProperty<Notice> noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    public IntegerProperty concurrencyProperty() {
        return concurrency;
    }

    public IntegerProperty maxAttemptsProperty() {
        return maxAttempts;
    }

    public IntegerProperty intervalMillisProperty() {
        return intervalMillis;
    }

    // ---- snapshot -----------------------------------------------------------------------------------

    /** Applies a snapshot; on the UI thread. */
    void apply(WorkerSnapshot s) {
        if (s == null) {
            return;
        }
        snapshot.set(s);
        runState.set(s.runState());
        endpoint.set(s.endpoint());
        stateText.set(switch (s.runState()) {
            case STOPPED -> "Stopped";
            case RUNNING -> s.inFlight() > 0 ? "Running · " + s.inFlight() + " in flight" : "Running";
            case PAUSED -> s.pausedBySystem() ? "Paused by the worker" : "Paused";
        });
        canStart.set(s.runState() == WorkerSnapshot.RunState.STOPPED);
        canPause.set(s.runState() == WorkerSnapshot.RunState.RUNNING);
        canResume.set(s.runState() == WorkerSnapshot.RunState.PAUSED);
        systemPause.set(s.runState() == WorkerSnapshot.RunState.PAUSED && s.pausedBySystem()
                ? (s.pauseReason() == null ? "no reason given" : s.pauseReason()) : null);
        if (s.drainTotal() > 0) {
            drainProgress.set(Math.min(1.0, (double) s.drainDone() / s.drainTotal()));
            drainText.set(Formats.count(s.drainDone()) + " / " + Formats.count(s.drainTotal()) + " delivered or settled");
        } else {
            drainProgress.set(0);
            drainText.set(s.due() <= 0 ? "No drain under way" : Formats.count(s.due()) + " due, " + switch (s.runState()) {
                case STOPPED -> "delivered once the worker is started";
                case PAUSED -> "waiting while the worker is paused";
                case RUNNING -> "waiting for the next tick";
            });
        }
        countersText.set("Sent " + Formats.count(s.sentThisRun()) + " · retried " + Formats.count(s.retriedThisRun())
                + " · failed " + Formats.count(s.failedThisRun()) + " · attempts " + Formats.count(s.attemptsThisRun())
                + " this run");
        rateText.set(String.format(java.util.Locale.US, "%.1f / s", s.eventsPerSecond()));
        lastError.set(s.lastError());
        List<RateHistory.Point> finished = history.add(s);
        if (!finished.isEmpty()) {
            rates.addAll(finished);
            int excess = rates.size() - CHART_SECONDS;
            if (excess > 0) {
                rates.remove(0, excess);
            }
        }
    }

    // ---- commands -----------------------------------------------------------------------------------

    public void start() {
        command("start the worker", worker::start, "Worker started");
    }

    public void pause() {
        command("pause the worker", () -> worker.pause("paused by " + actor), "Worker paused; deliveries under way finish");
    }

    public void resume() {
        command("resume the worker", worker::resume, "Worker resumed");
    }

    public void drainNow() {
        command("drain now", worker::drainNow, "Looking for due rows now");
    }

    private void command(String doing, Runnable action, String done) {
        tasks.submit(doing, p -> {
            action.run();
            return worker.snapshot();
        }, s -> {
            apply(s);
            notice.set(Notice.info(done));
        }, e -> notice.set(Notice.error(doing, e)));
    }

    /** Checks the form and hands the settings to the worker; a bad value is explained and nothing changes. */
    public void applySettings() {
        WorkerSettings updated;
        try {
            updated = worker.settings()
                    .withConcurrency(concurrency.get())
                    .withMaxAttempts(maxAttempts.get())
                    .withInterval(Duration.ofMillis(intervalMillis.get()));
        } catch (IllegalArgumentException e) {
            notice.set(Notice.error("change the worker settings", e));
            return;
        }
        WorkerSettings chosen = updated;
        tasks.submit("update worker settings", p -> {
            worker.updateSettings(chosen);
            return worker.settings();
        }, s -> {
            showSettings(s);
            notice.set(Notice.success("Settings applied from the next tick: concurrency " + s.concurrency()
                    + ", max attempts " + s.maxAttempts() + ", interval " + s.interval().toMillis() + " ms"));
        }, e -> notice.set(Notice.error("change the worker settings", e)));
    }

    public void resetSettingsForm() {
        showSettings(worker.settings());
    }

    private void showSettings(WorkerSettings s) {
        concurrency.set(s.concurrency());
        maxAttempts.set(s.maxAttempts());
        intervalMillis.set((int) Math.min(Integer.MAX_VALUE, s.interval().toMillis()));
    }
}
