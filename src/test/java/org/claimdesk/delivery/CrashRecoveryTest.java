package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.claimdesk.app.SubmitResult;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.testing.FaultyStateServer;
import org.claimdesk.testing.FaultyStateServer.Fault;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A {@code claimdesk drain} in a child JVM is killed with SIGKILL at a random moment; a new worker
 * finishes the job. Whatever the moment, every claim ends with exactly one case id, the state's, one
 * SUBMITTED_TO_STATE history entry, attempt numbers without gaps or repeats, and the state accepted no
 * claim twice. On either engine: the killed child's leases expire and the new worker sends the rows it held.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class CrashRecoveryTest {
    private static final int TRIALS = 8;
    private static final int ROWS = 60;
    private static final String TOKEN = "tok-7f3e9a1c5b2d-never-logged";

    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    @Test
    void aDrainKilledAtRandomMomentsIsFinishedByANewWorkerWithTheInvariantsIntact() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        List<Long> sentByChild = new ArrayList<>();
        try (FaultyStateServer server = FaultyStateServer.start(CrashRecoveryTest::plan, Duration.ofSeconds(1))) {
            server.replyDelayMillis(15);
            for (int trial = 1; trial <= TRIALS; trial++) {
                DatabaseLocation location = TestDatabase.location(engine, dir, "trial-" + trial);
                List<SubmitResult> queued;
                try (Database db = Database.open(location)) {
                    queued = Outbox.submitted(db, ROWS);
                }
                long killAfterMs = random.nextInt(400);
                int postsBefore = server.totalPosts();
                Process child = startDrain(location, trial, server);
                // the moment is random from the child's first delivery on, when there is something to break
                await().atMost(Duration.ofSeconds(30)).until(() -> server.totalPosts() > postsBefore || !child.isAlive());
                boolean exited = child.waitFor(killAfterMs, TimeUnit.MILLISECONDS);
                if (!exited) {
                    child.destroyForcibly();
                    assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
                }
                try (Database db = Database.open(location)) {
                    sentByChild.add(Outbox.count(db, DeliveryState.SENT));
                    finishAndCheck(db, server, queued, "trial " + trial + " (seed " + seed + ", kill after "
                            + killAfterMs + " ms after its first POST)");
                }
            }
        }
        Path logs = dir.resolve("child-logs");
        String logText;
        try (var files = java.nio.file.Files.list(logs)) {
            logText = files.map(f -> {
                try {
                    return java.nio.file.Files.readString(f);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).collect(java.util.stream.Collectors.joining());
        }
        assertThat(logText).as("the children logged their drains").contains("delivery worker")
                .doesNotContain(TOKEN);
        assertThat(sentByChild).as("some kills landed in the middle of a drain (seed %d, rows sent before each kill %s)",
                seed, sentByChild)
                .anyMatch(n -> n > 0 && n < ROWS);
    }

    private Process startDrain(DatabaseLocation location, int trial, FaultyStateServer server) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Dclaimdesk.testLogDir=" + dir.resolve("child-logs"), "-cp", System.getProperty("java.class.path"),
                "org.claimdesk.Launcher", "--db", TestDatabase.argument(location), "drain", "--state-api", server.baseUrl().toString(),
                "--until-idle", "--concurrency", "4", "--lease-seconds", "1", "--interval-ms", "50",
                "--backoff-base-ms", "10", "--backoff-cap-ms", "50", "--connect-timeout-ms", "300",
                "--request-timeout-ms", "400");
        builder.environment().put("CLAIMDESK_HOME", dir.resolve("home").toString());
        builder.environment().put(HttpStateAdapter.TOKEN_ENV, TOKEN);
        builder.redirectErrorStream(true);
        builder.redirectOutput(dir.resolve("trial-" + trial + ".out").toFile());
        return builder.start();
    }

    private static void finishAndCheck(Database db, FaultyStateServer server, List<SubmitResult> queued, String trial) {
        try (HttpStateAdapter adapter = Workers.http(server.baseUrl(), 500);
             DeliveryWorker worker = new DeliveryWorker(db, adapter, Workers.fast(), Clock.systemUTC(),
                     Deadlines.statutory())) {
            worker.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> Outbox.count(db, DeliveryState.PENDING) == 0);
        }
        Map<Long, String> stateCases = server.state().caseIds();
        Map<Long, String> ourCases = Outbox.caseIds(db);
        assertThat(Outbox.count(db, DeliveryState.SENT)).as(trial).isEqualTo(ROWS);
        for (SubmitResult q : queued) {
            assertThat(ourCases.get(q.claimId())).as(trial + ", claim " + q.claimId()).isNotNull()
                    .isEqualTo(stateCases.get(q.claimId()));
            assertThat(server.state().acceptances().get(q.claimId())).as(trial).isEqualTo(1);
            long delivered = db.read(h -> h.createQuery("""
                    SELECT count(*) FROM claim_status_history WHERE claim_id = :id AND to_status = :to""")
                    .bind("id", q.claimId()).bind("to", ClaimStatus.SUBMITTED_TO_STATE.name())
                    .mapTo(Long.class).one());
            assertThat(delivered).as(trial + ": one SUBMITTED_TO_STATE history entry").isEqualTo(1);
            List<Integer> numbers = db.read(h -> h.createQuery(
                    "SELECT attempt_no FROM delivery_attempt WHERE outbox_event_id = :id ORDER BY attempt_no")
                    .bind("id", q.outboxEventId()).mapTo(Integer.class).list());
            int attempts = db.read(h -> h.createQuery("SELECT attempts FROM outbox_event WHERE outbox_event_id = :id")
                    .bind("id", q.outboxEventId()).mapTo(Integer.class).one());
            assertThat(numbers).as(trial + ": attempt numbers").isEqualTo(
                    java.util.stream.IntStream.rangeClosed(1, attempts).boxed().toList());
        }
    }

    /** A share of first POSTs fails, including replies lost after the state accepted the submission. */
    static Fault plan(String key, int postNumber) {
        if (postNumber > 1) {
            return Fault.NONE;
        }
        return switch (Math.floorMod(key.hashCode(), 5)) {
            case 0 -> Fault.ACCEPTED_THEN_503;
            case 1 -> Fault.UNAVAILABLE_503;
            default -> Fault.NONE;
        };
    }
}
