package org.claimdesk.bench.ui;

import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Looks at the FX thread while no pulse comes: every 10 ms a thread of its own checks how long ago the last pulse
 * started and, once that is over {@value #AFTER_MILLIS} ms, takes the FX thread's state and top stack frames once for
 * that gap. A slow pulse then says what the FX thread was doing in it (in the event loop's wait, on a lock, in the
 * page's layout), which its processor time alone does not.
 */
final class GapWatch implements AutoCloseable {
    static final long AFTER_MILLIS = 40;
    private static final int FRAMES = 8;
    private final Thread fxThread;
    private final ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bench-gap-watch");
        t.setDaemon(true);
        return t;
    });
    private volatile long lastPulse;
    private volatile long sampledFor = -1;
    private volatile String sample;

    /** Starts watching the calling thread, which must be the FX thread. */
    GapWatch() {
        this.fxThread = Thread.currentThread();
        this.lastPulse = System.nanoTime();
        watch.scheduleAtFixedRate(this::look, 10, 10, TimeUnit.MILLISECONDS);
    }

    /**
     * Called at each pulse with its start ({@link System#nanoTime}): what was seen in the gap that ended, or null;
     * then the next gap is watched.
     */
    String pulse(long now) {
        long ended = lastPulse;
        String seen = sampledFor == ended ? sample : null;
        lastPulse = now;
        return seen;
    }

    private void look() {
        long last = lastPulse;
        if (sampledFor != last && System.nanoTime() - last > AFTER_MILLIS * 1_000_000L) {
            StackTraceElement[] stack = fxThread.getStackTrace();
            sample = fxThread.getState() + " in " + Arrays.stream(stack).limit(FRAMES)
                    .map(f -> f.getClassName().substring(f.getClassName().lastIndexOf('.') + 1) + "." + f.getMethodName())
                    .collect(Collectors.joining(" < "));
            sampledFor = last;
        }
    }

    @Override
    public void close() {
        watch.shutdownNow();
    }
}
