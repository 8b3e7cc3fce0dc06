package org.claimdesk.ui.common;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javafx.application.Platform;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Background work on a named executor; results, failures and progress on the FX application thread. */
public final class FxTaskRunner implements TaskRunner {
    private static final Logger LOG = LoggerFactory.getLogger(FxTaskRunner.class);
    /** A result handler holding the FX thread this long is logged (two frames at 60 Hz, and a bit). */
    static final long SLOW_HANDLER_MS = 35;

    private final ExecutorService background;
    private final ExecutorService interactive;
    private final java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicLong ids = new java.util.concurrent.atomic.AtomicLong();
    /** Started work by id: what it is and when it started (nanoTime). */
    private final java.util.Map<Long, java.util.Map.Entry<String, Long>> started =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * @param background counts, groupings, exports and writes
     * @param interactive pages and details staff are waiting on
     */
    public FxTaskRunner(ExecutorService background, ExecutorService interactive) {
        this.background = background;
        this.interactive = interactive;
    }

    @Override
    public <T> void submit(String what, Work<T> work, Consumer<? super T> onSuccess,
            Consumer<? super Throwable> onFailure, Consumer<ProgressUpdate> onProgress) {
        run(background, what, work, onSuccess, onFailure, onProgress);
    }

    @Override
    public <T> void submitInteractive(String what, Work<T> work, Consumer<? super T> onSuccess,
            Consumer<? super Throwable> onFailure) {
        run(interactive, what, work, onSuccess, onFailure, update -> { });
    }

    private <T> void run(ExecutorService executor, String what, Work<T> work, Consumer<? super T> onSuccess,
            Consumer<? super Throwable> onFailure, Consumer<ProgressUpdate> onProgress) {
        Coalescer<ProgressUpdate> progress = new Coalescer<>(Platform::runLater, onProgress);
        running.incrementAndGet();
        try {
            executor.execute(() -> {
                long started = System.nanoTime();
                long id = ids.incrementAndGet();
                this.started.put(id, java.util.Map.entry(what, started));
                // the task is finished once its result is shown: until then running() counts it
                Runnable show;
                try {
                    T result = work.call((done, total, message) -> progress.offer(new ProgressUpdate(done, total, message)));
                    LOG.debug("{} took {} ms", what, (System.nanoTime() - started) / 1_000_000);
                    if (failing.remove(what) != null) {
                        LOG.info("{} works again", what);
                    }
                    show = () -> applied(what, () -> onSuccess.accept(result));
                } catch (java.util.concurrent.CancellationException e) {
                    LOG.debug("{} cancelled", what);
                    show = () -> onFailure.accept(e);
                } catch (org.claimdesk.store.DatabaseException failed) {
                    // a database failure is shown to staff in its sentence and kept in the log with its trace, once
                    // while the same work keeps failing (a read at every tick while the database is away)
                    logFailure(what, failed.getMessage(), failed);
                    show = () -> onFailure.accept(failed);
                } catch (org.claimdesk.domain.ClaimDeskException refused) {
                    // a refusal staff are shown: its words (without personal data), not a trace
                    LOG.info("{} refused: {}", what, refused.forLog());
                    show = () -> onFailure.accept(refused);
                } catch (Exception | Error e) {
                    logFailure(what, e.toString(), e);
                    show = () -> onFailure.accept(e);
                } finally {
                    this.started.remove(id);
                }
                Runnable shown = show;
                Platform.runLater(() -> {
                    try {
                        shown.run();
                    } finally {
                        running.decrementAndGet();
                    }
                });
            });
        } catch (RejectedExecutionException e) {
            running.decrementAndGet();
            LOG.info("{} not started: the console is closing", what);
        }
    }

    /** Runs a result handler on the FX thread; one that holds the thread for more than a frame or two is logged. */
    private static void applied(String what, Runnable handler) {
        long started = System.nanoTime();
        handler.run();
        long millis = (System.nanoTime() - started) / 1_000_000;
        if (millis >= SLOW_HANDLER_MS) {
            LOG.info("{}: showing the result held the FX thread for {} ms", what, millis);
        }
    }

    /**
     * The work that has been running longest, if longer than {@code thresholdMillis}: its name and
     * how long it has run. Staff see it in the status bar, e.g. while a write waits for a database
     * another program holds locked.
     */
    public java.util.Optional<java.util.Map.Entry<String, Long>> slowest(long thresholdMillis) {
        long now = System.nanoTime();
        return started.values().stream()
                .map(e -> java.util.Map.entry(e.getKey(), (now - e.getValue()) / 1_000_000))
                .filter(e -> e.getValue() >= thresholdMillis)
                .max(java.util.Map.Entry.comparingByValue());
    }

    /**
     * Tasks submitted and not finished yet (running, or their result or failure not yet shown), and work waiting for
     * its frame or its pause ({@link #afterNextFrame}, {@link #afterPause}).
     */
    public int running() {
        return running.get();
    }

    @Override
    public void afterNextFrame(Runnable then) {
        afterPause(Duration.ZERO, then);
    }

    @Override
    public void afterPause(Duration pause, Runnable then) {
        // counted as running, so that the console is not idle while work waits for its frame
        running.incrementAndGet();
        long due = System.nanoTime() + pause.toNanos();
        new javafx.animation.AnimationTimer() {
            private int pulses;

            @Override
            public void handle(long now) {
                if (++pulses >= 2 && System.nanoTime() >= due) {
                    stop();
                    try {
                        then.run();
                    } finally {
                        running.decrementAndGet();
                    }
                }
            }
        }.start();
    }

    @Override
    public void after(Duration delay, Runnable then) {
        CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS, Platform::runLater).execute(then);
    }

    @Override
    public Executor uiThread() {
        return Platform::runLater;
    }

    /** A failure logged with its trace: its cause (type and message) and when. */
    private record Traced(String cause, long atNanos) {
    }

    /** How long the same failure of the same work is not traced again, while the work keeps failing. */
    private static final long TRACED_FOR_NANOS = java.time.Duration.ofHours(1).toNanos();

    /**
     * The kinds of work ({@code what}) whose last run failed, with the failure traced: the same failure again within
     * the hour (a read at every tick while the database is away) is one debug line; another cause is traced.
     */
    private final java.util.Map<String, Traced> failing = new java.util.concurrent.ConcurrentHashMap<>();

    private void logFailure(String what, String message, Throwable e) {
        String cause = e.getClass().getName() + ": " + message;
        long now = System.nanoTime();
        Traced last = failing.get(what);
        if (last != null && last.cause().equals(cause) && now - last.atNanos() < TRACED_FOR_NANOS) {
            LOG.debug("{} failed again: {}", what, message);
        } else {
            failing.put(what, new Traced(cause, now));
            LOG.warn("{} failed: {}", what, message, e);
        }
    }
}
