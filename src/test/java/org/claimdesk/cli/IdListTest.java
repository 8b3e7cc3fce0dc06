package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Row ids in a line of text output: a few listed whole, a long list cut after the first ones with the rest counted. */
class IdListTest {

    @Test
    void aShortListIsWrittenWhole() {
        assertThat(CliSupport.someIds(List.of())).isEmpty();
        assertThat(CliSupport.someIds(List.of(3L, 32L, 41L))).isEqualTo("3, 32, 41");
        List<Long> twenty = LongStream.rangeClosed(1, CliSupport.IDS_SHOWN).boxed().toList();
        assertThat(CliSupport.someIds(twenty)).endsWith(", 20").doesNotContain("more");
    }

    @Test
    void aLongListSaysHowManyMoreThereAre() {
        List<Long> many = LongStream.rangeClosed(1, 10_802).boxed().toList();
        String line = CliSupport.someIds(many);
        assertThat(line).startsWith("1, 2, 3, ").endsWith(", 20, … and 10,782 more");
        assertThat(line.length()).isLessThan(120);
    }
}
