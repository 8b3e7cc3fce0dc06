package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** How the launcher reaches the console: no command (or --db alone) opens it; bench ui calls its benchmark. */
class ConsoleEntryTest {

    @Test
    void noCommandOpensTheConsoleOnTheChosenDatabase() {
        List<Path> opened = new ArrayList<>();
        assertThat(ClaimDeskCommand.execute(opened::add, "--db", "/tmp/claims-office.db")).isZero();
        assertThat(opened).containsExactly(Path.of("/tmp/claims-office.db"));
        assertThat(ClaimDeskCommand.execute(opened::add)).isZero();
        assertThat(opened).hasSize(2);
        assertThat(opened.get(1)).isEqualTo(org.claimdesk.app.DataDirectory.database(null));
    }

    @Test
    void benchUiRunsTheConsoleBenchmarkAndPrintsItsFigures() {
        List<int[]> calls = new ArrayList<>();
        ConsoleBench bench = (claims, outbox, drain) -> {
            calls.add(new int[] {claims, outbox, drain});
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("firstFrameMs", 900);
            r.put("filterMs", 40);
            return r;
        };
        StringWriter out = new StringWriter();
        CommandLine cl = ClaimDeskCommand.newCommandLine(new ClaimDeskCommand(p -> { }, bench));
        cl.setOut(new PrintWriter(out));
        int code = cl.execute("bench", "ui", "--claims", "1000", "--outbox", "800", "--drain", "100", "--json");
        assertThat(code).isZero();
        assertThat(calls).singleElement().satisfies(c -> assertThat(c).containsExactly(1000, 800, 100));
        assertThat(out.toString()).contains("\"firstFrameMs\" : 900").contains("\"filterMs\" : 40");
    }

    @Test
    void benchUiWithoutTheConsoleOrWithBadSizesIsRefused() {
        StringWriter err = new StringWriter();
        int code = ClaimDeskCommand.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), "bench", "ui",
                "--claims", "10", "--outbox", "5", "--drain", "1");
        assertThat(code).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(err.toString()).contains("bench ui needs the console");

        StringWriter err2 = new StringWriter();
        CommandLine cl = ClaimDeskCommand.newCommandLine(new ClaimDeskCommand(p -> { }, (a, b, c) -> Map.of()));
        cl.setErr(new PrintWriter(err2));
        assertThat(cl.execute("bench", "ui", "--outbox", "5", "--drain", "6")).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(err2.toString()).contains("0 <= --drain <= --outbox");
    }
}
