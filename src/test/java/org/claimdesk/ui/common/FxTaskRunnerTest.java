package org.claimdesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javafx.application.Platform;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;

/**
 * A task counts as running until its result is shown on the FX thread: the console's "idle" (every page built,
 * nothing running) must not come between a read's end and its rows reaching the page.
 */
class FxTaskRunnerTest {
    private final ExecutorService background = Executors.newSingleThreadExecutor();
    private final ExecutorService interactive = Executors.newSingleThreadExecutor();
    private final FxTaskRunner tasks = new FxTaskRunner(background, interactive);

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @AfterEach
    void stop() {
        background.shutdownNow();
        interactive.shutdownNow();
    }

    @Test
    void aTaskWhoseResultIsNotShownYetStillRuns() throws Exception {
        CountDownLatch fxHeld = new CountDownLatch(1);
        CountDownLatch releaseFx = new CountDownLatch(1);
        Platform.runLater(() -> {
            fxHeld.countDown();
            await(releaseFx);
        });
        assertThat(fxHeld.await(10, TimeUnit.SECONDS)).isTrue();

        CountDownLatch worked = new CountDownLatch(1);
        AtomicReference<String> shown = new AtomicReference<>();
        try {
            tasks.submitInteractive("read a page", p -> {
                worked.countDown();
                return "rows";
            }, shown::set, e -> { });
            assertThat(worked.await(10, TimeUnit.SECONDS)).isTrue();
            // the work is done but the FX thread has not shown its result: still running
            interactive.submit(() -> { }).get(10, TimeUnit.SECONDS);
            assertThat(tasks.running()).isEqualTo(1);
            assertThat(shown.get()).isNull();
        } finally {
            releaseFx.countDown();
        }
        CountDownLatch afterResult = new CountDownLatch(1);
        Platform.runLater(afterResult::countDown);
        assertThat(afterResult.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(shown.get()).isEqualTo("rows");
        assertThat(tasks.running()).isZero();
    }

    /**
     * Work that keeps failing (a read at every tick while the database is away) leaves one trace in the log, not one
     * per try, which would push the log's older days out; its recovery is said, and a new failure traced again.
     */
    @Test
    void workThatKeepsFailingIsTracedOnceUntilItWorksAgain() throws Exception {
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory
                .getLogger(FxTaskRunner.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> appender =
                new ch.qos.logback.core.read.ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        ch.qos.logback.classic.Level before = logger.getLevel();
        logger.setLevel(ch.qos.logback.classic.Level.INFO);
        try {
            AtomicInteger tries = new AtomicInteger();
            for (int i = 0; i < 5; i++) {
                runAndWait("read the pause", () -> {
                    tries.incrementAndGet();
                    throw new IllegalStateException("the database file is gone");
                });
            }
            // another cause while it keeps failing is news: traced
            runAndWait("read the pause", () -> {
                throw new IllegalStateException("the database is locked");
            });
            runAndWait("read the pause", () -> "paused");
            runAndWait("read the pause", () -> {
                throw new IllegalStateException("the database file is gone");
            });

            assertThat(tries.get()).isEqualTo(5);
            assertThat(appender.list).extracting(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
                    .containsExactly("read the pause failed: java.lang.IllegalStateException: the database file is gone",
                            "read the pause failed: java.lang.IllegalStateException: the database is locked",
                            "read the pause works again",
                            "read the pause failed: java.lang.IllegalStateException: the database file is gone");
            assertThat(appender.list.get(0).getThrowableProxy()).as("the first with its trace").isNotNull();
        } finally {
            logger.detachAppender(appender);
            logger.setLevel(before);
        }
    }

    private void runAndWait(String what, java.util.concurrent.Callable<Object> work) throws Exception {
        CountDownLatch shown = new CountDownLatch(1);
        tasks.submit(what, p -> work.call(), r -> shown.countDown(), e -> shown.countDown());
        assertThat(shown.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aFailedTaskStopsRunningOnceItsFailureIsShown() throws Exception {
        CountDownLatch failed = new CountDownLatch(1);
        AtomicReference<Integer> runningWhenShown = new AtomicReference<>();
        tasks.submit("count rows", p -> {
            throw new IllegalStateException("the database is locked");
        }, r -> { }, e -> {
            runningWhenShown.set(tasks.running());
            failed.countDown();
        });
        assertThat(failed.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(runningWhenShown.get()).as("while its failure is shown").isEqualTo(1);
        CountDownLatch after = new CountDownLatch(1);
        Platform.runLater(after::countDown);
        assertThat(after.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(tasks.running()).isZero();
    }

    @Test
    void aTimerRunsOnTheFxThreadAfterItsDelayAndKeepsNothingBusy() throws Exception {
        Scheduled timer = schedule(tasks::after);
        assertThat(timer.waitedNanos()).as("ns from asking to running").isGreaterThanOrEqualTo(300_000_000L);
        assertThat(timer.ranOnFx()).isTrue();
        assertThat(timer.runningMeanwhile()).as("while it waits").isZero();
    }

    @Test
    void workAfterAPauseWaitsThePauseAndCountsAsRunningMeanwhile() throws Exception {
        Scheduled work = schedule(tasks::afterPause);
        assertThat(work.waitedNanos()).as("ns from asking to running").isGreaterThanOrEqualTo(300_000_000L);
        assertThat(work.ranOnFx()).isTrue();
        assertThat(work.runningMeanwhile()).as("while it waits").isEqualTo(1);
        CountDownLatch after = new CountDownLatch(1);
        Platform.runLater(after::countDown);
        assertThat(after.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(tasks.running()).isZero();
    }

    /** How a piece of work given 300 ms went: how long until it ran, where, and what was running meanwhile. */
    private record Scheduled(long waitedNanos, boolean ranOnFx, int runningMeanwhile) {
    }

    /** Asks {@code scheduler}, on the FX thread, to run a piece of work 300 ms later, and waits for it. */
    private Scheduled schedule(java.util.function.BiConsumer<Duration, Runnable> scheduler) throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        AtomicLong asked = new AtomicLong();
        AtomicLong done = new AtomicLong();
        AtomicInteger runningMeanwhile = new AtomicInteger(-1);
        AtomicReference<Boolean> onFx = new AtomicReference<>();
        Platform.runLater(() -> {
            asked.set(System.nanoTime());
            scheduler.accept(Duration.ofMillis(300), () -> {
                done.set(System.nanoTime());
                onFx.set(Platform.isFxApplicationThread());
                ran.countDown();
            });
            runningMeanwhile.set(tasks.running());
        });
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        return new Scheduled(done.get() - asked.get(), onFx.get(), runningMeanwhile.get());
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
