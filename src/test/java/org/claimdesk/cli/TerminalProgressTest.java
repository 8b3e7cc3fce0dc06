package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class TerminalProgressTest {
    @Test
    void atATerminalOneLineIsKeptCurrentAtMostFourTimesASecondAndClearedBeforeTheResult() {
        StringWriter err = new StringWriter();
        TerminalProgress line = new TerminalProgress(new PrintWriter(err, true), true);

        line.show("exporting: 5,000 claims written");
        line.show("exporting: 10,000 claims written");

        assertThat(err.toString()).isEqualTo("\rexporting: 5,000 claims written   ");
        line.clear();
        assertThat(err.toString()).endsWith("\r" + " ".repeat(60) + "\r");
        int cleared = err.toString().length();
        line.clear();
        assertThat(err.toString()).as("nothing to clear").hasSize(cleared);
        line.show("exporting: 15,000 claims written");
        assertThat(err.toString()).as("the first line after a clear shows at once")
                .endsWith("\rexporting: 15,000 claims written   ");
    }

    @Test
    void aStepIsShownAtOnceWhateverCameJustBefore() {
        StringWriter err = new StringWriter();
        TerminalProgress line = new TerminalProgress(new PrintWriter(err, true), true);

        line.step("doctor: checking schema…");
        line.step("doctor: checking tally…");

        assertThat(err.toString()).isEqualTo(String.format("\r%-60s\r%-60s", "doctor: checking schema…",
                "doctor: checking tally…"));
        line.clear();
        assertThat(err.toString()).endsWith("\r" + " ".repeat(60) + "\r");
        line.step("backup: checking claimdesk-2026-12-07-before-the-upgrade.db (SQLite's quick check)…");
        line.clear();
        assertThat(err.toString()).as("a line longer than 60 characters blanked whole")
                .endsWith("\r" + " ".repeat(83) + "\r");
        StringWriter elsewhere = new StringWriter();
        new TerminalProgress(new PrintWriter(elsewhere, true), false).step("doctor: checking schema…");
        assertThat(elsewhere.toString()).isEmpty();
    }

    @Test
    void elsewhereNothingIsWritten() {
        StringWriter err = new StringWriter();
        TerminalProgress line = new TerminalProgress(new PrintWriter(err, true), false);

        line.show("importing 10 rows, 50%");
        line.clear();

        assertThat(err.toString()).isEmpty();
    }
}
