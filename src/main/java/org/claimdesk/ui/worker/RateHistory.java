package org.claimdesk.ui.worker;

import java.util.ArrayList;
import java.util.List;
import org.claimdesk.delivery.WorkerSnapshot;

/**
 * Sent and failed deliveries per second, from the worker's running counters. Counters are read as
 * differences between successive snapshots (so dropped snapshots lose nothing); a counter that goes
 * down means the worker restarted and counts from zero again. Only whole seconds are published.
 */
public final class RateHistory {

    /** One finished second: deliveries sent, and attempts that did not deliver (retried or failed for good). */
    public record Point(long epochSecond, long sent, long failed) {
    }

    private final int keepSeconds;
    private final List<Point> points = new ArrayList<>();
    private WorkerSnapshot last;
    private long openSecond = Long.MIN_VALUE;
    private long openSent;
    private long openFailed;

    public RateHistory(int keepSeconds) {
        this.keepSeconds = keepSeconds;
    }

    /**
     * Takes a snapshot in; returns the seconds it finished (oldest first), each also kept in {@link #points()}.
     * Seconds in which nothing was reported are published as zeros, so the chart's time axis stays true.
     */
    public List<Point> add(WorkerSnapshot s) {
        List<Point> finished = new ArrayList<>();
        long second = s.at().getEpochSecond();
        long sent = 0;
        long failed = 0;
        if (last != null) {
            sent = delta(last.sentThisRun(), s.sentThisRun());
            failed = delta(last.failedThisRun() + last.retriedThisRun(), s.failedThisRun() + s.retriedThisRun());
        }
        last = s;
        if (openSecond == Long.MIN_VALUE) {
            openSecond = second;
        }
        if (second > openSecond) {
            finished.add(new Point(openSecond, openSent, openFailed));
            long gapFrom = Math.max(openSecond + 1, second - keepSeconds);
            for (long t = gapFrom; t < second; t++) {
                finished.add(new Point(t, 0, 0));
            }
            openSecond = second;
            openSent = 0;
            openFailed = 0;
        }
        openSent += sent;
        openFailed += failed;
        points.addAll(finished);
        int excess = points.size() - keepSeconds;
        if (excess > 0) {
            points.subList(0, excess).clear();
        }
        return finished;
    }

    private static long delta(long before, long after) {
        return after >= before ? after - before : after;
    }

    public List<Point> points() {
        return List.copyOf(points);
    }

    public int keepSeconds() {
        return keepSeconds;
    }
}
