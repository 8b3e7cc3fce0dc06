package org.claimdesk.delivery;

import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import org.claimdesk.delivery.WorkerSnapshot.RunState;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.Database;
import org.claimdesk.store.DeliveryRecord;
import org.claimdesk.store.DeliveryStore;
import org.claimdesk.store.LeasedRow;
import org.claimdesk.store.WalCheckpointer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers due outbox rows to the state, at least once, under each row's idempotency key.
 *
 * <p>Threads (all daemon, all named {@code claimdesk-delivery-*}):
 * <ul>
 *   <li>control: ticks every {@link WorkerSettings#interval()}, leases due rows in short write
 *       transactions and hands their ids to the loader; probes the state while paused by the system;</li>
 *   <li>loader: reads the rows just leased (after the lease's commit, on a pooled connection) and
 *       queues them for the senders, so that the one writer copies no payloads;</li>
 *   <li>senders: at most {@link WorkerSettings#concurrency()} calls to the state at once, each outside
 *       every database transaction; {@link OutcomePolicy} turns each answer into the row's outcome;</li>
 *   <li>committer: writes the outcomes of every delivery finished meanwhile in one transaction
 *       ({@link OutcomeQueue} gathers them), and leases the next rows in the same transaction while there
 *       is room in the {@link LeaseWindow}. A row's lease is released only by the commit that records its
 *       outcome, so a crash at any moment leaves the row leased until its lease expires, and then another
 *       worker delivers it again (the state answers a replayed key with 200 and the same case id);</li>
 *   <li>publisher: a {@link WorkerSnapshot} to listeners at most every 100 ms ({@link SnapshotPublisher},
 *       from the {@link WorkerCounters});</li>
 *   <li>checkpoint: copies the write-ahead log into the database file every 50 ms, so that the
 *       committer does not stop to do it (see {@link WalCheckpointer}).</li>
 * </ul>
 */
public final class DeliveryWorker implements WorkerControl {
    private static final Logger LOG = LoggerFactory.getLogger(DeliveryWorker.class);

    /** Consecutive calls that could not connect before the worker pauses itself. */
    static final int UNREACHABLE_LIMIT = 3;
    /** A call starts only if the row's lease outlives its longest possible end by this much. */
    static final Duration LEASE_MARGIN = Duration.ofMillis(100);
    static final long PUBLISH_EVERY_MS = SnapshotPublisher.EVERY_MS;
    /**
     * Tries of a batch of outcomes made in its first second, 100 ms apart and more. A failure that can pass with time
     * ({@link Database#mayPass}: a team database's server restarting, a file locked past its busy timeout) is tried
     * again after them, a second apart, for as long as a lease (the worker's setting) from the first try, but not
     * once the worker is closing; any other failure ends with the five.
     */
    private static final int COMMIT_TRIES = 5;
    private static final long COMMIT_RETRY_MS = 1_000;

    private final Database database;
    private final StateAdapter state;
    private final Clock clock;
    private final String workerId;
    private final DeliveryStore store = new DeliveryStore();
    private final OutcomePolicy policy;
    private final LeaseWindow window = new LeaseWindow();
    private final OutcomeQueue outcomes = new OutcomeQueue();
    private final WorkerCounters counters = new WorkerCounters();
    private final SnapshotPublisher publisher;
    private final WriterConnection writer;

    private volatile WorkerSettings settings;
    private final ScheduledExecutorService control;
    private final ScheduledExecutorService publishing;
    private final ExecutorService loader;
    private final ThreadPoolExecutor senders;
    private final Thread committer;

    /**
     * Rows a failed write transaction leased, perhaps leased still (its commit may have gone through with its
     * answer lost), each with the end of that lease on the monotonic clock; the next lease takes back those this
     * worker holds. Changed only within the writer's transactions and their failure, under its lock.
     */
    private final Map<Long, Long> unconfirmed = new ConcurrentHashMap<>();
    /** Rows leased and not yet released by a commit. */
    private final AtomicInteger outstanding = new AtomicInteger();
    private final AtomicBoolean fillRequested = new AtomicBoolean();
    private final AtomicInteger consecutiveUnreachable = new AtomicInteger();
    /**
     * Holds begun since the state last answered a call otherwise than 429 (a call started after the last hold): the
     * wait grows with them, and while there are any one row at a time is leased and sent.
     */
    private final AtomicInteger throttleRun = new AtomicInteger();
    private volatile boolean filling;
    private volatile boolean closing;
    private volatile boolean committerStop;

    private final Object lock = new Object();
    private RunState runState = RunState.STOPPED;
    private String pauseReason;
    private boolean pausedBySystem;
    /** Whether a lookup answered can end this system pause: not after a refusal only a submission shows. */
    private boolean probeMayResume;
    /** While the state has asked to slow down: nothing is sent before {@link #holdEndNanos}; null otherwise. */
    private WorkerSnapshot.Hold hold;
    /** The end of {@link #hold} on the monotonic clock ({@link System#nanoTime()}). */
    private long holdEndNanos;
    private boolean started;
    private boolean closed;
    private ScheduledFuture<?> ticks;
    /** Checkpoints the log while the worker runs, off the committer's thread; guarded by {@link #lock}. */
    private WalCheckpointer checkpointer;

    public DeliveryWorker(Database database, StateAdapter state, WorkerSettings settings, Clock clock,
            Deadlines deadlines) {
        this(database, state, settings, clock, deadlines, newWorkerId(),
                () -> ThreadLocalRandom.current().nextDouble());
    }

    /**
     * @param workerId the lease owner name written to rows and attempts
     * @param random uniform draws in [0, 1) for the backoff jitter
     */
    public DeliveryWorker(Database database, StateAdapter state, WorkerSettings settings, Clock clock,
            Deadlines deadlines, String workerId, DoubleSupplier random) {
        this.database = Objects.requireNonNull(database, "database");
        this.state = Objects.requireNonNull(state, "state");
        this.settings = checkLease(Objects.requireNonNull(settings, "settings"), state);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.workerId = Objects.requireNonNull(workerId, "workerId");
        this.policy = new OutcomePolicy(() -> this.settings, Objects.requireNonNull(deadlines, "deadlines"),
                clock.getZone(), Objects.requireNonNull(random, "random"));
        this.publisher = new SnapshotPublisher(workerId, SnapshotPublisher.RowCounts.of(database, store, clock),
                this::snapshot, () -> System.nanoTime() / 1_000_000,
                e -> counters.error("cannot read the outbox's counts: " + database.failureOf(e)));
        this.writer = new WriterConnection(database, store, workerId);
        ScheduledThreadPoolExecutor controlThread =
                new ScheduledThreadPoolExecutor(1, new NamedThreads("claimdesk-delivery-control"));
        // a fill planned for the end of the state's hold has nothing left to do once the worker closes
        controlThread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.control = controlThread;
        this.publishing = Executors.newSingleThreadScheduledExecutor(new NamedThreads("claimdesk-delivery-publisher"));
        this.loader = Executors.newSingleThreadExecutor(new NamedThreads("claimdesk-delivery-loader"));
        this.senders = new ThreadPoolExecutor(settings.concurrency(), settings.concurrency(), 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), new NamedThreads("claimdesk-delivery-sender"));
        this.senders.allowCoreThreadTimeOut(true);
        this.committer = new NamedThreads("claimdesk-delivery-commit").newThread(this::commitLoop);
        control.execute(this::prepare);
    }

    /**
     * Reads a sample payload and answer through the delivery path once, on the control thread: the first
     * delivery would otherwise load its classes and build its JSON readers on every sender at once, all
     * competing for the processor with whatever the operator is doing when the drain starts.
     */
    private void prepare() {
        try {
            PayloadCheck.prepare();
            state.prepare();
        } catch (RuntimeException e) {
            LOG.debug("delivery worker {}: preparing the delivery path failed; the first delivery does it", workerId, e);
        }
    }

    /**
     * A row is sent only while its lease outlives the call, so that no other worker can take it over
     * mid-call; a lease shorter than the longest call could therefore never send anything.
     */
    private static WorkerSettings checkLease(WorkerSettings settings, StateAdapter state) {
        Duration longest = state.maxCallDuration().plus(LEASE_MARGIN);
        if (settings.lease().compareTo(longest) <= 0) {
            throw new IllegalArgumentException("the lease of " + settings.lease().toMillis() + " ms must be longer than"
                    + " the longest call to the state (" + state.maxCallDuration().toMillis()
                    + " ms with its timeouts); lengthen the lease or shorten the timeouts");
        }
        return settings;
    }

    /**
     * A lease owner name unique to this process and worker: "worker-", the JVM's own name for itself
     * ("pid@host", any character other than letters, digits, '.', '@' and '-' dropped), "-" and five
     * random hex digits, e.g. "worker-4242@office-pc-3fa9c".
     */
    public static String newWorkerId() {
        String runtime = ManagementFactory.getRuntimeMXBean().getName();
        return "worker-" + runtime.replaceAll("[^A-Za-z0-9.@-]", "") + "-"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000, 0x100000)).toLowerCase(Locale.ROOT);
    }

    public String workerId() {
        return workerId;
    }

    // ---- WorkerControl ----------------------------------------------------------------------------

    @Override
    public void start() {
        state.refusal().ifPresent(reason -> {
            throw new ClaimDeskException(reason);
        });
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("this delivery worker was closed; make a new one");
            }
            if (started) {
                return;
            }
            started = true;
            runState = RunState.RUNNING;
            // a file's write-ahead log is checkpointed aside; a server keeps its own
            checkpointer = database.onServer() ? null : WalCheckpointer.start(database,
                    WalCheckpointer.DEFAULT_PERIOD, "claimdesk-delivery-checkpoint");
            committer.start();
            scheduleTicks(settings.interval());
            publishing.scheduleWithFixedDelay(publisher::tick, 0, PUBLISH_EVERY_MS, TimeUnit.MILLISECONDS);
        }
        LOG.info("delivery worker {} started against {}", workerId, state.endpoint());
    }

    private void scheduleTicks(Duration interval) {
        if (ticks != null) {
            ticks.cancel(false);
        }
        ticks = control.scheduleWithFixedDelay(this::tick, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void pause(String reason) {
        synchronized (lock) {
            if (closed || !started) {
                return;
            }
            runState = RunState.PAUSED;
            pausedBySystem = false;
            pauseReason = reason == null || reason.isBlank() ? "paused by staff" : reason.strip();
        }
        LOG.info("delivery worker {} paused: {}", workerId, reason);
    }

    @Override
    public void resume() {
        synchronized (lock) {
            if (closed || !started || runState != RunState.PAUSED) {
                return;
            }
            runState = RunState.RUNNING;
            pausedBySystem = false;
            pauseReason = null;
            consecutiveUnreachable.set(0);
        }
        LOG.info("delivery worker {} resumed", workerId);
        requestFill();
    }

    /**
     * Reads the row counts now, on the publisher thread, and publishes them. A worker counts its rows
     * only while it runs; the console asks this of a worker not started yet when staff open its page.
     */
    @Override
    public void refreshCounts() {
        try {
            publishing.execute(publisher::refresh);
        } catch (RejectedExecutionException closing) {
            LOG.debug("delivery worker {}: counts not refreshed, the worker is closed", workerId);
        }
    }

    @Override
    public Optional<String> refusal() {
        return state.refusal();
    }

    @Override
    public void drainNow() {
        synchronized (lock) {
            if (closed || !started) {
                return;
            }
            if (pausedBySystem) {
                control.execute(this::tick);
                return;
            }
        }
        requestFill();
    }

    @Override
    public WorkerSettings settings() {
        return settings;
    }

    @Override
    public void updateSettings(WorkerSettings next) {
        checkLease(Objects.requireNonNull(next, "settings"), state);
        WorkerSettings previous;
        synchronized (lock) {
            previous = settings;
            settings = next;
            if (next.concurrency() > senders.getMaximumPoolSize()) {
                senders.setMaximumPoolSize(next.concurrency());
                senders.setCorePoolSize(next.concurrency());
            } else {
                senders.setCorePoolSize(next.concurrency());
                senders.setMaximumPoolSize(next.concurrency());
            }
            if (started && !closed && !next.interval().equals(previous.interval())) {
                scheduleTicks(next.interval());
            }
        }
        LOG.info("delivery worker {} settings changed to {}", workerId, next);
    }

    @Override
    public WorkerSnapshot snapshot() {
        RunState rs;
        String reason;
        boolean bySystem;
        WorkerSnapshot.Hold held;
        synchronized (lock) {
            rs = runState;
            reason = pauseReason;
            bySystem = pausedBySystem;
            held = heldNow() ? hold : null;
        }
        DeliveryStore.Counts c = publisher.counts();
        WorkerCounters n = counters;
        return new WorkerSnapshot(clock.instant(), rs, reason, bySystem, state.endpoint(), c.pending(), c.due(),
                n.inFlight(), n.drainDone(), n.drainTotal(), n.sent(), n.retried(), n.failed(), n.attempts(),
                publisher.sentTotal(), c.failed(), n.perSecond(System.nanoTime()), n.lastError(), held);
    }

    @Override
    public void addListener(Consumer<WorkerSnapshot> listener) {
        publisher.addListener(listener);
    }

    @Override
    public void removeListener(Consumer<WorkerSnapshot> listener) {
        publisher.removeListener(listener);
    }

    /**
     * True while rows are leased to this worker, may be (a failed lease's, until taken back) or a lease is being
     * taken: nothing this worker holds is left to finish when it returns false.
     */
    public boolean busy() {
        return filling || outstanding.get() > 0 || fillRequested.get() || !unconfirmed.isEmpty();
    }

    /**
     * Counts every lease taken and every batch of outcomes recorded: a caller that saw the same value
     * before and after looking at the database knows the worker did nothing meanwhile.
     */
    public long activity() {
        return counters.activity();
    }

    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            closing = true;
            runState = RunState.STOPPED;
            pauseReason = null;
            pausedBySystem = false;
            hold = null;
            if (ticks != null) {
                ticks.cancel(false);
            }
        }
        long waitMs = state.maxCallDuration().toMillis() + 2_000;
        control.shutdown();
        awaitQuietly(control, waitMs);
        loader.shutdown();
        awaitQuietly(loader, waitMs);
        senders.shutdown();
        if (!awaitQuietly(senders, waitMs)) {
            LOG.warn("delivery worker {}: calls to the state still running at shutdown were interrupted", workerId);
            senders.shutdownNow();
            awaitQuietly(senders, 2_000);
        }
        committerStop = true;
        committer.interrupt(); // it waits up to 20 ms for outcomes, and no sender will bring any more
        if (committer.isAlive()) {
            try {
                committer.join(waitMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        writer.close();
        WalCheckpointer stopping;
        synchronized (lock) {
            stopping = checkpointer;
            checkpointer = null;
        }
        if (stopping != null) {
            stopping.close();
        }
        try {
            int released = database.inTransaction(h -> store.releaseAll(h, workerId));
            if (released > 0) {
                LOG.info("delivery worker {} released {} lease(s) at shutdown", workerId, released);
            }
        } catch (RuntimeException e) {
            LOG.error("delivery worker {} could not release its leases at shutdown; they expire on their own",
                    workerId, e);
        }
        publishing.shutdownNow();
        awaitQuietly(publishing, 2_000);
        publisher.publish(snapshot());
        LOG.info("delivery worker {} stopped: {} sent, {} retried, {} failed, {} attempts; {} lease and {} outcome"
                + " transactions", workerId, counters.sent(), counters.retried(), counters.failed(), counters.attempts(),
                counters.leases(), counters.commits());
    }

    private static boolean awaitQuietly(ExecutorService executor, long millis) {
        try {
            return executor.awaitTermination(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    // ---- control thread: ticks, leasing, probing ----------------------------------------------------

    private void tick() {
        try {
            boolean probe;
            synchronized (lock) {
                probe = pausedBySystem && !closing;
            }
            if (probe) {
                probe();
            } else {
                leaseDue();
            }
        } catch (Throwable t) {
            LOG.error("delivery worker {}: tick failed", workerId, t);
            counters.error("internal error: " + t);
        }
    }

    private void requestFill() {
        if (closing) {
            return;
        }
        if (fillRequested.compareAndSet(false, true)) {
            try {
                control.execute(() -> {
                    fillRequested.set(false);
                    leaseDue();
                });
            } catch (RejectedExecutionException shuttingDown) {
                fillRequested.set(false);
            }
        }
    }

    /** {@link #fill}, a failure logged and shown as the worker's last error; the next tick or outcome tries again. */
    private void leaseDue() {
        try {
            fill();
            if (leaseFailing) {
                leaseFailing = false;
                LOG.info("delivery worker {}: leasing rows again", workerId);
            }
        } catch (Throwable t) {
            // once per outage with its trace: a tick every few seconds while the database is away says nothing new,
            // and would push the log's older days out
            if (!leaseFailing) {
                leaseFailing = true;
                LOG.error("delivery worker {}: leasing rows failed; tried again at every tick until it works",
                        workerId, t);
            } else {
                LOG.debug("delivery worker {}: leasing rows failed again: {}", workerId, t.toString());
            }
            counters.error("cannot lease rows: " + database.failureOf(t));
        }
    }

    /** Whether the last lease failed: the failure is logged once, and the recovery. */
    private volatile boolean leaseFailing;

    /** Running, and not held by the state's request to slow down: rows may be leased and sent. */
    private boolean sending() {
        synchronized (lock) {
            return runState == RunState.RUNNING && !closing && !heldNow();
        }
    }

    /**
     * Rows leased at most: the {@link LeaseWindow}'s, or one after a hold until the state answers a call otherwise
     * than 429, so that a state still rate-limiting gets one call per hold and its row one attempt.
     */
    private int windowSize(WorkerSettings s) {
        return throttleRun.get() > 0 ? 1 : window.size(s);
    }

    /** The holds before this answer's: the run so far, less the hold in force that the answer belongs to. */
    private int throttleLevel() {
        synchronized (lock) {
            return Math.max(0, throttleRun.get() - (heldNow() ? 1 : 0));
        }
    }

    /** Whether the state's hold is in force; under {@link #lock}. */
    private boolean heldNow() {
        return hold != null && holdEndNanos - System.nanoTime() > 0;
    }

    /**
     * The state asked to slow down: nothing is leased or sent until {@code until} (a later hold in force stays).
     * Rows leased meanwhile are given back unsent; the fill after the hold takes them again, in due order. A 429 to a
     * call made before a hold that is over belongs to that hold: its row waits, and no hold begins.
     *
     * @param calledNanos when the call was made, on the monotonic clock
     */
    private void holdUntil(Instant until, String reason, long calledNanos) {
        Instant now = clock.instant();
        long waitNanos = Math.max(0, Duration.between(now, until).toNanos());
        long endNanos = System.nanoTime() + waitNanos;
        boolean fresh;
        synchronized (lock) {
            if (closing || waitNanos == 0) {
                return;
            }
            fresh = !heldNow();
            if (fresh && hold != null && calledNanos - holdEndNanos < 0) {
                return;
            }
            if (fresh) {
                hold = new WorkerSnapshot.Hold(now, until, reason);
                holdEndNanos = endNanos;
                throttleRun.incrementAndGet();
            } else if (endNanos - holdEndNanos > 0) {
                hold = new WorkerSnapshot.Hold(hold.since(), until, reason);
                holdEndNanos = endNanos;
            }
        }
        if (fresh) {
            LOG.info("delivery worker {}: the state asked to slow down; nothing is sent before {}: {}", workerId,
                    until, reason);
        }
        try {
            control.schedule(this::requestFill, waitNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            LOG.debug("delivery worker {}: closing, no fill after the state's hold", workerId);
        }
    }

    /**
     * Leases due rows while the worker sends (running, not held by the state) and there is room in the {@link
     * LeaseWindow}, or for one row after a hold.
     */
    private void fill() {
        filling = true;
        try {
            while (sending()) {
                WorkerSettings s = settings;
                if (windowSize(s) - outstanding.get() <= 0) {
                    return;
                }
                int[] room = {0};
                Leased rows = leaseWithin(session -> {
                    room[0] = windowSize(s) - outstanding.get();
                    return room[0] <= 0 ? Leased.NONE : leaseMore(session, s, room[0]);
                });
                if (room[0] <= 0) {
                    return;
                }
                if (rows.ids().isEmpty()) {
                    if (outstanding.get() == 0) {
                        counters.drainEnded();
                    }
                    return;
                }
                dispatch(rows);
                if (rows.ids().size() < room[0]) {
                    return;
                }
            }
        } finally {
            filling = false;
        }
    }

    /**
     * Rows leased, and when their lease ends at the latest as this JVM's monotonic clock counts ({@link
     * System#nanoTime()}): the lease began after {@code deadlineNanos} minus the lease's length, so the row is this
     * worker's until then at least. On a team database the lease is kept in the server's time, which no worker's
     * clock need agree with; the monotonic clock is not moved by a wall clock set back or forward, nor by the
     * server clock's offset measured again.
     */
    private record Leased(List<Long> ids, long deadlineNanos, Map<Long, Instant> leaseEnds) {
        static final Leased NONE = new Leased(List.of(), Long.MIN_VALUE, Map.of());
    }

    /**
     * Leases up to {@code limit} rows in the caller's transaction and counts them as outstanding at once. First it
     * takes back the rows of a failed lease that this worker still holds ({@link #unconfirmed}), however many, then
     * due rows up to the limit. A failed lease's row that another transaction holds locked is asked about again by the
     * next lease, until that failed lease would have ended (anyone may lease the row then).
     */
    private Leased leaseMore(DeliveryStore.Session session, WorkerSettings s, int limit) {
        long before = System.nanoTime();
        Instant now = clock.instant();
        unconfirmed.values().removeIf(end -> end - before <= 0);
        DeliveryStore.Session.Regained regained =
                session.leaseAgain(workerId, List.copyOf(unconfirmed.keySet()), now, s.lease());
        Map<Long, Instant> leaseEnds = new HashMap<>();
        regained.taken().ids().forEach(id -> leaseEnds.put(id, regained.taken().leaseEnd()));
        List<Long> rows = new ArrayList<>(regained.taken().ids());
        if (rows.size() < limit) {
            DeliveryStore.Session.Taken due = session.lease(workerId, now, s.lease(), limit - rows.size());
            due.ids().forEach(id -> leaseEnds.put(id, due.leaseEnd()));
            rows.addAll(due.ids());
        }
        outstanding.addAndGet(rows.size());
        unconfirmed.keySet().retainAll(regained.undecided());
        // an undecided row the due rows' lease took (the transaction that held it rolled back meanwhile) is this
        // lease's now: asked about again, it would be leased and sent a second time
        rows.forEach(unconfirmed::remove);
        return new Leased(List.copyOf(rows), before + s.lease().toNanos(), Map.copyOf(leaseEnds));
    }

    /**
     * A write transaction that may lease rows, its last step. If it fails after leasing, the rows stop counting as
     * outstanding: either the transaction rolled back and they were never leased, or it committed and only its
     * answer was lost (a connection to the team database's server cut at that moment). Which one is not known, so the
     * rows are kept in {@link #unconfirmed} and the next lease takes back those this worker holds, rather than leaving
     * them to wait out their lease. What this transaction leased is its own (the filling and the committing threads
     * both lease, one transaction at a time on the writer, and the failure is noted before the next one starts).
     */
    private Leased leaseWithin(Function<DeliveryStore.Session, Leased> work) {
        Leased[] leased = {Leased.NONE};
        return writer.write(session -> leased[0] = work.apply(session), () -> {
            for (Long id : leased[0].ids()) {
                unconfirmed.put(id, leased[0].deadlineNanos());
            }
            outstanding.addAndGet(-leased[0].ids().size());
        });
    }

    /**
     * Hands the ids of freshly leased rows to the loader, which reads them and passes them on to the
     * senders; {@code outstanding} already counts them. Called after the lease's commit.
     */
    private void dispatch(Leased leased) {
        List<Long> ids = leased.ids();
        counters.leased(ids.size(), publisher.counts().due(), outstanding.get());
        try {
            loader.execute(() -> load(ids, leased.deadlineNanos(), leased.leaseEnds()));
        } catch (RejectedExecutionException shuttingDown) {
            // closing: the rows are still leased to this worker and close() releases them
            LOG.debug("delivery worker {}: {} leased row(s) not read, the worker is closing", workerId, ids.size());
        }
    }

    // ---- loader thread ----------------------------------------------------------------------------

    /**
     * Reads leased rows (off the writer, whose transactions limit a fast drain) and queues each for a
     * sender. A row that cannot be read or sent is given back through the committer, like any other
     * outcome, so that it stops counting as outstanding.
     */
    private void load(List<Long> ids, long deadlineNanos, Map<Long, Instant> leaseEnds) {
        List<LeasedRow> rows;
        try {
            rows = database.read(h -> store.leased(h, workerId, ids));
        } catch (RuntimeException | Error e) {
            LOG.warn("delivery worker {}: reading {} leased row(s) failed; their leases are given back", workerId,
                    ids.size(), e);
            counters.error("cannot read leased rows: " + database.failureOf(e));
            rows = List.of();
        }
        Set<Long> read = new HashSet<>();
        for (LeasedRow row : rows) {
            if (!row.leaseExpiresAt().equals(leaseEnds.get(row.outboxEventId()))) {
                // leased again by this worker since (a lease whose commit's answer was lost, taken back): that
                // lease sends it; this one is given back, which changes nothing in the table
                continue;
            }
            read.add(row.outboxEventId());
            try {
                senders.execute(() -> deliver(row, deadlineNanos));
            } catch (RejectedExecutionException shuttingDown) {
                outcomes.add(DeliveryRecord.released(row));
            }
        }
        if (read.size() < ids.size()) {
            for (Long id : ids) {
                if (!read.contains(id)) {
                    outcomes.add(DeliveryRecord.released(id, leaseEnds.get(id)));
                }
            }
        }
    }

    private void probe() {
        synchronized (lock) {
            if (!probeMayResume) {
                return;
            }
        }
        StateAnswer answer = state.lookup("claimdesk-probe-" + workerId);
        boolean ok = answer.outcome() == AttemptOutcome.DELIVERED || answer.notFound();
        if (!ok) {
            LOG.info("delivery worker {}: the state still refuses or cannot be reached: {}", workerId, answer.message());
            return;
        }
        synchronized (lock) {
            if (!pausedBySystem || closing) {
                return;
            }
            runState = RunState.RUNNING;
            pausedBySystem = false;
            pauseReason = null;
            consecutiveUnreachable.set(0);
        }
        LOG.info("delivery worker {}: the state answers again; delivery resumed", workerId);
        requestFill();
    }

    /**
     * Pauses a running worker; a pause by staff holds (a refusal of a call in flight then changes nothing).
     *
     * @param probeMayResume whether a lookup the state answers ends the pause (unreachable, credentials refused);
     *        else staff resume it once the cause is mended
     */
    private void pauseBySystem(String reason, boolean probeMayResume) {
        synchronized (lock) {
            if (closing || runState != RunState.RUNNING) {
                return;
            }
            runState = RunState.PAUSED;
            pausedBySystem = true;
            pauseReason = reason;
            this.probeMayResume = probeMayResume;
        }
        counters.error(reason);
        LOG.warn("delivery worker {} paused itself: {}", workerId, reason);
    }

    // ---- sender threads ---------------------------------------------------------------------------

    /**
     * Sends one row and hands its outcome to the committer, whatever happens: a row without an outcome would stay
     * leased and counted as outstanding for as long as the worker runs (and {@code drain} would never end).
     */
    private void deliver(LeasedRow row, long deadlineNanos) {
        DeliveryRecord record = null;
        counters.callStarted();
        Instant started = clock.instant();
        try {
            record = attempt(row, started, deadlineNanos);
        } catch (RuntimeException | Error e) {
            LOG.error("delivery worker {}: delivering outbox row {} failed unexpectedly", workerId,
                    row.outboxEventId(), e);
            String message = "internal error delivering row " + row.outboxEventId() + ": " + e;
            counters.error(message);
            // counted, with its backoff: given back at once, the row would be taken again and fail again for ever
            record = policy.internalFailure(row, message, started, clock.instant());
        } finally {
            counters.callEnded();
            outcomes.add(record != null ? record : DeliveryRecord.released(row));
        }
    }

    /**
     * One call for {@code row}, made only while its lease, ending at {@code deadlineNanos} on the monotonic clock,
     * outlives it.
     */
    private DeliveryRecord attempt(LeasedRow row, Instant started, long deadlineNanos) {
        OutcomePolicy.Sendable sendable = OutcomePolicy.sendable(row);
        if (sendable.refusal() != null) {
            return OutcomePolicy.refused(row, sendable.refusal(), started);
        }
        if (!sending()) {
            return DeliveryRecord.released(row);
        }
        if (System.nanoTime() + state.maxCallDuration().plus(LEASE_MARGIN).toNanos() - deadlineNanos > 0) {
            return DeliveryRecord.released(row);
        }
        long t0 = System.nanoTime();
        StateAnswer answer = state.submit(row.idempotencyKey(), sendable.payload(), row.payload());
        long durationNanos = System.nanoTime() - t0;
        window.observeCall(durationNanos / 1_000_000.0);
        OutcomePolicy.Decision decision = policy.decide(row, sendable.payload(), answer, started,
                durationNanos / 1_000_000, clock.instant(), throttleLevel());
        heed(decision, answer, t0);
        return decision.record();
    }

    /**
     * Pauses at once when the state refuses every call, and after {@value #UNREACHABLE_LIMIT} unreachable calls in a
     * row; holds every send until a throttled row's next attempt.
     *
     * @param calledNanos when the call was made, on the monotonic clock
     */
    private void heed(OutcomePolicy.Decision decision, StateAnswer answer, long calledNanos) {
        switch (decision.health()) {
            case UNREACHABLE -> {
                int n = consecutiveUnreachable.incrementAndGet();
                if (n >= UNREACHABLE_LIMIT) {
                    pauseBySystem(answer.message() + " (" + n + " calls in a row could not connect)", true);
                }
            }
            case REFUSING -> {
                consecutiveUnreachable.set(0);
                // a lookup the state answers shows a token it takes again, not that it takes submissions at this
                // address or with this token's rights (403, 404, 405 to a submission): staff resume then
                boolean lookupShows = answer.httpStatus() == null || answer.httpStatus() == 401;
                pauseBySystem(lookupShows ? answer.message()
                        : answer.message() + "; resume the worker once that is mended", lookupShows);
            }
            case THROTTLED -> {
                consecutiveUnreachable.set(0);
                holdUntil(decision.record().nextAttemptAt(), answer.message(), calledNanos);
            }
            case ANSWERED -> {
                consecutiveUnreachable.set(0);
                synchronized (lock) {
                    // a call made before the last hold ended says nothing of the state's limit since
                    if (hold == null || calledNanos - holdEndNanos >= 0) {
                        throttleRun.set(0);
                    }
                }
            }
        }
    }

    // ---- committer thread -------------------------------------------------------------------------

    private void commitLoop() {
        List<DeliveryRecord> batch = new ArrayList<>();
        while (true) {
            outcomes.nextBatch(batch, settings.concurrency(), () -> committerStop);
            if (batch.isEmpty()) {
                if (committerStop && outcomes.isEmpty()) {
                    return;
                }
                continue;
            }
            try {
                commit(batch);
            } catch (Throwable t) {
                LOG.error("delivery worker {}: recording {} outcome(s) failed", workerId, batch.size(), t);
            }
            batch.clear();
        }
    }

    private void commit(List<DeliveryRecord> batch) {
        boolean[] applied = null;
        Leased next = Leased.NONE;
        // by then the batch's leases have ended and other workers may have taken its rows (an outcome is recorded
        // only under the lease it was sent with, so trying longer would record little)
        long triesEnd = System.nanoTime() + settings.lease().toNanos();
        for (int attempt = 1; applied == null; attempt++) {
            try {
                Instant now = clock.instant();
                boolean[][] result = new boolean[1][];
                // record the outcomes, and lease the next rows in the same transaction while there is room
                next = leaseWithin(session -> {
                    result[0] = session.complete(workerId, batch, now);
                    if (!sending()) {
                        return Leased.NONE;
                    }
                    WorkerSettings s = settings;
                    int room = windowSize(s) - (outstanding.get() - batch.size());
                    return room <= 0 ? Leased.NONE : leaseMore(session, s, room);
                });
                applied = result[0];
            } catch (RuntimeException | Error e) {
                long pauseMs = attempt < COMMIT_TRIES ? 100L * attempt : COMMIT_RETRY_MS;
                boolean again = attempt < COMMIT_TRIES || !closing && database.mayPass(e)
                        && System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pauseMs) < triesEnd;
                if (attempt <= COMMIT_TRIES || !again || attempt % 10 == 0) {
                    LOG.warn("delivery worker {}: recording {} outcome(s) failed (try {}{})", workerId, batch.size(),
                            attempt, again ? "; trying again" : ", the last", e);
                }
                counters.error("cannot record delivery outcomes: " + database.failureOf(e));
                if (!again) {
                    break;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(pauseMs));
            }
        }
        outstanding.addAndGet(-batch.size());
        counters.outcomesCommitted();
        if (!next.ids().isEmpty()) {
            dispatch(next);
        }
        if (applied == null) {
            LOG.error("delivery worker {}: gave up recording {} outcome(s); their leases expire and the rows are "
                    + "delivered again (the state answers a replayed key with the same case id)", workerId,
                    batch.size());
            requestFill();
            return;
        }
        counters.recorded(batch, applied, System.nanoTime());
        requestFill();
    }

    @Override
    public String toString() {
        return "DeliveryWorker[" + workerId + " -> " + state.endpoint() + "]";
    }
}
