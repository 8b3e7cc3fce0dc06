package org.claimdesk.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.claimdesk.app.TemporaryFolders;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.StateSimServer;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.store.BenchmarkStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.DatabaseMove;
import org.claimdesk.store.Json;
import org.claimdesk.store.TeamDrainBenchStore;

/**
 * {@code claimdesk bench drain --db postgresql://… --workers N}: several workstations' delivery workers on one team
 * database. Into the empty database given, it seeds E SUBMITTING claims with their pending rows and has them drained
 * twice, each time from a fresh seed and against a fresh simulated state served over HTTP on 127.0.0.1
 * ({@link StateSimServer}) with the given latency:
 * <ol>
 *   <li>by one worker alone, then</li>
 *   <li>by N workers at once, each in a JVM of its own ({@link TeamDrainBenchRun}, started with the launcher's options
 *       as each workstation runs its own), all talking to the same state.</li>
 * </ol>
 * A worker's JVM start and its connecting are excluded: every worker opens the database and the API, then all start
 * draining at one signal. A run's rate is E over the time from that signal to the last worker's end. The ratio is the
 * N workers' rate over N times the one worker's. After each run it checks what the state and the database hold: every
 * claim accepted once by the state, under the one key of its one outbox row, with the state's case id recorded on the
 * row, moved to SUBMITTED_TO_STATE once, and nothing pending or failed. The database is emptied again at the end
 * (when a check failed, the rows are left for inspection).
 */
public final class TeamDrainBenchmark {
    public static final int MAX_WORKERS = 16;
    public static final int MAX_EVENTS = 1_000_000;
    /** How often a worker looks for due rows when it has none leased (as the SQLite bench drain runs it). */
    static final long INTERVAL_MS = 50;
    static final Duration READY_WITHIN = Duration.ofMinutes(2);

    private final DatabaseLocation.Postgres location;
    private final String url;
    private final LauncherJavaOptions javaOptions;

    /**
     * @param url the database's address as given to {@code --db}, handed on to each worker's JVM
     */
    public TeamDrainBenchmark(DatabaseLocation.Postgres location, String url, LauncherJavaOptions javaOptions) {
        this.location = Objects.requireNonNull(location, "location");
        this.url = Objects.requireNonNull(url, "url");
        this.javaOptions = Objects.requireNonNull(javaOptions, "javaOptions");
    }

    /** One worker's figures in a run. */
    public record Worker(long sent, long attempts, double seconds, double eventsPerSecond) {
    }

    /**
     * One run: E events drained by {@code workers} workers.
     *
     * @param seconds from the start signal to the last worker's end
     * @param steadyEventsPerSecond the rate between the calls that ended 10th and 90th percentile: the workers at work,
     *        without each JVM's first deliveries (its classes loading, its first connections) and the last few rows
     * @param callMsP50 median time of a call to the state, as the workers timed it
     * @param problems what the checks found wrong; empty when every claim was accepted once under one key and nothing
     *        is left pending
     */
    public record Run(int workers, double seconds, double eventsPerSecond, double steadyEventsPerSecond,
            long callMsP50, long callMsP99, List<Worker> perWorker, long statePosts, long attempts,
            long attemptWorkers, List<String> problems) {
    }

    /**
     * @param ratio many.eventsPerSecond / (workers × one.eventsPerSecond)
     * @param steadyRatio the same of the steady rates
     * @param problems both runs' problems, each named by its run
     */
    public record Result(String database, int events, long latencyMs, int concurrency, int workers, Run one, Run many,
            double ratio, double steadyRatio, List<String> javaOptions, String javaOptionsFrom, List<String> problems) {
    }

    public Result run(int events, Duration latency, int concurrency, int workers) {
        if (events < 1 || events > MAX_EVENTS) {
            throw new ClaimDeskException("bench drain takes between 1 and " + MAX_EVENTS + " events, got " + events);
        }
        if (workers < 1 || workers > MAX_WORKERS) {
            throw new ClaimDeskException("--workers must be between 1 and " + MAX_WORKERS + ", got " + workers);
        }
        Path dir;
        try {
            dir = Files.createTempDirectory("claimdesk-bench-team-drain");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary folder: " + e.getMessage(), e);
        }
        try (Database db = Database.open(location)) {
            if (!DatabaseMove.isEmpty(db)) {
                throw new ClaimDeskException("bench drain needs an empty team database: " + location.describe()
                        + " already holds claims, outbox rows or audit entries");
            }
            Run one = drain(db, dir, events, latency, concurrency, 1);
            Run many = drain(db, dir, events, latency, concurrency, workers);
            List<String> problems = new ArrayList<>();
            one.problems().forEach(p -> problems.add("1 worker: " + p));
            many.problems().forEach(p -> problems.add(workers + " workers: " + p));
            if (problems.isEmpty()) {
                TeamDrainBenchStore.clear(db);
            }
            double ratio = many.eventsPerSecond() / (workers * one.eventsPerSecond());
            double steadyRatio = many.steadyEventsPerSecond() / (workers * one.steadyEventsPerSecond());
            return new Result(location.describe(), events, latency.toMillis(), concurrency, workers, one, many,
                    round(ratio, 3), round(steadyRatio, 3), javaOptions.options(), javaOptions.source(),
                    List.copyOf(problems));
        } finally {
            TemporaryFolders.deleteQuietly(dir);
        }
    }

