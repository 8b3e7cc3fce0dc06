package org.claimdesk.ui.common;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * Runs work off the UI thread and hands its result back on the UI thread. ViewModels depend on this
 * interface only: the console uses {@link FxTaskRunner}; tests use a same-thread double, so they need
 * neither the FX thread nor sleeps.
 */
public interface TaskRunner {

    /** A piece of background work that may report progress. */
    @FunctionalInterface
    interface Work<T> {
        T call(Progress progress) throws Exception;
    }

    /** Progress as the work sees it; updates reach the UI thread coalesced (the newest wins). */
    @FunctionalInterface
    interface Progress {
        void update(long done, long total, String message);

        Progress NONE = (done, total, message) -> { };
    }

    /** A progress update as the UI thread receives it. */
    record ProgressUpdate(long done, long total, String message) {
        public double fraction() {
            return total <= 0 ? 0.0 : Math.min(1.0, (double) done / total);
        }
    }

    /**
     * Runs {@code work} in the background; exactly one of {@code onSuccess} and {@code onFailure} then runs
     * on the UI thread. {@code onProgress} runs on the UI thread too, for the latest update only.
     *
     * @param what a short name for logs, e.g. "load claims page"
     */
    <T> void submit(String what, Work<T> work, Consumer<? super T> onSuccess, Consumer<? super Throwable> onFailure,
            Consumer<ProgressUpdate> onProgress);

    default <T> void submit(String what, Work<T> work, Consumer<? super T> onSuccess,
            Consumer<? super Throwable> onFailure) {
        submit(what, work, onSuccess, onFailure, update -> { });
    }

    /**
     * As {@link #submit(String, Work, Consumer, Consumer)}, for reads staff are waiting on (the page of rows
     * they asked for, the detail of what they selected): they never queue behind counts, groupings or
     * exports.
     */
    default <T> void submitInteractive(String what, Work<T> work, Consumer<? super T> onSuccess,
            Consumer<? super Throwable> onFailure) {
        submit(what, work, onSuccess, onFailure);
    }

    /** Where results are applied: the FX application thread in the console. */
    Executor uiThread();

    /**
     * Runs {@code then} on the UI thread once what the UI thread has just changed is on screen (in the console, at
     * the start of the second pulse from now: the first one laid out and drew the change), so that work it
     * starts does not take the processors from that frame. Where nothing is drawn it runs at once.
     */
    default void afterNextFrame(Runnable then) {
        then.run();
    }

    /**
     * Runs {@code then} on the UI thread at the first pulse at least {@code pause} after this call, and no sooner
     * than {@link #afterNextFrame} would: for work that can wait until what a switch of page set off (its layout
     * and drawing, reads, a worker's start) is over. Where nothing is drawn it runs at once.
     */
    default void afterPause(Duration pause, Runnable then) {
        then.run();
    }

    /**
     * Runs {@code then} on the UI thread once {@code delay} has passed: a timer, not work waiting for its frame, so
     * it neither keeps the console busy nor has frames drawn while it waits. Where nothing is drawn it runs at once.
     */
    default void after(Duration delay, Runnable then) {
        then.run();
    }
}
