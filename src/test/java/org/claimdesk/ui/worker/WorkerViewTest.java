package org.claimdesk.ui.worker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The rate chart's vertical axis. */
class WorkerViewTest {

    @Test
    void theRateAxisShowsAtLeastTenPerSecondAndRoundsUpAboveTheHighestRate() {
        assertThat(WorkerView.rateAxisTop(0)).as("no deliveries: the axis keeps a scale").isEqualTo(10);
        assertThat(WorkerView.rateAxisTop(9)).isEqualTo(10);
        assertThat(WorkerView.rateAxisTop(10)).isEqualTo(20);
        assertThat(WorkerView.rateAxisTop(17)).isEqualTo(20);
        assertThat(WorkerView.rateAxisTop(40)).isEqualTo(50);
        assertThat(WorkerView.rateAxisTop(95)).isEqualTo(200);
        assertThat(WorkerView.rateAxisTop(780)).isEqualTo(1_000);
        assertThat(WorkerView.rateAxisTop(52_000)).isEqualTo(100_000);
    }
}
