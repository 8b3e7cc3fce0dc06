package org.claimdesk.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The steady rate of {@code bench drain --db}: the calls between the 10th and 90th percentile of their ends. */
class TeamDrainBenchmarkTest {

    @Test
    void theSteadyRateLeavesOutASlowStartAndASlowEnd() {
        // 5 calls in the first 2 s (the JVM warming up), then 90 at one every 10 ms, then 5 in the last 2 s
        long[] ends = LongStream.concat(LongStream.concat(LongStream.range(0, 5).map(i -> i * 400),
                LongStream.range(0, 90).map(i -> 2_000 + i * 10)), LongStream.range(0, 5).map(i -> 3_000 + i * 400))
                .toArray();

        assertThat(TeamDrainBenchmark.steadyRate(ends)).isCloseTo(100.0, offset(2.0));
    }

    @Test
    void fewOrSimultaneousCallsFallBackToTheWholeRun() {
        assertThat(TeamDrainBenchmark.steadyRate(new long[0])).isZero();
        assertThat(TeamDrainBenchmark.steadyRate(new long[] {5})).isEqualTo(1.0);
        assertThat(TeamDrainBenchmark.steadyRate(new long[] {0, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 1_007}))
                .isCloseTo(11 * 1000.0 / 1_007, offset(1e-9));
    }
}
