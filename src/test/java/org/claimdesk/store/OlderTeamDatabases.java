package org.claimdesk.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.claimdesk.testing.TestDatabase;
import org.flywaydb.core.Flyway;

/** Team databases as an older ClaimDesk left them, for tests of what a newer one does with them. */
public final class OlderTeamDatabases {
    private OlderTeamDatabases() {
    }

    /** A new team database brought to schema {@code version} by Flyway, with {@code rows} inserted as its owner. */
    public static DatabaseLocation.Postgres at(String version, String rows) {
        DatabaseLocation.Postgres location = TestDatabase.newEmptyServerDatabase();
        Flyway.configure().dataSource(location.jdbcUrl(), location.user(), null)
                .locations(PostgresDatabase.MIGRATIONS).target(version).loggers("slf4j").load().migrate();
        try (Connection c = DriverManager.getConnection(location.jdbcUrl(), location.user(), null);
                Statement st = c.createStatement()) {
            st.execute(rows);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return location;
    }

    /** The highest schema version Flyway recorded in the team database at {@code location}. */
    public static int recordedVersion(DatabaseLocation.Postgres location) {
        try (Connection c = DriverManager.getConnection(location.jdbcUrl(), location.user(), null);
                Statement st = c.createStatement();
                var answer = st.executeQuery("SELECT max(version::int) FROM flyway_schema_history"
                        + " WHERE success AND version IS NOT NULL")) {
            answer.next();
            return answer.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
