package org.claimdesk.app;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.claimdesk.delivery.WorkerControl;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.delivery.WorkerSnapshot;
import org.claimdesk.delivery.WorkerSnapshot.RunState;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ConflictException;
import org.claimdesk.domain.WorkerPause;
import org.claimdesk.store.AuditStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.claimdesk.store.WorkerPauseStore;

/**
 * The delivery worker as staff drive it. Every settings change, pause and resumption is written to the
 * audit trail with who made it. A pause by staff is kept in the database ({@code worker_pause}) until
 * staff resume the worker: a console started on that database meanwhile comes up with its worker paused,
 * never started (so it delivers nothing), and shows the pause in every snapshot. Every method that writes
 * reads or writes the database: call them off the FX thread. Instances made by {@link #as} share the
 * worker and its pause.
 */
public final class AuditedWorker implements WorkerControl {
    /** How the worker came up with the console. */
    public enum Startup {
        /** Started: it delivers. */
        RUNNING,
        /** Paused by staff (here or on another console), and not started until resumed. */
        PAUSED,
        /** Not started: this workstation's setting leaves it to staff to start it. */
        OFF
    }

    /** What every {@link AuditedWorker} made from the same worker shares. */
    private static final class Shared {
        final WorkerControl worker;
        final Object lock = new Object();
        /** The pause by staff in force, or null. */
        volatile WorkerPause pause;
        /** Whether {@link #worker} was started; guarded by {@link #lock}. */
        boolean started;
        /**
         * Whether this console starts its worker when a pause it came up under is ended elsewhere: its
         * workstation's "start with the console" setting; guarded by {@link #lock}.
         */
        boolean startWhenResumedElsewhere;
        final Map<Consumer<WorkerSnapshot>, Consumer<WorkerSnapshot>> listeners = new ConcurrentHashMap<>();

        Shared(WorkerControl worker) {
            this.worker = worker;
        }
    }

    private final Shared shared;
    private final Database database;
    private final Clock clock;
    private final String actor;
    private final WorkerPauseStore pauses = new WorkerPauseStore();

    public AuditedWorker(WorkerControl worker, Database database, Clock clock, String actor) {
        this(worker instanceof AuditedWorker audited ? audited.shared : new Shared(worker), database, clock, actor);
    }

    private AuditedWorker(Shared shared, Database database, Clock clock, String actor) {
        this.shared = shared;
        this.database = database;
        this.clock = clock;
        this.actor = Inputs.actor(actor);
    }

    /** The same worker, its changes audited under another operator's name. */
    public AuditedWorker as(String otherActor) {
        return new AuditedWorker(shared, database, clock, otherActor);
    }

    // ---- start-up and the pause by staff --------------------------------------------------------------

    /**
     * What a console does with its worker once the database is ready: paused when staff paused it (the pause
     * is read from the database; the worker is not started), else started when {@code startWithConsole} and the
     * worker can deliver ({@link #refusal}), else left stopped.
     */
    public Startup startWithConsole(boolean startWithConsole) {
        boolean start = startWithConsole && refusal().isEmpty();
        Optional<WorkerPause> held;
        synchronized (shared.lock) {
            held = database.read(pauses::find);
            shared.startWhenResumedElsewhere = start;
            if (held.isPresent()) {
                shared.pause = held.get();
            } else if (start) {
                startWorker();
            }
        }
        shared.worker.refreshCounts();
        return held.isPresent() ? Startup.PAUSED : start ? Startup.RUNNING : Startup.OFF;
    }

    @Override
    public Optional<String> refusal() {
        return shared.worker.refusal();
    }

