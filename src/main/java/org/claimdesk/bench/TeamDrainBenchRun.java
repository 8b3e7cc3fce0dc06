package org.claimdesk.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.claimdesk.app.DataDirectory;
import org.claimdesk.app.DeadlineSettings;
import org.claimdesk.delivery.Drain;
import org.claimdesk.delivery.HttpStateAdapter;
import org.claimdesk.delivery.StateAdapter;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.Json;

/**
 * One workstation's worker in {@code claimdesk bench drain --db URL}, in a JVM of its own started with the launcher's
 * options: opens the team database and the state's API as {@code claimdesk drain} does, asks the state once for a key no row
 * has (loading the HTTP client and connecting), prints {@value #READY}, waits
 * for a line {@value #GO} on standard input (so that every worker starts its drain at the same moment, JVM start and
 * connecting excluded), drains until no row is pending through {@link Drain#run}, the call {@code claimdesk drain
 * --until-idle} makes, and prints one line {@code TEAM-DRAIN-BENCH <json>}: what it sent and when it started and
 * ended (milliseconds since the epoch, one clock for every process on the machine).
 */
public final class TeamDrainBenchRun {
    public static final String READY = "TEAM-DRAIN-BENCH-READY";
    public static final String GO = "GO";
    public static final String MARKER = "TEAM-DRAIN-BENCH ";
    static final String WARM_UP_KEY = "claimdesk-bench-warm-up";
    /** How long one worker's drain may take at most. */
    static final Duration MAX_WAIT = Duration.ofMinutes(30);

    private TeamDrainBenchRun() {
    }

    /** Arguments: database URL, state API base URL, concurrency, interval in ms. */
    public static void main(String[] args) throws Exception {
        DataDirectory.prepareLogs();
        DatabaseLocation location = DatabaseLocation.parse(args[0]);
        URI stateApi = URI.create(args[1]);
        WorkerSettings settings = WorkerSettings.defaults().withConcurrency(Integer.parseInt(args[2]))
                .withInterval(Duration.ofMillis(Long.parseLong(args[3])));
        Map<String, Object> result = new LinkedHashMap<>();
        try (Database db = Database.open(location);
             StateAdapter state = HttpStateAdapter.fromEnvironment(stateApi, HttpStateAdapter.DEFAULT_CONNECT_TIMEOUT,
                     HttpStateAdapter.DEFAULT_REQUEST_TIMEOUT)) {
            // what a worker's first deliveries would otherwise do while the others deliver: load the HTTP client and
            // open a connection to the state (a lookup of a key no row has; the state counts submissions only)
            state.prepare();
            state.lookup(WARM_UP_KEY);
            System.out.println(READY);
            System.out.flush();
            String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            if (!GO.equals(line)) {
                System.exit(2);
            }
            long startedAt = System.currentTimeMillis();
            Drain.Summary summary = Drain.run(db, state, settings, DeadlineSettings.current(db), Clock.systemUTC(), true,
                    MAX_WAIT, null);
            long endedAt = System.currentTimeMillis();
            result.put("ending", summary.ending().name());
            result.put("sent", summary.sent());
            result.put("failed", summary.failed());
            result.put("retried", summary.retried());
            result.put("attempts", summary.attempts());
            result.put("pending", summary.pending());
            result.put("startedAtMs", startedAt);
            result.put("endedAtMs", endedAt);
            result.put("lastError", summary.lastError());
        }
        System.out.println(MARKER + Json.write(result));
        System.out.flush();
        System.exit(0);
    }
}
