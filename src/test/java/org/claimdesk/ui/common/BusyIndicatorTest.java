package org.claimdesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javafx.animation.PauseTransition;
import javafx.application.Platform;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.scene.control.ProgressIndicator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/** A page's busy indicator appears only for work that lasts, and goes as soon as the work ends. */
class BusyIndicatorTest {
    private static final javafx.util.Duration DELAY = BusyIndicator.DELAY;

    private final SimpleBooleanProperty busy = new SimpleBooleanProperty();
    private final ProgressIndicator indicator = new ProgressIndicator();
    /** Every visibility the indicator took, with the milliseconds since the work began. */
    private final List<String> shown = new CopyOnWriteArrayList<>();
    private volatile long began;

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    private void bind() throws Exception {
        WaitForAsyncUtils.asyncFx(() -> {
            BusyIndicator.bind(indicator, busy);
            indicator.visibleProperty().addListener((o, was, now) ->
                    shown.add(now + " after " + (System.nanoTime() - began) / 1_000_000 + " ms"));
        }).get(10, TimeUnit.SECONDS);
    }

    private void onFx(Runnable action) throws Exception {
        WaitForAsyncUtils.asyncFx(action).get(10, TimeUnit.SECONDS);
    }

    /** Waits on the FX thread's own clock for {@code millis}: what the indicator's delay is measured by. */
    private static void fxTimePasses(long millis) throws Exception {
        CountDownLatch passed = new CountDownLatch(1);
        Platform.runLater(() -> {
            PauseTransition pause = new PauseTransition(javafx.util.Duration.millis(millis));
            pause.setOnFinished(e -> passed.countDown());
            pause.play();
        });
        assertThat(passed.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void workThatEndsBeforeTheDelayShowsNothing() throws Exception {
        bind();
        assertThat(indicator.isVisible()).as("hidden while idle").isFalse();
        onFx(() -> {
            began = System.nanoTime();
            busy.set(true);
        });
        onFx(() -> busy.set(false));
        fxTimePasses(3 * (long) DELAY.toMillis());
        assertThat(shown).as("the indicator never appeared").isEmpty();
    }

    @Test
    void workThatLastsShowsTheIndicatorAfterTheDelayUntilItEnds() throws Exception {
        bind();
        onFx(() -> {
            began = System.nanoTime();
            busy.set(true);
        });
        await().atMost(Duration.ofSeconds(10)).until(indicator::isVisible);
        long waited = (System.nanoTime() - began) / 1_000_000;
        assertThat(waited).as("shown after the delay, not at once").isGreaterThanOrEqualTo((long) DELAY.toMillis());

        onFx(() -> busy.set(false));
        assertThat(indicator.isVisible()).as("hidden as soon as the work ends").isFalse();
        assertThat(indicator.isManaged()).as("keeps its place in the layout").isTrue();
    }

    @Test
    void workEndingAndStartingAgainRestartsTheDelay() throws Exception {
        bind();
        onFx(() -> {
            began = System.nanoTime();
            busy.set(true);
        });
        fxTimePasses((long) DELAY.toMillis() / 2);
        onFx(() -> {
            busy.set(false);
            busy.set(true);
        });
        fxTimePasses((long) DELAY.toMillis() * 2 / 3);
        assertThat(shown).as("two short reads in a row are not one long one").isEmpty();
        await().atMost(Duration.ofSeconds(10)).until(indicator::isVisible);
        onFx(() -> busy.set(false));
        assertThat(shown).hasSize(2);
    }

    @Test
    void anIndicatorBoundWhileWorkRunsAppearsAfterTheDelay() throws Exception {
        onFx(() -> {
            began = System.nanoTime();
            busy.set(true);
        });
        bind();
        assertThat(indicator.isVisible()).isFalse();
        await().atMost(Duration.ofSeconds(10)).until(indicator::isVisible);
        // the visibility is read here as the FX thread sets it, before its listeners have run: they end with this
        onFx(() -> { });
        assertThat(shown).singleElement().asString().startsWith("true");
    }
}
