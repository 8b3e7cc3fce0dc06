package org.claimdesk.bench.ui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Looks at the FX thread while no pulse comes: every 10 ms a thread of its own checks how long ago the last pulse
 * started and, once that is over {@value #AFTER_MILLIS} ms, takes the FX thread's state and top stack frames once for
 * that gap. A slow pulse then says what the FX thread was doing in it (in the event loop's wait, on a lock, in the
 * page's layout), which its processor time alone does not. On Linux it adds where the kernel holds the thread
 * ({@code /proc/…/wchan}, with the thread's scheduler state): in native code Java reports only RUNNABLE, whether the
 * thread polls for events, waits for a lock or runs.
 */
final class GapWatch implements AutoCloseable {
    static final long AFTER_MILLIS = 40;
    private static final int FRAMES = 8;
    private final Thread fxThread;
    /** The FX thread's {@code /proc} folder, or null where there is none. */
    private final Path fxTask;
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
        this.fxTask = ThreadSchedule.currentTask();
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
            // the kernel's view first: taking the stack stops the thread at a safepoint for a moment
            String kernel = fxTask == null ? null : inKernel();
            StackTraceElement[] stack = fxThread.getStackTrace();
            String java = fxThread.getState() + " in " + Arrays.stream(stack).limit(FRAMES)
                    .map(f -> f.getClassName().substring(f.getClassName().lastIndexOf('.') + 1) + "." + f.getMethodName())
                    .collect(Collectors.joining(" < "));
            sample = kernel == null ? java : kernel + ", " + java;
            sampledFor = last;
        }
    }

    /** The thread's state letter (R running or runnable, S sleeping, D uninterruptible) and where it sleeps. */
    private String inKernel() {
        String state;
        try {
            state = "kernel " + ProcStat.fieldsAfterName(fxTask.resolve("stat"))[0];
        } catch (IOException | RuntimeException e) {
            state = "kernel state not read";
        }
        try {
            String wchan = Files.readString(fxTask.resolve("wchan")).strip();
            return wchan.isEmpty() || wchan.equals("0") ? state : state + " in " + wchan;
        } catch (IOException | RuntimeException e) {
            return state;
        }
    }

    @Override
    public void close() {
        watch.shutdownNow();
    }
}
