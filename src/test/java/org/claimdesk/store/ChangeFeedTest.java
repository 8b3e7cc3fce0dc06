package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.DataChange;
import org.claimdesk.domain.WorkerPause;
import org.claimdesk.testing.SilentProxy;
import org.claimdesk.testing.TestClaims;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two workstations on one team database: what one commits, the other's feed hears (the server's
 * LISTEN/NOTIFY), once per transaction and kind; a feed that loses its connection gets it back.
 */
class ChangeFeedTest {
    private static final Duration HEARD = Duration.ofSeconds(10);

    @Test
    void whatAnotherWorkstationCommitsIsHeardByKind() throws Exception {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();
        try (Database here = Database.open(location); Database there = Database.open(location)) {
            List<Set<DataChange>> heard = new CopyOnWriteArrayList<>();
            here.changes().subscribe(heard::add);
            assertThat(((PostgresChangeFeed) here.changes()).awaitListening(10_000)).isTrue();

            long claimId = TestClaims.insert(there, ClaimStatus.READY_FOR_SUBMISSION);
            Awaitility.await().atMost(HEARD).until(() -> heard.stream().anyMatch(s -> s.contains(DataChange.CLAIMS)));

            heard.clear();
            there.useTransaction(h -> new WorkerPauseStore().put(h, new WorkerPause("maria", Instant.now(), "audit")));
            Awaitility.await().atMost(HEARD).until(() -> heard.contains(Set.of(DataChange.WORKER)));

            heard.clear();
            there.useTransaction(h -> new AuditStore().append(h, Instant.now(), "maria", "claim.edit", "claim",
                    Long.toString(claimId), null, null));
            Awaitility.await().atMost(HEARD).until(() -> heard.contains(Set.of(DataChange.AUDIT)));
        }
    }

    @Test
    void oneTransactionIsOneNotificationHoweverManyRowsItChanges() throws Exception {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();
        try (Database here = Database.open(location); Database there = Database.open(location)) {
            long first = TestClaims.insert(there, ClaimStatus.IDENTITY_PENDING);
            long second = TestClaims.insert(there, ClaimStatus.IDENTITY_PENDING);
            List<Set<DataChange>> heard = new CopyOnWriteArrayList<>();
            here.changes().subscribe(heard::add);
            assertThat(((PostgresChangeFeed) here.changes()).awaitListening(10_000)).isTrue();

            there.useTransaction(h -> {
                for (long id : List.of(first, second, first, second)) {
                    h.execute("UPDATE claim SET version = version + 1 WHERE claim_id = ?", id);
                }
                new AuditStore().append(h, Instant.now(), "maria", "claim.edit", "claim", Long.toString(first), null,
                        null);
            });
            Awaitility.await().atMost(HEARD).until(() -> !heard.isEmpty());
            // a transaction on the feed's own table marks where the first one's notifications end
            there.useTransaction(h -> new WorkerPauseStore().put(h, new WorkerPause("maria", Instant.now(), "end")));
            Awaitility.await().atMost(HEARD).until(() -> heard.stream().anyMatch(s -> s.contains(DataChange.WORKER)));

            long claimsHeard = heard.stream().filter(s -> s.contains(DataChange.CLAIMS)).count();
            long auditHeard = heard.stream().filter(s -> s.contains(DataChange.AUDIT)).count();
            assertThat(claimsHeard).as("four updates in one transaction").isEqualTo(1);
            assertThat(auditHeard).isEqualTo(1);
        }
    }

    @Test
    void aFeedWhoseConnectionIsCutConnectsAgainAndSaysEverythingMayHaveChanged() throws Exception {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();
        try (Database here = Database.open(location); Database there = Database.open(location)) {
            List<Set<DataChange>> heard = new CopyOnWriteArrayList<>();
            here.changes().subscribe(heard::add);
            assertThat(((PostgresChangeFeed) here.changes()).awaitListening(10_000)).isTrue();

            int cut = there.read(h -> h.createQuery("""
                    SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                    WHERE application_name = 'ClaimDesk live updates' AND datname = current_database()""")
                    .mapTo(Integer.class).one());
            assertThat(cut).isEqualTo(1);
            Awaitility.await().atMost(HEARD).until(() -> heard.contains(Set.of(DataChange.values())));

            heard.clear();
            TestClaims.insert(there, ClaimStatus.IDENTITY_PENDING);
            Awaitility.await().atMost(HEARD).until(() -> heard.stream().anyMatch(s -> s.contains(DataChange.CLAIMS)));
        }
    }

