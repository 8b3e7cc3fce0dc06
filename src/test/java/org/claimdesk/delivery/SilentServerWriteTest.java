package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.DeliveryStore;
import org.claimdesk.testing.SilentProxy;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;

/**
 * A team server gone silent in the middle of a worker's write (a crash, a failover, a session a firewall dropped):
 * without a limit the write, the worker's next writes and its quitting would wait for the system's keepalive, two
 * hours and more.
 */
class SilentServerWriteTest {
    private static final Duration HANG = Duration.ofSeconds(60);

    @Test
    void aWriteToASilentServerFailsWithinItsAnswerTimeAndTheNextGoesThroughOnANewConnection() throws Exception {
        DatabaseLocation.Postgres server = TestDatabase.newServerDatabase();
        try (SilentProxy proxy = new SilentProxy(server.host(), server.port());
             Database db = Database.open(through(proxy, server))) {
            WriterConnection writer = new WriterConnection(db, new DeliveryStore(), "w1", Duration.ofSeconds(2));
            assertThat(lease(writer, () -> { }).ids()).isEmpty();

            proxy.silenceOpenConnections();
            AtomicBoolean failureNoted = new AtomicBoolean();
            assertTimeoutPreemptively(HANG, () -> {
                assertThatThrownBy(() -> lease(writer, () -> failureNoted.set(true))).isInstanceOf(RuntimeException.class);
            });
            assertThat(failureNoted).isTrue();

            // connections made from now on are relayed: the pool's silent ones are found dead and replaced
            await().atMost(HANG).until(() -> {
                try {
                    return lease(writer, () -> { }).ids().isEmpty();
                } catch (RuntimeException stillSilent) {
                    return false;
                }
            });
            writer.close();
        }
    }

    @Test
    void closingDoesNotWaitForAWriteStuckOnASilentServer() throws Exception {
        DatabaseLocation.Postgres server = TestDatabase.newServerDatabase();
        try (SilentProxy proxy = new SilentProxy(server.host(), server.port());
             Database db = Database.open(through(proxy, server))) {
            WriterConnection writer = new WriterConnection(db, new DeliveryStore(), "w1", Duration.ofHours(3));
            assertThat(lease(writer, () -> { }).ids()).isEmpty();

            proxy.silenceOpenConnections();
            CompletableFuture<DeliveryStore.Session.Taken> stuck = CompletableFuture.supplyAsync(() -> lease(writer, () -> { }));
            await().during(Duration.ofMillis(500)).atMost(HANG).until(() -> !stuck.isDone());

            assertTimeoutPreemptively(HANG, writer::close);
            assertTimeoutPreemptively(HANG, () -> {
                assertThatThrownBy(stuck::get).isInstanceOf(ExecutionException.class);
            });
        }
    }

    private static DeliveryStore.Session.Taken lease(WriterConnection writer, Runnable failed) {
        return writer.write(session -> session.lease("w1", Instant.now(), Duration.ofSeconds(60), 10), failed);
    }

    private static DatabaseLocation.Postgres through(SilentProxy proxy, DatabaseLocation.Postgres server) {
        return new DatabaseLocation.Postgres("127.0.0.1", proxy.port(), server.database(), server.user(),
                server.parameters());
    }
}