    /**
     * For a drain told to deliver although staff paused the worker: the pause held, which it overrides (the pause
     * stays for every other worker), audited with {@code actor} and {@code reason} in one transaction; empty when none
     * is held. A desk file whose claims were moved to a team database is refused: its rows are the team's to deliver.
     */
    public static Optional<WorkerPause> overridePause(Database database, Clock clock, String actor, String reason) {
        String who = Inputs.actor(actor);
        String why = Inputs.reason(reason, true);
        return database.inTransaction(h -> {
            Optional<WorkerPause> held = new WorkerPauseStore().findForChange(h);
            if (held.isPresent()) {
                if (marksMovedDesk(held.get())) {
                    throw movedDesk(held.get(), "deliver them from there; this desk's pause holds, --even-if-paused"
                            + " included");
                }
                Map<String, Object> details = new LinkedHashMap<>();
                details.put("overrides", describe(held.get()));
                new AuditStore().append(h, clock.instant(), who, AuditActions.WORKER_PAUSE_OVERRIDE,
                        AuditActions.SUBJECT_WORKER, AuditActions.WORKER_ID, why, Json.write(details));
            }
            return held;
        });
    }

    /**
     * Whether {@code pause} is the one a move into a team database leaves on the desk's file: its rows are the team's
     * to deliver, so neither a resume nor a drain told to go on ends it.
     */
    public static boolean marksMovedDesk(WorkerPause pause) {
        return pause.actor().equals(MoveIn.ACTOR);
    }

    /** The refusal of what would end or replace the move's pause {@code pause}; {@code then} says what holds. */
    private static ClaimDeskException movedDesk(WorkerPause pause, String then) {
        return new ClaimDeskException("this desk's claims were moved to a team database (" + pause.reason() + "): "
                + then);
    }

    /** This workstation holds {@code pause}, read from the database: its worker, if started, pauses for it. */
    private void holdFor(WorkerPause pause) {
        shared.pause = pause;
        if (shared.started) {
            shared.worker.pause(pause.reason());
        }
    }

    /** The pause by staff recorded in {@code database}, if any: what holds every worker on it. */
    public static Optional<WorkerPause> pauseIn(Database database) {
        WorkerPauseStore store = new WorkerPauseStore();
        return database.read(store::find);
    }

    /**
     * Follows a pause by staff made or ended on another workstation (read from the database, where it is kept):
     * a new pause stops this console's deliveries as a pause made here does (those under way finish); a pause
     * ended elsewhere lets a running worker deliver again, and starts a worker that came up paused when this
     * workstation starts its worker with the console. Writes nothing: the other workstation audited it.
     */
    public void followPause() {
        synchronized (shared.lock) {
            // read under the lock a pause or resume made here holds while it writes: read before it, a pause just made
            // here would be taken for one ended elsewhere (and an older read could undo a newer one)
            Optional<WorkerPause> held = database.read(pauses::find);
            WorkerPause known = shared.pause;
            if (held.isPresent() && !held.get().sameAs(known)) {
                holdFor(held.get());
            } else if (held.isEmpty() && known != null) {
                shared.pause = null;
                if (shared.started) {
                    shared.worker.resume();
                } else if (shared.startWhenResumedElsewhere) {
                    startWorker();
                }
            } else {
                return;
            }
        }
        // a worker that is not running publishes nothing new: its listeners learn of the pause from here
        WorkerSnapshot now = shared.worker.snapshot();
        shared.listeners.values().forEach(shown -> shown.accept(now));
        shared.worker.refreshCounts();
    }

    /** The pause by staff in force, if any; reads no database. */
    public Optional<WorkerPause> staffPause() {
        return Optional.ofNullable(shared.pause);
    }

    /**
     * Starts the worker by hand. Refused while staff have it paused (on this console or, as the database
     * says, on another): it is resumed instead; and refused by the worker, with the reason, when it cannot deliver.
     */
    @Override
    public void start() {
        synchronized (shared.lock) {
            Optional<WorkerPause> held = database.read(pauses::find);
            if (held.isPresent()) {
                shared.pause = held.get();
            }
            if (shared.pause != null) {
                WorkerPause p = shared.pause;
                throw new ClaimDeskException("the worker is paused by " + p.actor() + " (" + p.reason() + ")"
                        + (marksMovedDesk(p) ? ": work on the team database" : "; resume it to deliver"));
            }
            startWorker();
        }
    }

