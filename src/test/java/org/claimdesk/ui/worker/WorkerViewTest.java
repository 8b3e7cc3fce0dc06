package org.claimdesk.ui.worker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The rate chart's axes. */
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

    @Test
    void theTimeAxisGrowsFromOneMinuteToFiveInStepsOfItsTicks() {
        assertThat(WorkerView.timeSpan(0)).isEqualTo(60);
        assertThat(WorkerView.timeSpan(60)).isEqualTo(60);
        assertThat(WorkerView.timeSpan(61)).isEqualTo(90);
        assertThat(WorkerView.timeSpan(73)).as("the labels stay on multiples of 30 s").isEqualTo(90);
        assertThat(WorkerView.timeSpan(90)).isEqualTo(90);
        assertThat(WorkerView.timeSpan(91)).isEqualTo(120);
        assertThat(WorkerView.timeSpan(299)).isEqualTo(300);
        assertThat(WorkerView.timeSpan(300)).isEqualTo(WorkerViewModel.CHART_SECONDS);
        assertThat(WorkerView.timeSpan(10_000)).isEqualTo(300);
    }
}
