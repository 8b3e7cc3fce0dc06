package org.claimdesk.store;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A team database's time on this workstation: the workstation's clock moved by how far it is from the server's.
 * Every time a workstation writes (a row's due time, a retry's, a history's or an audit entry's moment) and every
 * "now" it reads against (what is due, what is overdue, how old a row is) is then the office's one time, whatever
 * the workstation's own clock says: a workstation whose clock is an hour behind would otherwise write retries that
 * fall due at once, and one an hour ahead would hold back every row it submits for an hour.
 *
 * <p>The distance is measured when the database opens and again every {@link #REMEASURE_MINUTES} minutes on a
 * thread of its own (the system's clock can be set while a console runs): one read of the server's clock, its
 * answer taken as the server's time at the round trip's middle. Reading the clock never touches the server. A
 * measurement that fails keeps the distance measured before.
 */
public final class ServerClock extends Clock {
    private static final Logger LOG = LoggerFactory.getLogger(ServerClock.class);
    static final long REMEASURE_MINUTES = 5;

    private final Clock local;
    private final AtomicLong offsetMillis;

    private ServerClock(Clock local, AtomicLong offsetMillis) {
        this.local = local;
        this.offsetMillis = offsetMillis;
    }

    /** A clock in {@code local}'s zone, ahead of {@code local} by the distance {@code jdbi}'s server is ahead of it. */
    static ServerClock measured(Jdbi jdbi, Clock local) {
        ServerClock clock = new ServerClock(Objects.requireNonNull(local, "local"), new AtomicLong());
        clock.offsetMillis.set(offset(jdbi, local));
        return clock;
    }

    /**
     * How far the server's clock is ahead of {@code local}, in ms (negative when behind): the server's answer taken as
     * its time at the middle of the round trip, so off by at most half of it, which is nothing against the seconds a
     * due time or a backoff counts in.
     */
    static long offset(Jdbi jdbi, Clock local) {
        return jdbi.withHandle(h -> {
            long before = local.millis();
            long server = h.createQuery("SELECT CAST(extract(epoch FROM clock_timestamp()) * 1000 AS bigint)")
                    .mapTo(Long.class).one();
            long after = local.millis();
            return server - (before + (after - before) / 2);
        });
    }

    /**
     * Measures the distance again every {@link #REMEASURE_MINUTES} minutes on a daemon thread, until the returned
     * executor is shut down.
     */
    ScheduledExecutorService remeasureEvery(Jdbi jdbi) {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "claimdesk-server-clock");
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleWithFixedDelay(() -> remeasure(jdbi), REMEASURE_MINUTES, REMEASURE_MINUTES, TimeUnit.MINUTES);
        return scheduler;
    }

    void remeasure(Jdbi jdbi) {
        try {
            long measured = offset(jdbi, local);
            long before = offsetMillis.getAndSet(measured);
            if (Math.abs(measured - before) > 1_000) {
                LOG.info("this workstation's clock moved against the server's: {} ms ahead of it, {} ms before",
                        -measured, -before);
            }
        } catch (RuntimeException | Error e) {
            LOG.debug("cannot read the server's clock; the distance measured before stays", e);
        }
    }

    /** How far the server's clock was ahead of this workstation's when last measured, in ms. */
    public long offsetMillis() {
        return offsetMillis.get();
    }

    @Override
    public ZoneId getZone() {
        return local.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return zone.equals(local.getZone()) ? this : new ServerClock(local.withZone(zone), offsetMillis);
    }

    @Override
    public long millis() {
        return local.millis() + offsetMillis.get();
    }

    @Override
    public Instant instant() {
        return local.instant().plusMillis(offsetMillis.get());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ServerClock other && other.local.equals(local) && other.offsetMillis == offsetMillis;
    }

    @Override
    public int hashCode() {
        return local.hashCode() ^ System.identityHashCode(offsetMillis);
    }

    @Override
    public String toString() {
        return "ServerClock[" + local + ", server ahead by " + offsetMillis.get() + " ms]";
    }
}
