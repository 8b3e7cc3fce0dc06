package org.claimdesk.bench;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import org.claimdesk.app.DataDirectory;
import org.claimdesk.cli.ClaimDeskCommand;
import org.claimdesk.store.Json;

/**
 * The measured side of {@code claimdesk bench import}, in a JVM of its own started with the launcher's options:
 * runs {@code claims import FILE --actor bench --json} through the CLI, as staff run it, and prints one line,
 * {@code IMPORT-BENCH <json>}: the command's seconds (this JVM's start excluded), its exit code and report, and
 * this JVM's peak resident set (VmHWM), resident set at the end and heap limit.
 */
public final class ImportBenchRun {
    public static final String MARKER = "IMPORT-BENCH ";
    static final String ACTOR = "bench";

    private ImportBenchRun() {
    }

    /** Arguments: database file, claims file. */
    public static void main(String[] args) throws Exception {
        DataDirectory.prepareLogs();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        long started = System.nanoTime();
        int exit = ClaimDeskCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true), "--db", args[0],
                "claims", "import", args[1], "--actor", ACTOR, "--json");
        long nanos = System.nanoTime() - started;
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("exit", exit);
        result.put("seconds", nanos / 1e9);
        result.put("peakRssMb", ProcessMemory.statusMb("VmHWM"));
        result.put("rssMb", ProcessMemory.statusMb("VmRSS"));
        result.put("maxHeapMb", Runtime.getRuntime().maxMemory() >> 20);
        result.put("report", out.toString().isBlank() ? null : Json.mapper().readTree(out.toString()));
        result.put("error", err.toString().strip());
        System.out.println(MARKER + Json.write(result));
        System.out.flush();
        System.exit(0);
    }
}
