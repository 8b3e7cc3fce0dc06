package org.claimdesk.app;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.claimdesk.delivery.WorkerControl;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.delivery.WorkerSnapshot;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.store.AuditStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;

/**
 * The delivery worker as staff drive it: every settings change is written to the audit trail with
 * who made it and the settings before and after. Call {@link #updateSettings} off the FX thread.
 */
public final class AuditedWorker implements WorkerControl {
    private final WorkerControl worker;
    private final Database database;
    private final Clock clock;
    private final String actor;

    public AuditedWorker(WorkerControl worker, Database database, Clock clock, String actor) {
        this.worker = worker instanceof AuditedWorker audited ? audited.worker : worker;
        this.database = database;
        this.clock = clock;
        this.actor = Inputs.actor(actor);
    }

    /** The same worker, its changes audited under another operator's name. */
    public AuditedWorker as(String otherActor) {
        return new AuditedWorker(worker, database, clock, otherActor);
    }

    @Override
    public void updateSettings(WorkerSettings next) {
        WorkerSettings before = worker.settings();
        worker.updateSettings(next);
        if (!before.equals(next)) {
            database.useTransaction(h -> new AuditStore().append(h, clock.instant(), actor, AuditActions.SETTINGS_CHANGE,
                    AuditActions.SUBJECT_SETTINGS, "worker", null,
                    Json.write(Map.of("before", describe(before), "after", describe(next)))));
        }
    }

    private static Map<String, Object> describe(WorkerSettings s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("intervalMs", s.interval().toMillis());
        m.put("concurrency", s.concurrency());
        m.put("maxAttempts", s.maxAttempts());
        m.put("backoffBaseMs", s.backoffBase().toMillis());
        m.put("backoffCapMs", s.backoffCap().toMillis());
        m.put("leaseMs", s.lease().toMillis());
        return m;
    }

    @Override
    public void start() {
        worker.start();
    }

    @Override
    public void pause(String reason) {
        worker.pause(reason);
    }

    @Override
    public void resume() {
        worker.resume();
    }

    @Override
    public void drainNow() {
        worker.drainNow();
    }

    @Override
    public void refreshCounts() {
        worker.refreshCounts();
    }

    @Override
    public WorkerSettings settings() {
        return worker.settings();
    }

    @Override
    public WorkerSnapshot snapshot() {
        return worker.snapshot();
    }

    @Override
    public void addListener(Consumer<WorkerSnapshot> listener) {
        worker.addListener(listener);
    }

    @Override
    public void removeListener(Consumer<WorkerSnapshot> listener) {
        worker.removeListener(listener);
    }

    @Override
    public void close() {
        worker.close();
    }
}
