package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.claimdesk.delivery.DeliveryWorker;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.domain.DataChange;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.Test;

/** A drain's watch of the pause by staff on a team database, when the read a notification sets off fails. */
class StaffPauseWatchTest {

    @Test
    void aPauseWhoseReadAfterItsNotificationFailedIsReadAtTheNextLook() throws Exception {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();
        String staff = "watch_" + location.database();
        try (Database there = Database.open(location)) {
            DatabaseLocation.Postgres asStaff = TestDatabase.staffRole(there, staff);
            try (Database here = Database.open(asStaff); StaffPauseWatch watch = new StaffPauseWatch(here)) {
                assertThat(watch.current()).isEmpty();
                // subscribed after the watch: the feed's thread calls it once the watch has handled the same change
                List<Set<DataChange>> heard = new CopyOnWriteArrayList<>();
                here.changes().subscribe(heard::add);

                // the read the pause's notification sets off fails (here: refused; as well a pool with no free
                // connection or a server that stopped answering)
                there.useTransaction(h -> h.execute("REVOKE SELECT ON worker_pause FROM " + staff));
                pauseFrom(there);
                Awaitility.await().atMost(Duration.ofSeconds(10))
                        .until(() -> heard.stream().anyMatch(s -> s.contains(DataChange.WORKER)));
                assertThat(watch.current()).as("still refused: the last pause read").isEmpty();

                there.useTransaction(h -> h.execute("GRANT SELECT ON worker_pause TO " + staff));
                // read again within a second of the failed read, at a look
                Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> watch.get() != null);
                assertThat(watch.get()).startsWith("the delivery worker was paused by m.alvarez at ")
                        .endsWith(": state maintenance tonight");
            }
        }
    }

    /**
     * While the live updates are lost (the listening connection cut, and no new one let in), a pause made elsewhere
     * is read at a look, at most once a second, instead of waiting for the feed to come back.
     */
    @Test
    void aPauseMadeWhileTheLiveUpdatesAreLostIsReadAtTheNextLook() throws Exception {
        DatabaseLocation.Postgres location = TestDatabase.newServerDatabase();
        String staff = "watchlost_" + location.database();
        try (Database there = Database.open(location)) {
            DatabaseLocation.Postgres asStaff = TestDatabase.staffRole(there, staff);
            try (Database here = Database.open(asStaff); StaffPauseWatch watch = new StaffPauseWatch(here)) {
                assertThat(watch.current()).isEmpty();
                assertThat(here.changes().connected()).isTrue();

                there.useTransaction(h -> h.execute("ALTER ROLE " + staff + " CONNECTION LIMIT 0"));
                try {
                    there.useTransaction(h -> h.createQuery("""
                            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                            WHERE usename = :staff AND application_name = 'ClaimDesk live updates'""")
                            .bind("staff", staff).mapTo(Boolean.class).list());
                    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !here.changes().connected());

                    pauseFrom(there);
                    Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> watch.get() != null);
                    assertThat(here.changes().connected()).as("still lost: read, not heard").isFalse();
                    assertThat(watch.get()).endsWith(": state maintenance tonight");
                } finally {
                    there.useTransaction(h -> h.execute("ALTER ROLE " + staff + " CONNECTION LIMIT -1"));
                }
            }
        }
    }

    /** m.alvarez pauses the worker from {@code there}, another workstation. */
    private static void pauseFrom(Database there) {
        try (AuditedWorker theirs = new AuditedWorker(new DeliveryWorker(there,
                new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable())),
                Workers.fast(), Clock.systemUTC(), Deadlines.statutory()), there, Clock.systemUTC(), "m.alvarez")) {
            theirs.pause("state maintenance tonight");
        }
    }
}