    /**
     * A feed whose first connection fails (the server not reachable yet) may have missed what was committed while it
     * retried: once it listens, it says everything may have changed, as after a dropped connection.
     */
    @Test
    void aFeedThatCouldNotConnectAtFirstSaysEverythingMayHaveChangedOnceItListens() throws Exception {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        try (Database there = Database.open(location);
             PostgresChangeFeed feed = new PostgresChangeFeed(new DatabaseLocation.Postgres("127.0.0.1", port,
                     location.database(), location.user(), location.parameters()), "elsewhere", Duration.ofSeconds(15),
                     10)) {
            List<Set<DataChange>> heard = new CopyOnWriteArrayList<>();
            feed.subscribe(heard::add);
            assertThat(feed.awaitListening(200)).as("nothing listens on the address yet").isFalse();
            TestClaims.insert(there, ClaimStatus.IDENTITY_PENDING);
            try (SilentProxy server = new SilentProxy(location.host(), location.port(), port)) {
                assertThat(feed.awaitListening(10_000)).isTrue();
                Awaitility.await().atMost(HEARD).until(() -> heard.contains(Set.of(DataChange.values())));
            }
        }
    }

    /**
     * A first connection that succeeds only after a page or a drain stopped waiting for it (a slow network or server):
     * what they read meanwhile may have changed unheard, so once it listens the feed says everything may have changed.
     */
    @Test
    void aFeedWhoseFirstConnectionCameAfterItsWaiterGaveUpSaysEverythingMayHaveChanged() throws Exception {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();
        try (SilentProxy proxy = new SilentProxy(location.host(), location.port());
             Database there = Database.open(location);
             PostgresChangeFeed feed = new PostgresChangeFeed(new DatabaseLocation.Postgres("127.0.0.1", proxy.port(),
                     location.database(), location.user(), location.parameters()), "elsewhere", Duration.ofSeconds(15),
                     10)) {
            proxy.holdNewConnections();
            List<Set<DataChange>> heard = new CopyOnWriteArrayList<>();
            feed.subscribe(heard::add);
            assertThat(feed.awaitListening(300)).as("the first connection is held").isFalse();
            TestClaims.insert(there, ClaimStatus.IDENTITY_PENDING);
            proxy.releaseHeldConnections();

            assertThat(feed.awaitListening(10_000)).isTrue();
            Awaitility.await().atMost(HEARD).until(() -> heard.contains(Set.of(DataChange.values())));
        }
    }

    /**
     * A first connection that succeeds at once, before anyone stopped waiting for it, has missed nothing: no page is
     * read again for it.
     */
    @Test
    void aFeedListeningBeforeItsWaiterGaveUpSaysNothingChanged() throws Exception {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();
        try (Database there = Database.open(location);
             PostgresChangeFeed feed = new PostgresChangeFeed(location, "elsewhere", Duration.ofSeconds(15), 10)) {
            List<Set<DataChange>> heard = new CopyOnWriteArrayList<>();
            feed.subscribe(heard::add);
            assertThat(feed.awaitListening(10_000)).isTrue();
            TestClaims.insert(there, ClaimStatus.IDENTITY_PENDING);
            Awaitility.await().atMost(HEARD).until(() -> !heard.isEmpty());
            assertThat(heard).allSatisfy(kinds -> assertThat(kinds).contains(DataChange.CLAIMS)
                    .isNotEqualTo(Set.of(DataChange.values())));
        }
    }

