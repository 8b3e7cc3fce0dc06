package org.claimdesk.ui.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.claimdesk.ui.common.TaskRunner;

/** Runs background work at once on the calling thread: ViewModel tests need neither the FX thread nor waits. */
public class DirectTaskRunner implements TaskRunner {
    public final List<String> ran = new ArrayList<>();
    public final List<ProgressUpdate> progress = new ArrayList<>();
    /** When set, {@link #afterNextFrame} keeps what it is given in {@link #frames} for the test to run. */
    public boolean holdFrames;
    public final List<Runnable> frames = new ArrayList<>();

    @Override
    public void afterNextFrame(Runnable then) {
        if (holdFrames) {
            frames.add(then);
        } else {
            then.run();
        }
    }

    /** The pauses asked of {@link #afterPause}, in order; the work is then held or run as {@link #afterNextFrame}'s. */
    public final List<Duration> pauses = new ArrayList<>();

    @Override
    public void afterPause(Duration pause, Runnable then) {
        pauses.add(pause);
        afterNextFrame(then);
    }

    /** Work of these names is kept in {@link #held} instead of run, for the test to run when it likes. */
    public final java.util.Set<String> hold = new java.util.HashSet<>();
    public final List<Runnable> held = new ArrayList<>();

    @Override
    public <T> void submit(String what, Work<T> work, Consumer<? super T> onSuccess,
            Consumer<? super Throwable> onFailure, Consumer<ProgressUpdate> onProgress) {
        if (hold.contains(what)) {
            held.add(() -> runNow(what, work, onSuccess, onFailure, onProgress));
            return;
        }
        runNow(what, work, onSuccess, onFailure, onProgress);
    }

    private <T> void runNow(String what, Work<T> work, Consumer<? super T> onSuccess,
            Consumer<? super Throwable> onFailure, Consumer<ProgressUpdate> onProgress) {
        ran.add(what);
        T result;
        try {
            result = work.call((done, total, message) -> {
                ProgressUpdate u = new ProgressUpdate(done, total, message);
                progress.add(u);
                onProgress.accept(u);
            });
        } catch (Exception e) {
            onFailure.accept(e);
            return;
        }
        onSuccess.accept(result);
    }

    @Override
    public Executor uiThread() {
        return Runnable::run;
    }
}
