package org.claimdesk.bench.ui;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where one thread's time went, as Linux counts it in {@code /proc/.../schedstat}: on a processor, and runnable but
 * waiting for one. A slow pulse whose FX thread waited for a processor had the machine too busy; one whose FX thread
 * neither ran nor waited was blocked (on the renderer, a lock). Elsewhere than on Linux nothing is read.
 */
final class ThreadSchedule {
    private final Path file;
    private final Growing runNanos = new Growing();
    private final Growing waitNanos = new Growing();

    private ThreadSchedule(Path file) {
        this.file = file;
    }

    /** The calling thread's schedule, or null where the system does not report it. */
    static ThreadSchedule ofCurrentThread() {
        Path task = currentTask();
        return task == null ? null : readable(task.resolve("schedstat"));
    }

    /**
     * The calling thread's folder in {@code /proc} ({@code /proc/PID/task/TID}), which other threads can read too
     * (unlike {@code /proc/thread-self}, which is the reader's own); null where there is none.
     */
    static Path currentTask() {
        try {
            Path self = Path.of("/proc/thread-self");
            return self.getParent().resolve(Files.readSymbolicLink(self)).toRealPath();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The schedule of this process's first thread whose name (as the system keeps it, at most 15 characters)
     * starts with {@code prefix}, or null.
     */
    static ThreadSchedule ofThreadNamed(String prefix) {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                if (Files.readString(task.resolve("comm")).startsWith(prefix)) {
                    return readable(task.resolve("schedstat"));
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /**
     * The schedule of the first process on this machine whose name is one of {@code names} (its main thread: the X
     * server the console draws to, say), or null.
     */
    static ThreadSchedule ofProcessNamed(java.util.Set<String> names) {
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path process : processes) {
                try {
                    if (names.contains(Files.readString(process.resolve("comm")).strip())) {
                        return readable(process.resolve("schedstat"));
                    }
                } catch (IOException ended) {
                    // the process ended while the list was read
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    private static ThreadSchedule readable(Path file) {
        ThreadSchedule schedule = new ThreadSchedule(file);
        return schedule.sample() ? schedule : null;
    }

    /** Reads the counters again; {@link #ranMillis} and {@link #waitedMillis} are then since the sample before. */
    boolean sample() {
        try {
            String[] fields = Files.readString(file).trim().split(" ");
            long run = Long.parseLong(fields[0]);
            long wait = Long.parseLong(fields[1]);
            runNanos.read(run);
            waitNanos.read(wait);
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Processor time between the last two samples, in ms. */
    long ranMillis() {
        return Math.round(runNanos.sinceBefore() / 1e6);
    }

    /** Time spent runnable but waiting for a processor between the last two samples, in ms. */
    long waitedMillis() {
        return Math.round(waitNanos.sinceBefore() / 1e6);
    }

    /** Processor time from the first sample to the last, in ms. */
    long ranInAllMillis() {
        return Math.round(runNanos.sinceFirst() / 1e6);
    }

    /** Time spent waiting for a processor from the first sample to the last, in ms. */
    long waitedInAllMillis() {
        return Math.round(waitNanos.sinceFirst() / 1e6);
    }
}
