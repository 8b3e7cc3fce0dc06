package org.claimdesk.ui.testing;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.claimdesk.delivery.WorkerControl;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.delivery.WorkerSnapshot;

/** A worker the test drives by hand: it records commands and publishes the snapshots the test gives it. */
public final class FakeWorker implements WorkerControl {
    public final List<String> commands = new CopyOnWriteArrayList<>();
    private final List<Consumer<WorkerSnapshot>> listeners = new CopyOnWriteArrayList<>();
    private volatile WorkerSettings settings = WorkerSettings.defaults();
    private volatile WorkerSnapshot snapshot = WorkerSnapshot.stopped("simulated state");

    @Override
    public void start() {
        commands.add("start");
        publish(with(WorkerSnapshot.RunState.RUNNING, null, false));
    }

    @Override
    public void pause(String reason) {
        commands.add("pause:" + reason);
        publish(with(WorkerSnapshot.RunState.PAUSED, reason, false));
    }

    @Override
    public void resume() {
        commands.add("resume");
        publish(with(WorkerSnapshot.RunState.RUNNING, null, false));
    }

    @Override
    public void drainNow() {
        commands.add("drainNow");
    }

    @Override
    public void refreshCounts() {
        commands.add("refreshCounts");
    }

    @Override
    public WorkerSettings settings() {
        return settings;
    }

    @Override
    public void updateSettings(WorkerSettings next) {
        commands.add("settings");
        settings = next;
    }

    @Override
    public WorkerSnapshot snapshot() {
        return snapshot;
    }

    @Override
    public void addListener(Consumer<WorkerSnapshot> listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(Consumer<WorkerSnapshot> listener) {
        listeners.remove(listener);
    }

    public int listenerCount() {
        return listeners.size();
    }

    /** What {@link #snapshot()} answers from now on, told to no listener: a read that raced a newer publication. */
    public void answerWith(WorkerSnapshot s) {
        snapshot = s;
    }

    public void publish(WorkerSnapshot s) {
        snapshot = s;
        listeners.forEach(l -> l.accept(s));
    }

    public WorkerSnapshot with(WorkerSnapshot.RunState state, String reason, boolean bySystem) {
        WorkerSnapshot s = snapshot;
        return new WorkerSnapshot(Instant.now(), state, reason, bySystem, s.endpoint(), s.pending(), s.due(), s.inFlight(),
                s.drainDone(), s.drainTotal(), s.sentThisRun(), s.retriedThisRun(), s.failedThisRun(),
                s.attemptsThisRun(), s.sentTotal(), s.failedTotal(), s.eventsPerSecond(), s.lastError(), s.hold());
    }

    /** A running snapshot at {@code at} with the given counters. */
    public static WorkerSnapshot running(Instant at, long drainDone, long drainTotal, long sent, long failed) {
        return new WorkerSnapshot(at, WorkerSnapshot.RunState.RUNNING, null, false, "simulated state", 100 - sent, 10,
                2, drainDone, drainTotal, sent, 0, failed, sent + failed, 1000 + sent, 50 + failed, 12.5, null, null);
    }

    /** A running snapshot at {@code at}, 10 rows due, the state's {@code hold} in force. */
    public static WorkerSnapshot held(Instant at, WorkerSnapshot.Hold hold) {
        return new WorkerSnapshot(at, WorkerSnapshot.RunState.RUNNING, null, false, "https://state.example", 100, 10,
                0, 0, 0, 0, 0, 0, 1, 1000, 50, 0.0, null, hold);
    }

    @Override
    public void close() {
        commands.add("close");
    }
}
