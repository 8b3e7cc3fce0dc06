package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BackoffTest {
    private static final Duration BASE = Duration.ofSeconds(2);
    private static final Duration CAP = Duration.ofMinutes(10);

    @Test
    void ceilingDoublesFromTheBaseUntilTheCap() {
        long[] expectedSeconds = {2, 4, 8, 16, 32, 64, 128, 256, 512, 600, 600};
        for (int retry = 1; retry <= expectedSeconds.length; retry++) {
            assertThat(Backoff.ceiling(retry, BASE, CAP)).as("retry %d", retry)
                    .isEqualTo(Duration.ofSeconds(expectedSeconds[retry - 1]));
        }
        assertThat(Backoff.ceiling(100, BASE, CAP)).isEqualTo(CAP);
        assertThatThrownBy(() -> Backoff.ceiling(0, BASE, CAP)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fullJitterSpreadsWaitsOverTheWholeRangeBelowTheCeiling() {
        Random random = new Random(42);
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int i = 0; i < 10_000; i++) {
            long ms = Backoff.delay(4, BASE, CAP, null, random::nextDouble).toMillis();
            assertThat(ms).isBetween(0L, 16_000L);
            min = Math.min(min, ms);
            max = Math.max(max, ms);
        }
        assertThat(min).isLessThan(500);
        assertThat(max).isGreaterThan(15_500);
        assertThat(Backoff.delay(3, BASE, CAP, null, () -> 0.5)).isEqualTo(Duration.ofSeconds(4));
        assertThat(Backoff.delay(30, BASE, CAP, null, () -> 0.999_999)).isLessThanOrEqualTo(CAP);
    }

    @Test
    void retryAfterIsAFloorUnderTheJitteredWait() {
        assertThat(Backoff.delay(1, BASE, CAP, Duration.ofSeconds(30), () -> 0.9)).isEqualTo(Duration.ofSeconds(30));
        assertThat(Backoff.delay(10, BASE, CAP, Duration.ofSeconds(1), () -> 0.5)).isEqualTo(Duration.ofSeconds(300));
    }
}
