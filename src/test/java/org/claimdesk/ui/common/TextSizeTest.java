package org.claimdesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The text size's steps: up and down from any size, the ends kept, a remembered size taken to the nearest step. */
class TextSizeTest {

    @Test
    void largerAndSmallerMoveOneStepAndStopAtTheEnds() {
        assertThat(TextSize.larger(100)).isEqualTo(110);
        assertThat(TextSize.larger(110)).isEqualTo(125);
        assertThat(TextSize.larger(200)).isEqualTo(200);
        assertThat(TextSize.smaller(100)).isEqualTo(90);
        assertThat(TextSize.smaller(125)).isEqualTo(110);
        assertThat(TextSize.smaller(80)).isEqualTo(80);
        // from a size between two steps, the next one either way
        assertThat(TextSize.larger(120)).isEqualTo(125);
        assertThat(TextSize.smaller(120)).isEqualTo(110);
    }

    @Test
    void aRememberedSizeIsTakenToTheNearestStep() {
        assertThat(TextSize.step(100)).isEqualTo(100);
        assertThat(TextSize.step(150)).isEqualTo(150);
        assertThat(TextSize.step(140)).isEqualTo(150);
        assertThat(TextSize.step(0)).isEqualTo(80);
        assertThat(TextSize.step(-5)).isEqualTo(80);
        assertThat(TextSize.step(1000)).isEqualTo(200);
    }
}
