package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShellWordsTest {

    /** Each word comes back whole from a real POSIX shell. */
    @Test
    void aPosixShellReadsEachWordAsItWas() throws Exception {
        List<String> words = List.of("plain", "/backups/claims 2026-12-06.dump", "it's", "dbname=claims sslmode='x y'",
                "$HOME `id` \\ \"q\"", "");
        StringBuilder command = new StringBuilder("printf '%s\\n'");
        words.forEach(w -> command.append(' ').append(ShellWords.posix(w)));
        Process sh = new ProcessBuilder("sh", "-c", command.toString()).redirectErrorStream(true).start();
        assertThat(new String(sh.getInputStream().readAllBytes()).split("\n", -1)).containsExactly(
                "plain", "/backups/claims 2026-12-06.dump", "it's", "dbname=claims sslmode='x y'",
                "$HOME `id` \\ \"q\"", "", "");
        assertThat(sh.waitFor()).isZero();
    }

    /** Windows programs' rules for splitting a command line: backslashes count only before a quote. */
    @Test
    void windowsWordsAreQuotedAsItsProgramsSplitTheirCommandLine() {
        assertThat(ShellWords.windows("C:\\backups\\claims.dump")).isEqualTo("C:\\backups\\claims.dump");
        assertThat(ShellWords.windows("C:\\Claims Office\\claims.dump")).isEqualTo("\"C:\\Claims Office\\claims.dump\"");
        assertThat(ShellWords.windows("\\\\fs01\\claims evidence\\")).isEqualTo("\"\\\\fs01\\claims evidence\\\\\"");
        assertThat(ShellWords.windows("dbname=claims sslmode=require")).isEqualTo("\"dbname=claims sslmode=require\"");
        assertThat(ShellWords.windows("say \"hi\"")).isEqualTo("\"say \\\"hi\\\"\"");
        assertThat(ShellWords.windows("a\\\"b")).isEqualTo("\"a\\\\\\\"b\"");
        assertThat(ShellWords.windows("")).isEqualTo("\"\"");
    }
}
