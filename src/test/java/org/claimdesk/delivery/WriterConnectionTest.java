package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.claimdesk.store.Database;
import org.claimdesk.store.DeliveryStore;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class WriterConnectionTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    /**
     * The worker notes what a failed transaction leased before any other of its write transactions starts: a
     * transaction of the other leasing thread waits until then, so it never leases a row of that failed transaction
     * anew while the note is being written (the next lease would otherwise take that row back a second time).
     */
    @Test
    void aFailedTransactionsNoteIsWrittenBeforeTheNextTransactionStarts() throws Exception {
        try (Database db = TestDatabase.open(engine, dir);
             WriterConnection writer = new WriterConnection(db, new DeliveryStore(), "worker-a")) {
            List<String> order = Collections.synchronizedList(new ArrayList<>());
            AtomicReference<Thread> next = new AtomicReference<>();

            assertThatThrownBy(() -> writer.write(session -> {
                throw new IllegalStateException("the connection was cut");
            }, () -> {
                Thread other = new Thread(() -> writer.write(session -> order.add("next transaction"), () -> { }));
                next.set(other);
                other.start();
                await().atMost(Duration.ofSeconds(5)).until(() -> other.getState() == Thread.State.WAITING);
                order.add("failure noted");
            })).hasMessage("the connection was cut");

            next.get().join(Duration.ofSeconds(5).toMillis());
            assertThat(next.get().isAlive()).isFalse();
            assertThat(order).containsExactly("failure noted", "next transaction");
            // the connection given back after the failure: the next transaction ran on a fresh one
            String again = writer.write(session -> "again", () -> { });
            assertThat(again).isEqualTo("again");
        }
    }
}
