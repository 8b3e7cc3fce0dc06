package org.claimdesk.ui.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.claimdesk.ui.common.TaskRunner;

/**
 * Holds submitted work until the test runs it, in any order: for testing that a late result of an older
 * request never overwrites a newer one.
 */
public final class QueuedTaskRunner implements TaskRunner {
    /** Each task's work, which returns the delivery of its outcome (the success or failure callback). */
    private final List<java.util.function.Supplier<Runnable>> queued = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    private final List<Object> results = new ArrayList<>();
    private final List<String> submitted = new ArrayList<>();

    @Override
    public <T> void submit(String what, Work<T> work, Consumer<? super T> onSuccess,
            Consumer<? super Throwable> onFailure, Consumer<ProgressUpdate> onProgress) {
        names.add(what);
        submitted.add(what);
        queued.add(() -> {
            T result;
            try {
                result = work.call(Progress.NONE);
            } catch (Exception e) {
                return () -> onFailure.accept(e);
            }
            results.add(result);
            return () -> onSuccess.accept(result);
        });
    }

    public List<String> names() {
        return List.copyOf(names);
    }

    /** The name of every task submitted so far, run or not, in the order they came. */
    public List<String> submitted() {
        return List.copyOf(submitted);
    }

    /** What each task run so far returned, in the order they ran (null where the work returned null). */
    public List<Object> results() {
        return java.util.Collections.unmodifiableList(results);
    }

    public int size() {
        return queued.size();
    }

    /** Runs the task queued at {@code index} (counting tasks not yet run). */
    public void run(int index) {
        names.remove(index);
        queued.remove(index).get().run();
    }

    /** A task's work done, its outcome not yet handed to the UI: {@link #deliver} hands it over. */
    public record Held(Runnable outcome) {
        public void deliver() {
            outcome.run();
        }
    }

    /** Runs the work of the task queued at {@code index} and holds its outcome, as a busy UI thread would. */
    public Held holdResult(int index) {
        names.remove(index);
        return new Held(queued.remove(index).get());
    }

    public void runAll() {
        while (!queued.isEmpty()) {
            run(0);
        }
    }

    @Override
    public Executor uiThread() {
        return Runnable::run;
    }
}
