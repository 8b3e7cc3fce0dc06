package org.claimdesk.app;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.claimdesk.domain.DataChange;
import org.claimdesk.domain.WorkerPause;
import org.claimdesk.store.Database;

/**
 * Whether staff have paused the delivery worker, for a process that delivers without a console ({@code claimdesk
 * drain}): the pause ({@link #current()}), or as {@link #get()} says it, "the delivery worker was paused by NAME at
 * TIME: reason", or null. On a team database the pause is read again when another workstation changes the worker's
 * state (the live updates' notifications), and after a read that failed at most once a second; on a local file, where
 * nothing is notified, at most once a second.
 */
public final class StaffPauseWatch implements Supplier<String>, AutoCloseable {
    static final long FILE_CHECK_MILLIS = 1_000;
    /** How long a watch on a team database waits for the live updates before it reads the pause. */
    static final java.time.Duration LISTENING_WITHIN = java.time.Duration.ofSeconds(5);
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(StaffPauseWatch.class);

    private final Database database;
    private final LiveChanges live;
    private final AutoCloseable subscription;
    private volatile WorkerPause pause;
    private volatile long readAt;
    /** True while the newest read of the pause that ended failed: the pause held may be out of date. */
    private volatile boolean stale;
    /**
     * Reads begun, and the newest of them that ended (its pause held, or its failure marking it stale): a read begun
     * before it and ending later changes nothing.
     */
    private final AtomicLong reads = new AtomicLong();
    private long held;

    public StaffPauseWatch(Database database) {
        this.database = database;
        this.live = new LiveChanges(database);
        this.subscription = live.live() ? live.subscribe(this::changed) : null;
        if (subscription != null && !live.awaitListening(LISTENING_WITHIN)) {
            LOG.warn("live updates from {} did not start within {} s: a pause made elsewhere is seen once they do",
                    database.location().describe(), LISTENING_WITHIN.toSeconds());
        }
        // read once the notifications are heard, so that a pause made in between is not missed
        read();
    }

    private void changed(Set<DataChange> kinds) {
        if (kinds.contains(DataChange.WORKER)) {
            try {
                read();
            } catch (RuntimeException e) {
                LOG.warn("could not read the worker's pause that another workstation changed; it is read again"
                        + " within a second", e);
            }
        }
    }

    /** Reads the pause; until a read succeeds, the next look reads it again. */
    private void read() {
        long n = reads.incrementAndGet();
        readAt = System.nanoTime();
        try {
            WorkerPause found = AuditedWorker.pauseIn(database).orElse(null);
            synchronized (this) {
                if (n > held) {
                    held = n;
                    pause = found;
                    stale = false;
                }
            }
        } catch (RuntimeException e) {
            synchronized (this) {
                if (n > held) {
                    held = n;
                    stale = true;
                }
            }
            throw e;
        }
    }

    /**
     * The pause by staff in force, if any; while the database cannot be read, the last one read, and it is read again
     * at most once a second, as it is while a team database's notifications are lost.
     */
    public Optional<WorkerPause> current() {
        // unheard, read: a local file, a failed read, or notifications lost until the feed reconnects
        boolean unheard = stale || subscription == null || !live.connected();
        if (unheard && System.nanoTime() - readAt > FILE_CHECK_MILLIS * 1_000_000) {
            try {
                read();
            } catch (RuntimeException e) {
                LOG.debug("could not read the worker's pause; read again within a second", e);
            }
        }
        return Optional.ofNullable(pause);
    }

    @Override
    public String get() {
        return current().map(StaffPauseWatch::stopped).orElse(null);
    }

    /**
     * As {@link #get}, for a drain told to go on despite staff's pause: {@code overridden}, the pause it was told to
     * go on despite (null: none was held), does not stop it; a pause made after it, and the pause a move into a team
     * database leaves ({@link AuditedWorker#marksMovedDesk}), do.
     */
    public Supplier<String> except(WorkerPause overridden) {
        return () -> current().filter(p -> AuditedWorker.marksMovedDesk(p) || !p.sameAs(overridden))
                .map(StaffPauseWatch::stopped).orElse(null);
    }

    private static String stopped(WorkerPause p) {
        return "the delivery worker was paused by " + byWhomWhenWhy(p);
    }

    /** "NAME at yyyy-MM-dd HH:mm (this computer's time): reason", as a command prints a pause. */
    public static String byWhomWhenWhy(WorkerPause p) {
        return p.actor() + " at " + Conflicts.localMinute(p.at()) + ": " + p.reason();
    }

    @Override
    public void close() {
        if (subscription != null) {
            try {
                subscription.close();
            } catch (Exception e) {
                // the feed's own connection is closed with the database in any case
            }
        }
    }
}
