package org.claimdesk.delivery;

import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import org.claimdesk.delivery.WorkerSnapshot.RunState;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.Database;
import org.claimdesk.store.DeliveryRecord;
import org.claimdesk.store.DeliveryStore;
import org.claimdesk.store.LeasedRow;
import org.claimdesk.store.WalCheckpointer;
import org.jdbi.v3.core.Handle;
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
 *       every database transaction;</li>
 *   <li>committer: writes the outcomes of every delivery finished meanwhile in one transaction, and
 *       leases the next rows in the same transaction while there is room in the window. A
 *       row's lease is released only by the commit that records its outcome, so a crash at any moment
 *       leaves the row leased until its lease expires, and then another worker delivers it again
 *       (the state answers a replayed key with 200 and the same case id);</li>
 *   <li>publisher: a {@link WorkerSnapshot} to listeners at most every 100 ms;</li>
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
    static final long PUBLISH_EVERY_MS = 100;
    private static final long COUNTS_EVERY_MS = 250;
    private static final long SENT_TOTAL_EVERY_MS = 2_000;
    private static final int MAX_BATCH = 1_000;
    /** Most rows leased and unfinished at once, however fast the state answers. */
    static final int MAX_WINDOW = 1_000;
    /** How far ahead of the senders the window reaches, in their own pace (see {@link #window}). */
    static final long WINDOW_AHEAD_MS = 250;
    /** How long the committer waits for more outcomes when it has fewer than one per sender. */
    static final long GATHER_MS = 5;
    private static final int COMMIT_TRIES = 5;

    private final Database database;
    private final StateAdapter state;
    private final Clock clock;
    private final Deadlines deadlines;
    private final String workerId;
    private final DoubleSupplier random;
    private final DeliveryStore store = new DeliveryStore();

    private volatile WorkerSettings settings;
    private final ScheduledExecutorService control;
    private final ScheduledExecutorService publisher;
    private final ExecutorService loader;
    private final ThreadPoolExecutor senders;
    private final Thread committer;
    private final LinkedBlockingQueue<DeliveryRecord> results = new LinkedBlockingQueue<>();
    private final List<Consumer<WorkerSnapshot>> listeners = new CopyOnWriteArrayList<>();

    /** Rows leased and not yet released by a commit. */
    private final AtomicInteger outstanding = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    /** Rows leased by the write transaction under way, uncounted again if it rolls back; guarded by the write lock. */
    private final AtomicInteger pendingLease = new AtomicInteger();
    private final AtomicBoolean fillRequested = new AtomicBoolean();
    private final AtomicInteger consecutiveUnreachable = new AtomicInteger();
    private volatile boolean filling;
    /** Moving average of one call's duration, in milliseconds; sizes the lease window. */
    private volatile double averageCallMillis = -1;
    private volatile boolean closing;
    private volatile boolean committerStop;

    private final Object lock = new Object();
    /**
     * Taken around this worker's own write transactions (leasing, recording outcomes). SQLite allows one
     * writer at a time, and a writer that finds the file locked sleeps in the busy handler for up to
     * tens of milliseconds; queueing here instead keeps the leasing and committing threads from making
     * each other sleep. Other processes are still kept apart by SQLite's own lock.
     */
    private final ReentrantLock writeLock = new ReentrantLock();
    /** The connection this worker writes on, with its statements prepared once; guarded by {@link #writeLock}. */
    private Handle writer;
    private DeliveryStore.Session session;
    private RunState runState = RunState.STOPPED;
    private String pauseReason;
    private boolean pausedBySystem;
    private boolean started;
    private boolean closed;
    private ScheduledFuture<?> ticks;
    /** Checkpoints the log while the worker runs, off the committer's thread; guarded by {@link #lock}. */
    private WalCheckpointer checkpointer;

    private final AtomicLong sentThisRun = new AtomicLong();
    private final AtomicLong retriedThisRun = new AtomicLong();
    private final AtomicLong failedThisRun = new AtomicLong();
    private final AtomicLong attemptsThisRun = new AtomicLong();
    private final AtomicLong drainDone = new AtomicLong();
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong leases = new AtomicLong();
    private final AtomicLong drainTotal = new AtomicLong();
    private final RateMeter rate = new RateMeter(5_000);
    private volatile DeliveryStore.Counts counts = new DeliveryStore.Counts(0, 0, 0);
    private volatile long sentTotal;
    private volatile long countsAt;
    private volatile long sentTotalAt;
    private volatile String lastError;
    private volatile WorkerSnapshot lastPublished;
    private volatile long lastPublishedAt;

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
        this.deadlines = Objects.requireNonNull(deadlines, "deadlines");
        this.workerId = Objects.requireNonNull(workerId, "workerId");
        this.random = Objects.requireNonNull(random, "random");
        this.control = Executors.newSingleThreadScheduledExecutor(new NamedThreads("claimdesk-delivery-control"));
        this.publisher = Executors.newSingleThreadScheduledExecutor(new NamedThreads("claimdesk-delivery-publisher"));
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

    /** A lease owner name unique to this process and worker: "host-pid-xxxx". */
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
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("this delivery worker was closed; make a new one");
            }
            if (started) {
                return;
            }
            started = true;
            runState = RunState.RUNNING;
            checkpointer = WalCheckpointer.start(database, WalCheckpointer.DEFAULT_PERIOD,
                    "claimdesk-delivery-checkpoint");
            committer.start();
            scheduleTicks(settings.interval());
            publisher.scheduleWithFixedDelay(this::publishTick, 0, PUBLISH_EVERY_MS, TimeUnit.MILLISECONDS);
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
            publisher.execute(() -> {
                countsAt = 0;
                sentTotalAt = 0;
                publishTick();
            });
        } catch (RejectedExecutionException closing) {
            LOG.debug("delivery worker {}: counts not refreshed, the worker is closed", workerId);
        }
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
        synchronized (lock) {
            rs = runState;
            reason = pauseReason;
            bySystem = pausedBySystem;
        }
        DeliveryStore.Counts c = counts;
        return new WorkerSnapshot(clock.instant(), rs, reason, bySystem, state.endpoint(), c.pending(), c.due(),
                inFlight.get(), drainDone.get(), drainTotal.get(), sentThisRun.get(), retriedThisRun.get(),
                failedThisRun.get(), attemptsThisRun.get(), sentTotal, c.failed(), rate.perSecond(System.nanoTime()),
                lastError);
    }

    @Override
    public void addListener(Consumer<WorkerSnapshot> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    @Override
    public void removeListener(Consumer<WorkerSnapshot> listener) {
        listeners.remove(listener);
    }

    /**
     * True while rows are leased to this worker or a lease is being taken: nothing this worker holds
     * is left to finish when it returns false.
     */
    public boolean busy() {
        return filling || outstanding.get() > 0 || fillRequested.get();
    }

    /**
     * Counts every lease taken and every batch of outcomes recorded: a caller that saw the same value
     * before and after looking at the database knows the worker did nothing meanwhile.
     */
    public long activity() {
        return leases.get() + commits.get();
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
        closeWriter();
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
        publisher.shutdownNow();
        awaitQuietly(publisher, 2_000);
        WorkerSnapshot last = snapshot();
        for (Consumer<WorkerSnapshot> listener : listeners) {
            notify(listener, last);
        }
        LOG.info("delivery worker {} stopped: {} sent, {} retried, {} failed, {} attempts; {} lease and {} outcome"
                + " transactions", workerId, sentThisRun.get(), retriedThisRun.get(), failedThisRun.get(),
                attemptsThisRun.get(), leases.get(), commits.get());
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
                fill();
            }
        } catch (Throwable t) {
            LOG.error("delivery worker {}: tick failed", workerId, t);
            lastError = "internal error: " + t;
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
                    try {
                        fill();
                    } catch (Throwable t) {
                        LOG.error("delivery worker {}: leasing rows failed", workerId, t);
                        lastError = "cannot lease rows: " + t.getMessage();
                    }
                });
            } catch (RejectedExecutionException shuttingDown) {
                fillRequested.set(false);
            }
        }
    }

    private boolean running() {
        synchronized (lock) {
            return runState == RunState.RUNNING && !closing;
        }
    }

    /**
     * How many rows may be leased and unfinished at once: twice the concurrency, and more when the state
     * answers fast, as many as the senders get through in {@value #WINDOW_AHEAD_MS} ms (and never more
     * than in a quarter of the lease, so a leased row never waits long enough for its lease to run out),
     * at most {@value #MAX_WINDOW}. Larger windows mean fewer, larger lease and completion transactions;
     * but every lease walks past the rows still leased at the head of the due index, reading each one, so
     * a window deeper than the senders need costs the committer for nothing (a thousand rows queued ahead
     * of a state answering in 20 ms kept it busy 40 % of the time at 750 deliveries a second).
     */
    int window(WorkerSettings s) {
        int floor = 2 * s.concurrency();
        double average = averageCallMillis;
        if (average < 0) {
            return floor;
        }
        double perSecond = s.concurrency() * 1000.0 / Math.max(average, 0.1);
        double ahead = Math.min(WINDOW_AHEAD_MS, s.lease().toMillis() / 4.0) / 1000.0;
        long fit = (long) (perSecond * ahead);
        return (int) Math.max(floor, Math.min(MAX_WINDOW, fit));
    }

    private void observeCall(double millis) {
        double average = averageCallMillis;
        averageCallMillis = average < 0 ? millis : average * 0.9 + millis * 0.1;
    }

    /** Leases due rows while there is room in the {@link #window}. */
    private void fill() {
        filling = true;
        try {
            while (running()) {
                WorkerSettings s = settings;
                if (window(s) - outstanding.get() <= 0) {
                    return;
                }
                int[] room = {0};
                List<Long> rows = leaseWithin(session -> {
                    room[0] = window(s) - outstanding.get();
                    return room[0] <= 0 ? List.<Long>of() : leaseMore(session, s, room[0]);
                });
                if (room[0] <= 0) {
                    return;
                }
                if (rows.isEmpty()) {
                    if (outstanding.get() == 0) {
                        drainDone.set(0);
                        drainTotal.set(0);
                    }
                    return;
                }
                dispatch(rows);
                if (rows.size() < room[0]) {
                    return;
                }
            }
        } finally {
            filling = false;
        }
    }

    /** Leases up to {@code limit} rows in the caller's transaction and counts them as outstanding at once. */
    private List<Long> leaseMore(DeliveryStore.Session session, WorkerSettings s, int limit) {
        Instant now = clock.instant();
        List<Long> rows = session.lease(workerId, now, now.plus(s.lease()), limit);
        outstanding.addAndGet(rows.size());
        pendingLease.set(rows.size());
        return rows;
    }

    /**
     * A write transaction that may lease rows: if it fails after leasing, the rows were never leased
     * (the transaction rolled back), so they stop counting as outstanding.
     */
    private <T> T leaseWithin(Function<DeliveryStore.Session, T> work) {
        pendingLease.set(0);
        try {
            T result = write(work);
            pendingLease.set(0);
            return result;
        } catch (RuntimeException e) {
            outstanding.addAndGet(-pendingLease.getAndSet(0));
            throw e;
        }
    }

    /**
     * Hands the ids of freshly leased rows to the loader, which reads them and passes them on to the
     * senders; {@code outstanding} already counts them. Called after the lease's commit.
     */
    private void dispatch(List<Long> ids) {
        leases.incrementAndGet();
        if (drainTotal.get() == 0) {
            drainTotal.set(ids.size() + Math.max(0, counts.due() - ids.size()));
        }
        drainTotal.accumulateAndGet(drainDone.get() + outstanding.get(), Math::max);
        try {
            loader.execute(() -> load(ids));
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
    private void load(List<Long> ids) {
        List<LeasedRow> rows;
        try {
            rows = database.read(h -> store.leased(h, workerId, ids));
        } catch (RuntimeException e) {
            LOG.warn("delivery worker {}: reading {} leased row(s) failed; their leases are given back", workerId,
                    ids.size(), e);
            lastError = "cannot read leased rows: " + e.getMessage();
            rows = List.of();
        }
        Set<Long> read = new HashSet<>();
        for (LeasedRow row : rows) {
            read.add(row.outboxEventId());
            try {
                senders.execute(() -> deliver(row));
            } catch (RejectedExecutionException shuttingDown) {
                results.add(DeliveryRecord.release(row));
            }
        }
        if (read.size() < ids.size()) {
            for (Long id : ids) {
                if (!read.contains(id)) {
                    results.add(DeliveryRecord.release(id));
                }
            }
        }
    }

    /**
     * Runs {@code work} in one write transaction on this worker's own connection. The statements stay
     * prepared from one transaction to the next; after a failure the connection is given back and a
     * fresh one is taken next time.
     */
    private <T> T write(Function<DeliveryStore.Session, T> work) {
        writeLock.lock();
        try {
            if (session == null) {
                writer = database.jdbi().open();
                DeliveryStore.prepareWriter(writer);
                session = store.session(writer);
            }
            try {
                return writer.inTransaction(h -> work.apply(session));
            } catch (RuntimeException e) {
                closeWriter();
                throw e;
            }
        } finally {
            writeLock.unlock();
        }
    }

    private void closeWriter() {
        writeLock.lock();
        try {
            if (session != null) {
                session.close();
                session = null;
            }
            if (writer != null) {
                try {
                    DeliveryStore.restoreWriter(writer);
                } catch (RuntimeException e) {
                    LOG.debug("delivery worker {}: could not restore the settings of a connection that is being"
                            + " closed", workerId, e);
                }
                try {
                    writer.close();
                } catch (RuntimeException e) {
                    LOG.warn("delivery worker {}: closing its database connection failed", workerId, e);
                }
                writer = null;
            }
        } finally {
            writeLock.unlock();
        }
    }

    private void probe() {
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

    private void pauseBySystem(String reason) {
        synchronized (lock) {
            if (closing || runState == RunState.STOPPED || pausedBySystem) {
                return;
            }
            runState = RunState.PAUSED;
            pausedBySystem = true;
            pauseReason = reason;
        }
        lastError = reason;
        LOG.warn("delivery worker {} paused itself: {}", workerId, reason);
    }

    // ---- sender threads ---------------------------------------------------------------------------

    private void deliver(LeasedRow row) {
        DeliveryRecord record;
        inFlight.incrementAndGet();
        try {
            record = attempt(row);
        } catch (RuntimeException e) {
            LOG.error("delivery worker {}: delivering outbox row {} failed unexpectedly", workerId,
                    row.outboxEventId(), e);
            record = DeliveryRecord.release(row);
            lastError = "internal error delivering row " + row.outboxEventId() + ": " + e;
        } finally {
            inFlight.decrementAndGet();
        }
        results.add(record);
    }

    private DeliveryRecord attempt(LeasedRow row) {
        Instant started = clock.instant();
        if (!OutboxEvent.SUBMISSION_REQUESTED.equals(row.eventType())) {
            return failedNow(row, started, "unknown event type '" + row.eventType()
                    + "': this worker delivers only " + OutboxEvent.SUBMISSION_REQUESTED);
        }
        if (row.jurisdiction() == null) {
            return failedNow(row, started, "claim " + row.claimId() + " no longer exists: there is nothing to submit");
        }
        PayloadCheck.Result payload = PayloadCheck.check(row);
        if (payload.error() != null) {
            return failedNow(row, started, "malformed payload: " + payload.error());
        }
        if (!running()) {
            return DeliveryRecord.release(row);
        }
        if (started.plus(state.maxCallDuration()).plus(LEASE_MARGIN).isAfter(row.leaseExpiresAt())) {
            return DeliveryRecord.release(row);
        }
        long t0 = System.nanoTime();
        StateAnswer answer = state.submit(row.idempotencyKey(), payload.payload(), row.payload());
        long durationNanos = System.nanoTime() - t0;
        long durationMs = durationNanos / 1_000_000;
        observeCall(durationNanos / 1_000_000.0);
        return outcome(row, payload, answer, started, durationMs).withField(answer.field());
    }

    private DeliveryRecord failedNow(LeasedRow row, Instant started, String error) {
        return new DeliveryRecord(DeliveryRecord.Kind.FAILED, row.outboxEventId(), row.claimId(), row.idempotencyKey(),
                row.attempts() + 1, row.retryCount() + 1, error, null, null, null, started, 0,
                AttemptOutcome.PERMANENT, null, error);
    }

    private DeliveryRecord outcome(LeasedRow row, PayloadCheck.Result payload, StateAnswer answer, Instant started,
            long durationMs) {
        int attemptNo = row.attempts() + 1;
        Instant now = clock.instant();
        WorkerSettings s = settings;
        if (answer.unreachable()) {
            int n = consecutiveUnreachable.incrementAndGet();
            if (n >= UNREACHABLE_LIMIT) {
                pauseBySystem(answer.message() + " (" + n + " calls in a row could not connect)");
            }
            Duration wait = Backoff.delay(1, s.backoffBase(), s.backoffCap(), null, random);
            return new DeliveryRecord(DeliveryRecord.Kind.RETRY, row.outboxEventId(), row.claimId(),
                    row.idempotencyKey(), attemptNo, row.retryCount(), answer.message(), now.plus(wait), null, null,
                    started, durationMs, AttemptOutcome.SYSTEMIC, null, answer.attemptDetail());
        }
        consecutiveUnreachable.set(0);
        switch (answer.outcome()) {
            case DELIVERED -> {
                String jurisdiction = row.jurisdiction() != null ? row.jurisdiction() : payload.payload().jurisdiction();
                LocalDate dueOn = deadlines.dueDate(jurisdiction, LocalDate.ofInstant(now, clock.getZone()));
                return new DeliveryRecord(DeliveryRecord.Kind.SENT, row.outboxEventId(), row.claimId(),
                        row.idempotencyKey(), attemptNo, row.retryCount(), null, null, answer.caseId(), dueOn, started,
                        durationMs, AttemptOutcome.DELIVERED, answer.httpStatus(), answer.attemptDetail());
            }
            case TRANSIENT -> {
                int retry = row.retryCount() + 1;
                if (retry >= s.maxAttempts()) {
                    return new DeliveryRecord(DeliveryRecord.Kind.FAILED, row.outboxEventId(), row.claimId(),
                            row.idempotencyKey(), attemptNo, retry,
                            answer.message() + " (gave up after " + retry + " attempts)", null, null, null, started,
                            durationMs, AttemptOutcome.TRANSIENT, answer.httpStatus(), answer.attemptDetail());
                }
                Duration wait = Backoff.delay(retry, s.backoffBase(), s.backoffCap(), answer.retryAfter(), random);
                return new DeliveryRecord(DeliveryRecord.Kind.RETRY, row.outboxEventId(), row.claimId(),
                        row.idempotencyKey(), attemptNo, retry, answer.message(), now.plus(wait), null, null, started,
                        durationMs, AttemptOutcome.TRANSIENT, answer.httpStatus(), answer.attemptDetail());
            }
            case PERMANENT -> {
                return new DeliveryRecord(DeliveryRecord.Kind.FAILED, row.outboxEventId(), row.claimId(),
                        row.idempotencyKey(), attemptNo, row.retryCount() + 1, answer.message(), null, null, null,
                        started, durationMs, AttemptOutcome.PERMANENT, answer.httpStatus(), answer.attemptDetail());
            }
            case SYSTEMIC -> {
                pauseBySystem(answer.message());
                return new DeliveryRecord(DeliveryRecord.Kind.RETRY, row.outboxEventId(), row.claimId(),
                        row.idempotencyKey(), attemptNo, row.retryCount(), answer.message(), now, null, null, started,
                        durationMs, AttemptOutcome.SYSTEMIC, answer.httpStatus(), answer.attemptDetail());
            }
            default -> throw new IllegalStateException("unknown outcome " + answer.outcome());
        }
    }

    // ---- committer thread -------------------------------------------------------------------------

    private void commitLoop() {
        List<DeliveryRecord> batch = new ArrayList<>();
        while (true) {
            DeliveryRecord first;
            try {
                first = results.poll(20, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                first = null;
            }
            if (first == null) {
                if (committerStop && results.isEmpty()) {
                    return;
                }
                continue;
            }
            batch.add(first);
            gather(batch);
            try {
                commit(batch);
            } catch (Throwable t) {
                LOG.error("delivery worker {}: recording {} outcome(s) failed", workerId, batch.size(), t);
            }
            batch.clear();
        }
    }

    /**
     * Adds the outcomes already waiting and, while the batch holds fewer than one per sender, those that
     * arrive within {@value #GATHER_MS} ms. With a state that answers in tens of milliseconds the senders
     * finish one after the other; committing each outcome as it came made a transaction, a lease scan and
     * a write of every touched page per handful of rows. Waiting a few milliseconds adds that much to an
     * outcome's commit and nothing to the lease, which is held until the commit.
     */
    private void gather(List<DeliveryRecord> batch) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GATHER_MS);
        while (true) {
            results.drainTo(batch, MAX_BATCH - batch.size());
            long left = deadline - System.nanoTime();
            if (batch.size() >= Math.min(MAX_BATCH, settings.concurrency()) || left <= 0 || committerStop) {
                return;
            }
            try {
                DeliveryRecord next = results.poll(left, TimeUnit.NANOSECONDS);
                if (next == null) {
                    return;
                }
                batch.add(next);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void commit(List<DeliveryRecord> batch) {
        boolean[] applied = null;
        List<Long> next = List.of();
        for (int attempt = 1; attempt <= COMMIT_TRIES && applied == null; attempt++) {
            try {
                Instant now = clock.instant();
                boolean[][] result = new boolean[1][];
                // record the outcomes, and lease the next rows in the same transaction while there is room
                next = leaseWithin(session -> {
                    result[0] = session.complete(workerId, batch, now);
                    if (!running()) {
                        return List.<Long>of();
                    }
                    WorkerSettings s = settings;
                    int room = window(s) - (outstanding.get() - batch.size());
                    return room <= 0 ? List.<Long>of() : leaseMore(session, s, room);
                });
                applied = result[0];
            } catch (RuntimeException e) {
                LOG.warn("delivery worker {}: recording {} outcome(s) failed (try {} of {})", workerId, batch.size(),
                        attempt, COMMIT_TRIES, e);
                lastError = "cannot record delivery outcomes: " + e.getMessage();
                if (attempt < COMMIT_TRIES) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100L * attempt));
                }
            }
        }
        outstanding.addAndGet(-batch.size());
        commits.incrementAndGet();
        if (!next.isEmpty()) {
            dispatch(next);
        }
        if (applied == null) {
            LOG.error("delivery worker {}: gave up recording {} outcome(s); their leases expire and the rows are "
                    + "delivered again (the state answers a replayed key with the same case id)", workerId,
                    batch.size());
            requestFill();
            return;
        }
        long finished = 0;
        for (int i = 0; i < batch.size(); i++) {
            DeliveryRecord r = batch.get(i);
            if (!r.hasAttempt()) {
                continue;
            }
            attemptsThisRun.incrementAndGet();
            if (!applied[i]) {
                continue;
            }
            finished++;
            switch (r.kind()) {
                case SENT -> sentThisRun.incrementAndGet();
                case FAILED -> {
                    failedThisRun.incrementAndGet();
                    lastError = r.lastError();
                }
                case RETRY -> {
                    if (r.outcome() == AttemptOutcome.TRANSIENT) {
                        retriedThisRun.incrementAndGet();
                    }
                    lastError = r.lastError();
                }
                default -> {
                }
            }
        }
        drainDone.addAndGet(finished);
        rate.record(finished, System.nanoTime());
        requestFill();
    }

    // ---- publisher thread -------------------------------------------------------------------------

    private void publishTick() {
        try {
            long nowMs = System.currentTimeMillis();
            if (nowMs - countsAt >= COUNTS_EVERY_MS) {
                Instant now = clock.instant();
                counts = database.read(h -> store.counts(h, now));
                countsAt = nowMs;
            }
            if (nowMs - sentTotalAt >= SENT_TOTAL_EVERY_MS) {
                sentTotal = database.read(store::countSent);
                sentTotalAt = nowMs;
            }
            if (listeners.isEmpty()) {
                return;
            }
            WorkerSnapshot next = snapshot();
            WorkerSnapshot previous = lastPublished;
            if (previous != null && sameExceptTime(previous, next) && nowMs - lastPublishedAt < 1_000) {
                return;
            }
            lastPublished = next;
            lastPublishedAt = nowMs;
            for (Consumer<WorkerSnapshot> listener : listeners) {
                notify(listener, next);
            }
        } catch (Throwable t) {
            LOG.error("delivery worker {}: publishing a snapshot failed", workerId, t);
        }
    }

    private void notify(Consumer<WorkerSnapshot> listener, WorkerSnapshot snapshot) {
        try {
            listener.accept(snapshot);
        } catch (RuntimeException e) {
            LOG.error("delivery worker {}: a snapshot listener failed", workerId, e);
        }
    }

    private static boolean sameExceptTime(WorkerSnapshot a, WorkerSnapshot b) {
        return a.runState() == b.runState() && Objects.equals(a.pauseReason(), b.pauseReason())
                && a.pending() == b.pending() && a.due() == b.due() && a.inFlight() == b.inFlight()
                && a.drainDone() == b.drainDone() && a.drainTotal() == b.drainTotal()
                && a.attemptsThisRun() == b.attemptsThisRun() && a.sentTotal() == b.sentTotal()
                && a.failedTotal() == b.failedTotal() && Objects.equals(a.lastError(), b.lastError());
    }

    @Override
    public String toString() {
        return "DeliveryWorker[" + workerId + " -> " + state.endpoint() + "]";
    }
}
