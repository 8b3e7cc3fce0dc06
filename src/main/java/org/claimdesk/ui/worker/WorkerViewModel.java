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
import org.claimdesk.app.AuditedWorker;
import org.claimdesk.app.Operators;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.delivery.WorkerSnapshot;
import org.claimdesk.ui.common.Coalescer;
import org.claimdesk.ui.common.Formats;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.common.TaskRunner;

/**
 * The worker page: the latest {@link WorkerSnapshot} as properties (applied on the UI thread, coalesced),
 * the drain's progress, the per-second history for the chart, the settings form, this workstation's
 * "start with the console" setting and the commands (pause and resume with a reason, audited and kept
 * across restarts).
 */
public final class WorkerViewModel {
    public static final int CHART_SECONDS = 300;

    private final AuditedWorker worker;
    private final TaskRunner tasks;
    private final String actor;
    private final Consumer<Boolean> keepStartWithConsole;
    private final Coalescer<WorkerSnapshot> snapshots;
    private final Consumer<WorkerSnapshot> listener;
    /** Snapshots the worker has published to this page: a command's read is older than one published after it. */
    private final java.util.concurrent.atomic.AtomicLong publications = new java.util.concurrent.atomic.AtomicLong();
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
    private final ReadOnlyStringWrapper staffPause = new ReadOnlyStringWrapper();
    private final ReadOnlyBooleanWrapper startWithConsole = new ReadOnlyBooleanWrapper();
    /** A change of {@link #startWithConsole} being kept and audited: the next waits for it (they would race). */
    private final ReadOnlyBooleanWrapper keepingStart = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper lastError = new ReadOnlyStringWrapper();
    private final ReadOnlyBooleanWrapper canStart = new ReadOnlyBooleanWrapper(true);
    private final ReadOnlyBooleanWrapper canPause = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper canResume = new ReadOnlyBooleanWrapper();
    /** Running, but held by the state's request to slow down (a 429): nothing is sent, Drain now does nothing. */
    private final ReadOnlyBooleanWrapper held = new ReadOnlyBooleanWrapper();
    private final ObservableList<RateHistory.Point> rates = FXCollections.observableArrayList();
    private final ReadOnlyObjectWrapper<Notice> notice = new ReadOnlyObjectWrapper<>();

    private final IntegerProperty concurrency = new SimpleIntegerProperty();
    private final IntegerProperty maxAttempts = new SimpleIntegerProperty();
    private final IntegerProperty intervalMillis = new SimpleIntegerProperty();

