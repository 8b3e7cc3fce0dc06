package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.claimdesk.app.SubmitResult;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.HealthStore;
import org.claimdesk.testing.FaultyStateServer;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four workstations' workers on one team database: four {@code claimdesk drain} processes deliver the same outbox
 * on PostgreSQL while one of them is killed with SIGKILL mid-way. The rows it held go out from the others once its
 * leases expire; no row is in flight on two workers at once, the state accepts every claim once, and each claim is
 * sent under its one key.
 */
class TeamDrainTest {
    private static final int ROWS = 400;
    private static final int WORKERS = 4;

    @TempDir
    Path dir;

    @Test
    void fourDrainsOnOneDatabaseWithOneKilledDeliverEveryClaimOnceUnderOneKey() throws Exception {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();
        List<SubmitResult> queued;
        try (Database db = Database.open(location)) {
            queued = Outbox.submitted(db, ROWS);
        }
        try (FaultyStateServer server = FaultyStateServer.start(CrashRecoveryTest::plan, Duration.ofSeconds(1))) {
            server.replyDelayMillis(50);
            List<Process> drains = new ArrayList<>();
            for (int i = 0; i < WORKERS; i++) {
                drains.add(startDrain(location, server, i));
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> server.totalPosts() > ROWS / 8);
            Process killed = drains.get(0);
            killed.destroyForcibly();
            assertThat(killed.waitFor(30, TimeUnit.SECONDS)).isTrue();
            int postsAtKill = server.totalPosts();
            for (int i = 1; i < WORKERS; i++) {
                Process survivor = drains.get(i);
                assertThat(survivor.waitFor(90, TimeUnit.SECONDS)).as("a drain finished").isTrue();
                assertThat(survivor.exitValue()).as("a surviving drain's exit code; it printed: %s",
                        java.nio.file.Files.readString(dir.resolve("drain-" + i + ".out"))).isZero();
            }
            assertThat(postsAtKill).as("the kill landed in the middle of the drain").isLessThan(ROWS);

            try (Database db = Database.open(location)) {
                assertThat(Outbox.count(db, DeliveryState.SENT)).isEqualTo(ROWS);
                assertThat(db.read(new HealthStore()::tallyDifferences)).as("the counts staff see")
                        .matches(HealthStore.Tallies::agree);
                Map<Long, String> stateCases = server.state().caseIds();
                Map<Long, String> ourCases = Outbox.caseIds(db);
                for (SubmitResult q : queued) {
                    assertThat(server.state().acceptances().get(q.claimId())).as("claim %d accepted", q.claimId())
                            .isEqualTo(1);
                    assertThat(ourCases.get(q.claimId())).isNotNull().isEqualTo(stateCases.get(q.claimId()));
                    long delivered = db.read(h -> h.createQuery("""
                            SELECT count(*) FROM claim_status_history WHERE claim_id = :id AND to_status = :to""")
                            .bind("id", q.claimId()).bind("to", ClaimStatus.SUBMITTED_TO_STATE.name())
                            .mapTo(Long.class).one());
                    assertThat(delivered).isEqualTo(1);
                }
                List<String> workers = db.read(h -> h.createQuery(
                        "SELECT DISTINCT worker_id FROM delivery_attempt").mapTo(String.class).list());
                assertThat(workers).as("attempts were made by several workers").hasSizeGreaterThan(1);
            }
            // one key per claim: every POST the state saw carried the key of the claim's one outbox row
            assertThat(server.posts().keySet()).hasSize(ROWS);
            assertThat(server.maxConcurrentPostsOfOneKey()).as("a row in flight on two workers at once").isEqualTo(1);
        }
    }

    private Process startDrain(DatabaseLocation.Postgres location, FaultyStateServer server, int n) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Dclaimdesk.testLogDir=" + dir.resolve("logs-" + n), "-cp", System.getProperty("java.class.path"),
                "org.claimdesk.Launcher", "--db", TestDatabase.url(location), "drain",
                "--state-api", server.baseUrl().toString(), "--until-idle", "--max-wait", "80", "--concurrency", "4",
                "--lease-seconds", "3", "--interval-ms", "50", "--backoff-base-ms", "10", "--backoff-cap-ms", "50",
                "--connect-timeout-ms", "1000", "--request-timeout-ms", "400");
        builder.environment().put("CLAIMDESK_HOME", dir.resolve("home-" + n).toString());
        builder.redirectErrorStream(true);
        builder.redirectOutput(dir.resolve("drain-" + n + ".out").toFile());
        return builder.start();
    }
}