    private void startWorker() {
        shared.worker.start();
        shared.started = true;
    }

    /**
     * Pauses the worker until staff resume it, across restarts: the pause and its audit entry are written in
     * one transaction, then deliveries stop (those under way finish). A reason is required.
     */
    @Override
    public void pause(String reason) {
        String why = Inputs.reason(reason, true);
        WorkerPause pause = new WorkerPause(actor, clock.instant(), why);
        synchronized (shared.lock) {
            database.useTransaction(h -> {
                Optional<WorkerPause> before = pauses.findForChange(h);
                if (before.isPresent() && marksMovedDesk(before.get())) {
                    // replaced, the move's pause would become one a resume or a drain told to go on may end
                    throw movedDesk(before.get(), "its worker stays paused as it is");
                }
                pauses.put(h, pause);
                Map<String, Object> details = new LinkedHashMap<>();
                details.put("running", shared.started);
                before.ifPresent(b -> details.put("replaces", describe(b)));
                new AuditStore().append(h, pause.at(), actor, AuditActions.WORKER_PAUSE, AuditActions.SUBJECT_WORKER,
                        AuditActions.WORKER_ID, why, Json.write(details));
            });
            shared.pause = pause;
            if (shared.started) {
                shared.worker.pause(why);
            }
        }
        shared.worker.refreshCounts();
    }

    /** Resumes without a reason; see {@link #resume(String)}. */
    @Override
    public void resume() {
        resume(null);
    }

    /**
     * Ends a pause by staff (written to the database with its audit entry, in one transaction) or by the
     * worker itself, and delivers again: a worker that came up paused is started now, unless it cannot deliver
     * ({@link #refusal}; the pause still ends for every workstation). Does nothing when the worker is not paused.
     */
    public void resume(String reason) {
        String why = Inputs.reason(reason, false);
        synchronized (shared.lock) {
            WorkerSnapshot now = shared.worker.snapshot();
            String systemPause = now.runState() == RunState.PAUSED && now.pausedBySystem() ? now.pauseReason() : null;
            boolean resumed = database.inTransaction(h -> {
                Optional<WorkerPause> held = pauses.findForChange(h);
                if (held.isPresent() && marksMovedDesk(held.get())) {
                    holdFor(held.get());
                    throw movedDesk(held.get(), "its worker stays paused; work on the team database");
                }
                if (held.isPresent() && !held.get().sameAs(shared.pause)) {
                    // paused (again) elsewhere since this workstation read the pause: staff resume what they saw
                    WorkerPause other = held.get();
                    holdFor(other);
                    String again = "the worker was paused again by " + other.actor() + " at "
                            + Conflicts.localMinute(other.at());
                    throw new ConflictException(again + " (\"" + other.reason() + "\"); nothing was resumed: look at"
                            + " that pause and resume again", again + "; nothing was resumed");
                }
                if (held.isEmpty() && systemPause == null) {
                    // ended elsewhere already (its audit entry is there): followed here, nothing to write
                    return shared.pause != null;
                }
                pauses.clear(h);
                Map<String, Object> details = new LinkedHashMap<>();
                held.ifPresent(p -> details.put("ends", describe(p)));
                if (systemPause != null) {
                    details.put("pausedBySystem", systemPause);
                }
                new AuditStore().append(h, clock.instant(), actor, AuditActions.WORKER_RESUME,
                        AuditActions.SUBJECT_WORKER, AuditActions.WORKER_ID, why, Json.write(details));
                return true;
            });
            if (!resumed) {
                return;
            }
            shared.pause = null;
            if (shared.started) {
                shared.worker.resume();
            } else if (refusal().isEmpty()) {
                startWorker();
            }
        }
    }