    /**
     * @param startWithConsole this workstation's setting as the console started with it
     * @param keepStartWithConsole keeps a new value of that setting on this workstation; called off the UI
     *     thread
     */
    public WorkerViewModel(AuditedWorker worker, TaskRunner tasks, String actor, boolean startWithConsole,
            Consumer<Boolean> keepStartWithConsole) {
        this.worker = worker;
        this.tasks = tasks;
        this.actor = actor;
        this.keepStartWithConsole = keepStartWithConsole;
        this.startWithConsole.set(startWithConsole);
        this.snapshots = new Coalescer<>(tasks.uiThread(), this::apply);
        this.listener = published -> {
            publications.incrementAndGet();
            snapshots.offer(published);
        };
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
     * The page came on screen. A worker counts its rows only while it runs, so one not started yet (or held
     * paused since the console started) is asked to count them once, for the page to show what waits for it.
     */
    public void shown() {
        WorkerSnapshot s = snapshot.get();
        if (s == null || s.runState() != WorkerSnapshot.RunState.RUNNING) {
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

    /** "Paused by NAME at TIME: reason" while staff have the worker paused; null otherwise. */
    public ReadOnlyStringProperty staffPauseProperty() {
        return staffPause.getReadOnlyProperty();
    }

    /** This workstation's setting: start the delivery worker with the console. */
    public ReadOnlyBooleanProperty startWithConsoleProperty() {
        return startWithConsole.getReadOnlyProperty();
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

    public ReadOnlyBooleanProperty heldProperty() {
        return held.getReadOnlyProperty();
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

    /**
     * Applies a snapshot; on the UI thread. The pause by staff is the one in force now: a snapshot read just
     * before a pause came into force but applied after it shows the pause.
     */
    void apply(WorkerSnapshot taken) {
        if (taken == null) {
            return;
        }
        WorkerSnapshot s = worker.asStaffSee(taken);
        snapshot.set(s);
        runState.set(s.runState());
        endpoint.set(s.endpoint());
        boolean canDeliver = worker.refusal().isEmpty();
        String heldUntil = s.runState() == WorkerSnapshot.RunState.RUNNING && s.hold() != null
                ? Formats.time(s.hold().until()) : null;
        stateText.set(switch (s.runState()) {
            case STOPPED -> canDeliver ? "Stopped" : "Off: no state API set on this workstation";
            case RUNNING -> heldUntil != null ? "Held until " + heldUntil + " (the state asked ClaimDesk to slow down)"
                    : s.inFlight() > 0 ? "Running · " + s.inFlight() + " in flight" : "Running";
            case PAUSED -> s.pausedBySystem() ? "Paused by the worker"
                    : worker.staffPause().map(p -> "Paused by " + p.actor()).orElse("Paused");
        });
        canStart.set(s.runState() == WorkerSnapshot.RunState.STOPPED && canDeliver);
        canPause.set(s.runState() == WorkerSnapshot.RunState.RUNNING);
        canResume.set(s.runState() == WorkerSnapshot.RunState.PAUSED);
        held.set(heldUntil != null);
        systemPause.set(s.runState() == WorkerSnapshot.RunState.PAUSED && s.pausedBySystem()
                ? (s.pauseReason() == null ? "no reason given" : s.pauseReason()) : null);
        staffPause.set(s.runState() == WorkerSnapshot.RunState.PAUSED && !s.pausedBySystem()
                ? worker.staffPause().map(p -> "Paused by " + p.actor() + " at " + Formats.time(p.at()) + ": "
                        + p.reason()).orElse(null)
                : null);
        if (s.drainTotal() > 0) {
            drainProgress.set(Math.min(1.0, (double) s.drainDone() / s.drainTotal()));
            drainText.set(Formats.count(s.drainDone()) + " / " + Formats.count(s.drainTotal()) + " delivered or settled"
                    + (heldUntil == null ? "" : "; the rest waits until " + heldUntil));
        } else {
            drainProgress.set(0);
            drainText.set(s.due() <= 0 ? "No drain under way" : Formats.count(s.due()) + " due, " + switch (s.runState()) {
                case STOPPED -> "delivered once the worker is started";
                case PAUSED -> "waiting while the worker is paused";
                case RUNNING -> heldUntil != null ? "to be sent after " + heldUntil : "waiting for the next tick";
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

    /** Pauses with a reason saying only who paused it; staff on the page give theirs ({@link #pause(String)}). */
    public void pause() {
        pause("paused by " + actor + " on the Worker page");
    }

    /**
     * Pauses the worker until staff resume it, on this console and every console started on this database
     * meanwhile; audited with {@code reason}, which is required.
     */
    public void pause(String reason) {
        command("pause the worker", () -> worker.pause(reason),
                "Worker paused; deliveries under way finish. It stays paused, across restarts, until resumed");
    }

    public void resume() {
        resume(null);
    }

    /** Resumes, audited with {@code reason} (optional). */
    public void resume(String reason) {
        command("resume the worker", () -> worker.resume(reason), "Worker resumed");
    }

    /**
     * Changes whether the worker starts with the console on this workstation: kept with the console's
     * settings and audited. Takes effect at the next start.
     */
    public void setStartWithConsole(boolean on) {
        boolean before = startWithConsole.get();
        if (before == on || keepingStart.get()) {
            return;
        }
        keepingStart.set(true);
        startWithConsole.set(on);
        tasks.submit("change when the worker starts", p -> {
            keepStartWithConsole.accept(on);
            try {
                worker.recordStartWithConsole(before, on, Operators.workstation());
            } catch (RuntimeException e) {
                keepStartWithConsole.accept(before);
                throw e;
            }
            return on;
        }, kept -> {
            keepingStart.set(false);
            notice.set(Notice.success(kept
                    ? "The worker will start with the console on this workstation (unless it is paused)"
                    : "The worker will not start with the console on this workstation; Start it here when needed"));
        }, e -> {
                    keepingStart.set(false);
                    startWithConsole.set(before);
                    notice.set(Notice.error("change when the worker starts", e));
                });
    }

    /** Whether a change of "start with the console" is still being kept; the check box waits for it. */
    public ReadOnlyBooleanProperty keepingStartProperty() {
        return keepingStart.getReadOnlyProperty();
    }

    public void drainNow() {
        command("drain now", worker::drainNow, "Looking for due rows now");
    }

    private void command(String doing, Runnable action, String done) {
        tasks.submit(doing, p -> {
            action.run();
            return new Read(publications.get(), worker.snapshot());
        }, read -> {
            // a snapshot the worker published after this read is newer (its counts too): the read would put older
            // counts back over it, which the rate chart takes for a restart
            if (read.publishedBefore() == publications.get()) {
                apply(read.snapshot());
            }
            notice.set(Notice.info(done));
        }, e -> notice.set(Notice.error(doing, e)));
    }

    /** A command's read of the worker's snapshot, and how many the worker had published to this page before it. */
    private record Read(long publishedBefore, WorkerSnapshot snapshot) {
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
