package org.claimdesk.ui.common;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import javafx.application.Platform;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Background work on a named executor; results, failures and progress on the FX application thread. */
public final class FxTaskRunner implements TaskRunner {
    private static final Logger LOG = LoggerFactory.getLogger(FxTaskRunner.class);

    private final ExecutorService background;

    public FxTaskRunner(ExecutorService background) {
        this.background = background;
    }

    @Override
    public <T> void submit(String what, Work<T> work, Consumer<? super T> onSuccess,
            Consumer<? super Throwable> onFailure, Consumer<ProgressUpdate> onProgress) {
        Coalescer<ProgressUpdate> progress = new Coalescer<>(Platform::runLater, onProgress);
        try {
            background.execute(() -> {
                long started = System.nanoTime();
                try {
                    T result = work.call((done, total, message) -> progress.offer(new ProgressUpdate(done, total, message)));
                    LOG.debug("{} took {} ms", what, (System.nanoTime() - started) / 1_000_000);
                    Platform.runLater(() -> onSuccess.accept(result));
                } catch (Exception | Error e) {
                    LOG.warn("{} failed: {}", what, e.toString(), e);
                    Platform.runLater(() -> onFailure.accept(e));
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.info("{} not started: the console is closing", what);
        }
    }

    @Override
    public Executor uiThread() {
        return Platform::runLater;
    }
}
