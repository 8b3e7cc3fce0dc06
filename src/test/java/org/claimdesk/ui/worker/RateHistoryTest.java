package org.claimdesk.ui.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.claimdesk.ui.testing.FakeWorker;
import org.junit.jupiter.api.Test;

class RateHistoryTest {
    static final Instant T = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void quietSecondsArePublishedAsZeros() {
        RateHistory h = new RateHistory(60);
        h.add(FakeWorker.running(T, 0, 0, 0, 0));
        h.add(FakeWorker.running(T.plusMillis(500), 0, 0, 5, 0));
        assertThat(h.add(FakeWorker.running(T.plusSeconds(3), 0, 0, 5, 0))).containsExactly(
                new RateHistory.Point(T.getEpochSecond(), 5, 0),
                new RateHistory.Point(T.getEpochSecond() + 1, 0, 0),
                new RateHistory.Point(T.getEpochSecond() + 2, 0, 0));
    }

    @Test
    void aRestartedWorkerCountsFromZeroAgain() {
        RateHistory h = new RateHistory(60);
        h.add(FakeWorker.running(T, 0, 0, 100, 10));
        h.add(FakeWorker.running(T.plusMillis(200), 0, 0, 3, 1));
        h.add(FakeWorker.running(T.plusSeconds(1), 0, 0, 3, 1));
        assertThat(h.points()).containsExactly(new RateHistory.Point(T.getEpochSecond(), 3, 1));
    }

    @Test
    void keepsOnlyTheLastSeconds() {
        RateHistory h = new RateHistory(10);
        for (int s = 0; s <= 30; s++) {
            h.add(FakeWorker.running(T.plusSeconds(s), 0, 0, s, 0));
        }
        assertThat(h.points()).hasSize(10);
        assertThat(h.points().get(9).epochSecond()).isEqualTo(T.getEpochSecond() + 29);
    }
}
