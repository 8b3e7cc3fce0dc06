package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.claimdesk.testing.SilentProxy;
import org.claimdesk.testing.Sql;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;

/**
 * A team server gone silent in the middle of a read (a crash, a failover, a session a firewall dropped): the read
 * ends with an error after the pool's answer time, not after the system's keepalive, and the next read goes through
 * on a new connection once the server answers again.
 */
class SilentServerReadTest {
    private static final Duration HANG = Duration.ofSeconds(60);

    @Test
    void thePoolsConnectionsWaitFiveMinutesForAnAnswer() throws Exception {
        try (HikariDataSource pool = PostgresDatabase.pool(TestDatabase.newServerDatabase(), "answer-time");
             Connection connection = pool.getConnection()) {
            assertThat(connection.getNetworkTimeout()).isEqualTo(300_000);
        }
    }

    @Test
    void aReadFromASilentServerEndsWithAnErrorAndTheNextOneGoesThrough() throws Exception {
        DatabaseLocation.Postgres server = TestDatabase.newServerDatabase();
        try (SilentProxy proxy = new SilentProxy(server.host(), server.port())) {
            // an address's socketTimeout replaces the pool's five minutes, as IT may set it
            Map<String, String> settings = new HashMap<>(server.parameters());
            settings.put("socketTimeout", "2");
            try (Database db = Database.open(new DatabaseLocation.Postgres("127.0.0.1", proxy.port(),
                    server.database(), server.user(), settings))) {
                assertThat(Sql.count(db, "claim")).isZero();

                proxy.silenceOpenConnections();
                assertTimeoutPreemptively(HANG, () -> {
                    assertThatThrownBy(() -> Sql.count(db, "claim")).isInstanceOf(RuntimeException.class);
                });

                await().atMost(HANG).until(() -> {
                    try {
                        return Sql.count(db, "claim") == 0;
                    } catch (RuntimeException stillSilent) {
                        return false;
                    }
                });
            }
        }
    }
}