    /** Seeds the events (the database empty before), drains them with {@code workers} workers and checks the result. */
    private Run drain(Database db, Path dir, int events, Duration latency, int concurrency, int workers) {
        TeamDrainBenchStore.clear(db);
        BenchmarkStore.seedSubmitting(db, events);
        // tallies folded, vacuumed and analyzed, as the server's autovacuum and the consoles' counts keep an office's database
        DatabaseMove.settle(db);
        SimulatedState state = new SimulatedState(SimulatedState.Config.reliable().withLatency(latency));
        List<Child> children = new ArrayList<>();
        try (StateSimServer server = StateSimServer.start(state,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            for (int i = 0; i < workers; i++) {
                children.add(Child.start(command(server, concurrency), dir.resolve("run" + workers + "-worker" + i)));
            }
            for (Child child : children) {
                child.awaitReady();
            }
            for (Child child : children) {
                child.go();
            }
            List<Map<String, Object>> results = new ArrayList<>();
            for (Child child : children) {
                results.add(child.awaitResult());
            }
            return figures(db, state, events, workers, results);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve the simulated state: " + e.getMessage(), e);
        } finally {
            children.forEach(Child::stop);
        }
    }

    private List<String> command(StateSimServer server, int concurrency) {
        String java = LauncherJavaOptions.java();
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(javaOptions.options());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), TeamDrainBenchRun.class.getName(), url,
                server.baseUrl().toString(), Integer.toString(concurrency), Long.toString(INTERVAL_MS)));
        return command;
    }

    private static Run figures(Database db, SimulatedState state, int events, int workers,
            List<Map<String, Object>> results) {
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        List<Worker> perWorker = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Map<String, Object> r : results) {
            long startedAt = number(r.get("startedAtMs"));
            long endedAt = number(r.get("endedAtMs"));
            start = Math.min(start, startedAt);
            end = Math.max(end, endedAt);
            double seconds = Math.max(endedAt - startedAt, 1) / 1000.0;
            long sent = number(r.get("sent"));
            perWorker.add(new Worker(sent, number(r.get("attempts")), round(seconds, 3), round(sent / seconds, 1)));
            if (!"IDLE".equals(r.get("ending"))) {
                problems.add("a worker ended " + r.get("ending") + " (last error: " + r.get("lastError") + ")");
            }
        }
        double seconds = Math.max(end - start, 1) / 1000.0;
        TeamDrainBenchStore.Tally tally = TeamDrainBenchStore.tally(db);
        problems.addAll(check(events, tally, state));
        long posts = state.posts().values().stream().mapToLong(Integer::longValue).sum();
        return new Run(workers, round(seconds, 3), round(events / seconds, 1), round(steadyRate(tally.attemptEndsMs()), 1),
                DrainBenchmark.percentile(tally.callMs(), 50), DrainBenchmark.percentile(tally.callMs(), 99),
                List.copyOf(perWorker), posts, tally.attempts(), tally.attemptWorkers(), List.copyOf(problems));
    }

    /**
     * Calls ended per second between the 10th and the 90th percentile of their ends ({@code ends} ascending); over
     * the whole run when there are too few calls or they ended within one millisecond.
     */
    static double steadyRate(long[] ends) {
        if (ends.length < 2) {
            return ends.length;
        }
        int from = (int) Math.floor(0.1 * (ends.length - 1));
        int to = (int) Math.ceil(0.9 * (ends.length - 1));
        if (ends[to] == ends[from]) {
            from = 0;
            to = ends.length - 1;
        }
        return (to - from) * 1000.0 / Math.max(ends[to] - ends[from], 1);
    }

    /**
     * What the state and the database must hold after a drain of {@code events} seeded claims: every claim accepted
     * once, only under the key of its one outbox row, the state's case id on the row, the claim moved once, nothing
     * pending or failed.
     */
    static List<String> check(int events, TeamDrainBenchStore.Tally tally, SimulatedState state) {
        List<String> problems = new ArrayList<>();
        if (tally.pending() != 0 || tally.failed() != 0 || tally.sent() != events) {
            problems.add(tally.sent() + " of " + events + " rows sent, " + tally.pending() + " pending, "
                    + tally.failed() + " failed");
        }
        if (tally.rowsPerClaimMax() != 1 || tally.claimByKey().size() != events) {
            problems.add("the outbox holds " + tally.claimByKey().size() + " keys for " + events
                    + " claims (at most " + tally.rowsPerClaimMax() + " rows for one claim)");
        }
        Map<Long, Integer> acceptances = state.acceptances();
        long acceptedOnce = acceptances.values().stream().filter(n -> n == 1).count();
        if (acceptances.size() != events || acceptedOnce != events) {
            problems.add(acceptances.size() + " claims accepted by the state, " + acceptedOnce + " of them once, of "
                    + events);
        }
        Map<Long, Integer> keysPerClaim = new HashMap<>();
        long unknownKeys = 0;
        for (String key : state.posts().keySet()) {
            Long claim = tally.claimByKey().get(key);
            if (claim == null) {
                unknownKeys++;
            } else {
                keysPerClaim.merge(claim, 1, Integer::sum);
            }
        }
        long severalKeys = keysPerClaim.values().stream().filter(n -> n > 1).count();
        if (unknownKeys > 0 || severalKeys > 0) {
            problems.add(unknownKeys + " keys sent that no outbox row holds, " + severalKeys
                    + " claims sent under several keys");
        }
        Map<Long, String> stateCases = state.caseIds();
        long mismatched = stateCases.entrySet().stream()
                .filter(e -> !e.getValue().equals(tally.caseIdBySentClaim().get(e.getKey()))).count();
        if (mismatched > 0) {
            problems.add(mismatched + " claims whose row does not hold the state's case id");
        }
        if (tally.submittedClaims() != events || tally.historyEntries() != events) {
            problems.add(tally.submittedClaims() + " claims SUBMITTED_TO_STATE and " + tally.historyEntries()
                    + " history entries into it, for " + events + " claims");
        }
        return problems;
    }

    /** A worker's JVM: its output read on a thread of its own, for the ready line and the result. */
    private static final class Child {
        private final Process process;
        private final CompletableFuture<Void> ready = new CompletableFuture<>();
        private final CompletableFuture<Map<String, Object>> result = new CompletableFuture<>();
        private final List<String> tail = new ArrayList<>();

        private Child(Process process) {
            this.process = process;
        }

        static Child start(List<String> command, Path home) {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().put("CLAIMDESK_HOME", home.toString());
            builder.environment().remove("CLAIMDESK_DB");
            Child child;
            try {
                child = new Child(builder.start());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start a worker's JVM: " + e.getMessage(), e);
            }
            Thread reader = new Thread(child::read, "claimdesk-bench-worker-output");
            reader.setDaemon(true);
            reader.start();
            return child;
        }

        @SuppressWarnings("unchecked")
        private void read() {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.equals(TeamDrainBenchRun.READY)) {
                        ready.complete(null);
                    } else if (line.startsWith(TeamDrainBenchRun.MARKER)) {
                        result.complete(Json.mapper().readValue(line.substring(TeamDrainBenchRun.MARKER.length()),
                                LinkedHashMap.class));
                    } else {
                        synchronized (tail) {
                            tail.add(line);
                            if (tail.size() > 20) {
                                tail.remove(0);
                            }
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                // the process is gone; the futures say so below
            }
            ClaimDeskException ended;
            synchronized (tail) {
                ended = new ClaimDeskException("a worker's JVM ended without a result: " + String.join(" | ", tail));
            }
            ready.completeExceptionally(ended);
            result.completeExceptionally(ended);
        }

        void awaitReady() {
            await(ready, READY_WITHIN.toMillis(), "start");
        }

        void go() {
            try {
                OutputStream in = process.getOutputStream();
                in.write((TeamDrainBenchRun.GO + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot signal a worker to start: " + e.getMessage(), e);
            }
        }

        Map<String, Object> awaitResult() {
            return await(result, TeamDrainBenchRun.MAX_WAIT.plusMinutes(1).toMillis(), "drain");
        }

        private static <T> T await(CompletableFuture<T> future, long millis, String what) {
            try {
                return future.get(millis, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof ClaimDeskException c ? c
                        : new ClaimDeskException("a worker failed to " + what + ": " + e.getCause());
            } catch (TimeoutException e) {
                throw new ClaimDeskException("a worker did not " + what + " within " + millis / 1000 + " s");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ClaimDeskException("interrupted while the workers ran");
            }
        }

        void stop() {
            if (process.isAlive()) {
                process.destroy();
                try {
                    if (!process.waitFor(10, TimeUnit.SECONDS)) {
                        process.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    process.destroyForcibly();
                }
            }
        }
    }

    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : -1;
    }

    private static double round(double value, int places) {
        double scale = Math.pow(10, places);
        return Math.round(value * scale) / scale;
    }
}