    private static Map<String, Object> describe(WorkerPause p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pausedBy", p.actor());
        m.put("pausedAt", p.at().toString());
        m.put("reason", p.reason());
        return m;
    }

    /**
     * Writes a change of a workstation's "start the delivery worker with the console" setting to the audit
     * trail (the setting itself is kept with the console's other settings on that workstation).
     */
    public void recordStartWithConsole(boolean before, boolean after, String workstation) {
        if (before == after) {
            return;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("setting", "startWithConsole");
        details.put("workstation", workstation);
        details.put("before", before);
        details.put("after", after);
        database.useTransaction(h -> new AuditStore().append(h, clock.instant(), actor, AuditActions.SETTINGS_CHANGE,
                AuditActions.SUBJECT_SETTINGS, AuditActions.WORKER_ID,
                "start the delivery worker with the console " + (after ? "on" : "off") + " on " + workstation,
                Json.write(details)));
    }

    // ---- settings -------------------------------------------------------------------------------------

    /**
     * Applies {@code next} to this workstation's worker, audited first: settings the audit trail could not record are
     * not applied (they are this console's, kept nowhere else, so nothing is left to undo).
     */
    @Override
    public void updateSettings(WorkerSettings next) {
        WorkerSettings before = shared.worker.settings();
        if (!before.equals(next)) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("workstation", Operators.workstation());
            details.put("before", describe(before));
            details.put("after", describe(next));
            database.useTransaction(h -> new AuditStore().append(h, clock.instant(), actor, AuditActions.SETTINGS_CHANGE,
                    AuditActions.SUBJECT_SETTINGS, AuditActions.WORKER_ID, null, Json.write(details)));
        }
        shared.worker.updateSettings(next);
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

    // ---- the rest, with the pause by staff shown in every snapshot -----------------------------------

    @Override
    public void drainNow() {
        shared.worker.drainNow();
    }

    @Override
    public void refreshCounts() {
        shared.worker.refreshCounts();
    }

    @Override
    public WorkerSettings settings() {
        return shared.worker.settings();
    }

    @Override
    public WorkerSnapshot snapshot() {
        return withStaffPause(shared.worker.snapshot());
    }

    /**
     * {@code s} as staff see it: a worker held paused (not started, or paused by itself meanwhile) shows the
     * pause by staff. A pause by staff outlasts the worker's own: should the worker resume itself while
     * staff have it paused, it is paused again.
     */
    private WorkerSnapshot withStaffPause(WorkerSnapshot s) {
        WorkerPause p = shared.pause;
        if (p != null && s != null && s.runState() == RunState.RUNNING) {
            shared.worker.pause(p.reason());
        }
        return asStaffSee(s);
    }

    /**
     * {@code s} with the pause by staff in force now, whenever {@code s} was taken: a page applying a snapshot
     * read before a pause came into force (at start-up, or from another workstation) shows the pause all the
     * same. Reads no database and changes nothing.
     */
    public WorkerSnapshot asStaffSee(WorkerSnapshot s) {
        WorkerPause p = shared.pause;
        if (p == null || s == null) {
            return s;
        }
        return s.runState() == RunState.PAUSED && !s.pausedBySystem() ? s : s.withRunState(RunState.PAUSED, p.reason(), false);
    }

    @Override
    public void addListener(Consumer<WorkerSnapshot> listener) {
        Consumer<WorkerSnapshot> shown = s -> listener.accept(withStaffPause(s));
        if (shared.listeners.putIfAbsent(listener, shown) == null) {
            shared.worker.addListener(shown);
        }
    }

    @Override
    public void removeListener(Consumer<WorkerSnapshot> listener) {
        Consumer<WorkerSnapshot> shown = shared.listeners.remove(listener);
        if (shown != null) {
            shared.worker.removeListener(shown);
        }
    }

    @Override
    public void close() {
        shared.worker.close();
    }
}
