package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LeaseWindowTest {
    private static final WorkerSettings SIXTEEN = WorkerSettings.defaults().withConcurrency(16);

    @Test
    void beforeAnyCallTheWindowIsTwiceTheConcurrency() {
        assertThat(new LeaseWindow().size(SIXTEEN)).isEqualTo(32);
        assertThat(new LeaseWindow().size(SIXTEEN.withConcurrency(3))).isEqualTo(6);
    }

    @Test
    void theWindowHoldsWhatTheSendersGetThroughInAQuarterSecondBetweenItsFloorAndItsCeiling() {
        LeaseWindow window = new LeaseWindow();
        window.observeCall(20);
        // 16 senders at 20 ms: 800 calls a second, 200 in 250 ms
        assertThat(window.size(SIXTEEN)).isEqualTo(200);

        LeaseWindow slow = new LeaseWindow();
        slow.observeCall(1_000);
        assertThat(slow.size(SIXTEEN)).as("never below twice the concurrency").isEqualTo(32);

        LeaseWindow fast = new LeaseWindow();
        fast.observeCall(0);
        assertThat(fast.size(SIXTEEN)).as("at most " + LeaseWindow.MAX).isEqualTo(LeaseWindow.MAX);
    }

    @Test
    void theCallDurationIsAMovingAverageWeightingEachNewCallATenth() {
        LeaseWindow window = new LeaseWindow();
        window.observeCall(10);
        window.observeCall(110);
        // average 20 ms
        assertThat(window.size(SIXTEEN)).isEqualTo(200);
    }
}
