package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.claimdesk.app.SubmitResult;
import org.claimdesk.app.Workflow;
import org.claimdesk.delivery.DeliveryWorker;
import org.claimdesk.delivery.HttpStateAdapter;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.testing.FaultyStateServer;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.TestClaims;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workstations on a team database keep the server's time, whatever their own clocks say. The test server runs on
 * this machine, so its time is this JVM's system time; the workstations' clocks are made to run an hour off it.
 */
class ServerClockTest {
    private static final Duration HOUR = Duration.ofHours(1);

    @Test
    void aWorkstationWhoseClockIsAnHourBehindReadsTheServersTime() {
        try (Database db = Database.open(TestDatabase.newServerDatabase())) {
            Clock behind = Clock.offset(Clock.systemUTC(), HOUR.negated());
            ServerClock clock = ServerClock.measured(db.jdbi(), behind);

            assertThat(clock.offsetMillis()).isCloseTo(HOUR.toMillis(), within(2_000L));
            assertThat(Duration.between(Instant.now(), clock.instant()).abs()).isLessThan(Duration.ofSeconds(2));
            assertThat(clock.millis()).isCloseTo(System.currentTimeMillis(), within(2_000L));
            Clock elsewhere = clock.withZone(ZoneId.of("America/Chicago"));
            assertThat(elsewhere.getZone()).isEqualTo(ZoneId.of("America/Chicago"));
            assertThat(elsewhere.millis()).isCloseTo(System.currentTimeMillis(), within(2_000L));
        }
    }

    @Test
    void theDistanceIsMeasuredAgainWhenTheWorkstationsClockIsSet() {
        try (Database db = Database.open(TestDatabase.newServerDatabase())) {
            MovableClock workstation = new MovableClock();
            ServerClock clock = ServerClock.measured(db.jdbi(), workstation);
            assertThat(clock.offsetMillis()).isCloseTo(0L, within(2_000L));

            workstation.set(HOUR);
            assertThat(clock.millis()).as("until measured again").isCloseTo(System.currentTimeMillis() + HOUR.toMillis(),
                    within(2_000L));
            clock.remeasure(db.jdbi());
            assertThat(clock.offsetMillis()).isCloseTo(-HOUR.toMillis(), within(2_000L));
            assertThat(clock.millis()).isCloseTo(System.currentTimeMillis(), within(2_000L));
        }
    }

    @Test
    void aFileKeepsTheSystemsClockAndATeamDatabaseTheServersTime(@TempDir java.nio.file.Path dir) {
        try (Database file = Database.open(dir.resolve("desk.db"));
             Database team = Database.open(TestDatabase.newServerDatabase())) {
            assertThat(file.clock()).isEqualTo(Clock.systemDefaultZone());
            assertThat(team.clock()).isInstanceOf(ServerClock.class);
            assertThat(team.clock().getZone()).isEqualTo(ZoneId.systemDefault());
            assertThat(team.clock().millis()).isCloseTo(System.currentTimeMillis(), within(2_000L));
        }
    }

    @Test
    void aClaimSubmittedOnAWorkstationAnHourAheadIsDueAtOnceForTheOthers() throws Exception {
        try (Database db = Database.open(TestDatabase.newServerDatabase());
             FaultyStateServer server = FaultyStateServer.reliable();
             HttpStateAdapter state = Workers.http(server.baseUrl(), 2_000)) {
            Clock ahead = ServerClock.measured(db.jdbi(), Clock.offset(Clock.systemUTC(), HOUR));
            long claimId = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION, "CA");
            SubmitResult submitted = new Workflow(db, ahead, Deadlines.statutory()).submit(claimId, "s.patel", null);

            long due = Outbox.nextAttemptAt(db, submitted.outboxEventId());
            assertThat(due).isCloseTo(System.currentTimeMillis(), within(2_000L));
            try (DeliveryWorker worker = new DeliveryWorker(db, state, Workers.fast(), Clock.systemUTC(),
                    Deadlines.statutory())) {
                worker.start();
                await().atMost(Duration.ofSeconds(10)).until(() -> Outbox.count(db, DeliveryState.SENT) == 1);
            }
        }
    }

    @Test
    void aRetryWrittenOnAWorkstationAnHourBehindWaitsItsBackoff() throws Exception {
        try (Database db = Database.open(TestDatabase.newServerDatabase());
             FaultyStateServer server = FaultyStateServer.start((key, n) -> n == 1
                     ? FaultyStateServer.Fault.UNAVAILABLE_503 : FaultyStateServer.Fault.NONE, Duration.ZERO);
             HttpStateAdapter state = Workers.http(server.baseUrl(), 2_000)) {
            List<SubmitResult> queued = Outbox.submitted(db, 1);
            Clock behind = ServerClock.measured(db.jdbi(), Clock.offset(Clock.systemUTC(), HOUR.negated()));
            Duration backoff = Duration.ofSeconds(30);
            WorkerSettings settings = Workers.fast().withBackoff(backoff, backoff);
            try (DeliveryWorker worker = new DeliveryWorker(db, state, settings, behind, Deadlines.statutory(),
                    "behind", () -> 0.999)) {
                worker.start();
                await().atMost(Duration.ofSeconds(10)).until(() -> Outbox.retryCount(db, queued.get(0).outboxEventId()) == 1);
            }
            long due = Outbox.nextAttemptAt(db, queued.get(0).outboxEventId());
            assertThat(due).as("due after the backoff in the server's time, not an hour before it")
                    .isGreaterThan(System.currentTimeMillis() + 20_000);
            assertThat(server.postsFor(queued.get(0).idempotencyKey())).isEqualTo(1);
        }
    }

    /** A workstation's clock that someone sets. */
    private static final class MovableClock extends Clock {
        private volatile Duration offset = Duration.ZERO;

        void set(Duration value) {
            offset = value;
        }

        @Override
        public ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Instant instant() {
            return Instant.now().plus(offset);
        }
    }
}