    /**
     * A network that drops the feed's connection without closing it leaves the socket open and silent: the feed
     * asks for an answer after a quiet spell, gives the connection up when none comes, and connects again.
     */
    @Test
    void aFeedWhoseConnectionFallsSilentWithoutClosingConnectsAgain() throws Exception {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();
        try (SilentProxy proxy = new SilentProxy(location.host(), location.port());
             Database there = Database.open(location);
             PostgresChangeFeed feed = new PostgresChangeFeed(new DatabaseLocation.Postgres("127.0.0.1", proxy.port(),
                     location.database(), location.user(), location.parameters()), "elsewhere", Duration.ofMillis(500),
                     1)) {
            List<Set<DataChange>> heard = new CopyOnWriteArrayList<>();
            feed.subscribe(heard::add);
            assertThat(feed.awaitListening(10_000)).isTrue();
            TestClaims.insert(there, ClaimStatus.IDENTITY_PENDING);
            Awaitility.await().atMost(HEARD).until(() -> heard.stream().anyMatch(s -> s.contains(DataChange.CLAIMS)));
            heard.clear();

            proxy.silenceOpenConnections();
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> !feed.connected());
            Awaitility.await().atMost(Duration.ofSeconds(20))
                    .until(() -> feed.connected() && heard.contains(Set.of(DataChange.values())));

            heard.clear();
            TestClaims.insert(there, ClaimStatus.IDENTITY_PENDING);
            Awaitility.await().atMost(HEARD).until(() -> heard.stream().anyMatch(s -> s.contains(DataChange.CLAIMS)));
        }
    }

    /**
     * A server that ends idle sessions ({@code idle_session_timeout}, 3 s here) counts a connection that only listens as idle,
     * however many notifications reach it: the feed asks its question on time whatever it hears, so a steady stream of
     * changes does not have the server end its session (and every page read again) once per timeout.
     */
    @Test
    void aFeedHearingChangesAllTheTimeIsNotEndedAsIdleByTheServer() throws Exception {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();
        java.util.Map<String, String> parameters = new java.util.HashMap<>(location.parameters());
        parameters.put("options", "-c idle_session_timeout=3000");
        DatabaseLocation.Postgres endingIdleSessions = new DatabaseLocation.Postgres(location.host(), location.port(),
                location.database(), location.user(), parameters);
        try (Database there = Database.open(location);
             PostgresChangeFeed feed = new PostgresChangeFeed(endingIdleSessions, "elsewhere", Duration.ofMillis(500),
                     5)) {
            List<Set<DataChange>> heard = new CopyOnWriteArrayList<>();
            feed.subscribe(heard::add);
            assertThat(feed.awaitListening(10_000)).isTrue();

            // a claim every 200 ms for 7 s, each heard, and the feed never loses its connection meanwhile
            Awaitility.await().pollInterval(Duration.ofMillis(200)).during(Duration.ofSeconds(7))
                    .atMost(Duration.ofSeconds(12)).until(() -> {
                        TestClaims.insert(there, ClaimStatus.IDENTITY_PENDING);
                        return feed.connected() && !heard.contains(Set.of(DataChange.values()));
                    });
            assertThat(heard).isNotEmpty().allMatch(s -> s.equals(Set.of(DataChange.CLAIMS)));
        }
    }

    @Test
    void aWorkstationDoesNotHearItsOwnChanges() throws Exception {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();
        try (Database here = Database.open(location); Database there = Database.open(location)) {
            List<Set<DataChange>> heard = new CopyOnWriteArrayList<>();
            here.changes().subscribe(heard::add);
            assertThat(((PostgresChangeFeed) here.changes()).awaitListening(10_000)).isTrue();

            TestClaims.insert(here, ClaimStatus.IDENTITY_PENDING);
            there.useTransaction(h -> new WorkerPauseStore().put(h, new WorkerPause("maria", Instant.now(), "end")));
            Awaitility.await().atMost(HEARD).until(() -> heard.stream().anyMatch(s -> s.contains(DataChange.WORKER)));
            assertThat(heard).as("the claim was added here: the feed hands on only the other's pause")
                    .containsExactly(Set.of(DataChange.WORKER));
        }
    }

    @Test
    void aLeaseThatFindsNoDueRowIsNotHeard() throws Exception {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();
        try (Database here = Database.open(location); Database there = Database.open(location)) {
            List<Set<DataChange>> heard = new CopyOnWriteArrayList<>();
            here.changes().subscribe(heard::add);
            assertThat(((PostgresChangeFeed) here.changes()).awaitListening(10_000)).isTrue();

            // an idle worker's tick on the other workstation: nothing is due, nothing changes
            List<Long> leased = there.inTransaction(h -> {
                try (DeliveryStore.Session session = new DeliveryStore().session(h)) {
                    return session.lease("idle-worker", Instant.now(), Duration.ofSeconds(60), 16).ids();
                }
            });
            there.useTransaction(h -> new WorkerPauseStore().put(h, new WorkerPause("maria", Instant.now(), "end")));
            Awaitility.await().atMost(HEARD).until(() -> heard.stream().anyMatch(s -> s.contains(DataChange.WORKER)));

            assertThat(leased).isEmpty();
            assertThat(heard).as("only the pause changed anything").containsExactly(Set.of(DataChange.WORKER));
        }
    }

    @Test
    void aLocalFileHasNoOtherWorkstationToHearFrom(@TempDir Path dir) {
        try (Database db = TestDatabase.open(TestDatabase.Engine.SQLITE, dir)) {
            assertThat(db.changes().live()).isFalse();
        }
    }
}
