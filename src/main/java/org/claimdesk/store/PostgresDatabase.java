package org.claimdesk.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.zip.CRC32;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.callback.BaseCallback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.JdbiException;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opening a team database on a PostgreSQL server: the pool, the schema (Flyway, which holds a lock while it
 * migrates, so two workstations upgrading at once apply each migration once), and what the server's refusals
 * mean in one sentence for staff. The password comes from {@code PGPASSWORD} when it is set, else from the password
 * file ({@link PasswordFile}); it is never part of the location, a message or a log.
 */
final class PostgresDatabase {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresDatabase.class);
    /** Where the PostgreSQL migrations are; version numbers follow the SQLite schema's. */
    static final String MIGRATIONS = "classpath:org/claimdesk/store/migrations/postgresql";
    /** How long a statement waits for a row another workstation holds before it gives up, in ms. */
    static final int LOCK_TIMEOUT_MS = 10_000;
    /** The server's setting for {@link #LOCK_TIMEOUT_MS}, in the driver's {@code options}. */
    static final String LOCK_TIMEOUT_OPTION = "-c lock_timeout=" + LOCK_TIMEOUT_MS;
    /**
     * A workstation that goes away in the middle of a transaction (a laptop asleep, the network cut) would leave its
     * session, and the locks it holds (the new claims' lock of an import batch, a claim's row), on the server until
     * the operating system's keepalive gives up after two hours or more, and every other workstation's matching
     * writes would give up meanwhile. The server asks a silent workstation after 60 s, every 10 s, and ends its
     * session after six unanswered questions; a session left idle inside a transaction for 5 minutes is ended too
     * (no ClaimDesk transaction waits on staff; a move, which is one long transaction, turns it off for itself).
     */
    static final String GONE_CLIENT_OPTIONS = "-c tcp_keepalives_idle=60 -c tcp_keepalives_interval=10"
            + " -c tcp_keepalives_count=6 -c idle_in_transaction_session_timeout=300000";
    /** How long a pooled connection's statement waits for the server's answer (the driver's socketTimeout). */
    static final java.time.Duration POOL_ANSWER_WITHIN = java.time.Duration.ofMinutes(5);
    private static final ScheduledExecutorService CANCELLER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "claimdesk-query-canceller");
        t.setDaemon(true);
        return t;
    });

    private PostgresDatabase() {
    }

    /**
     * @param session this open database's name in the change feed's notifications ({@code claimdesk.session} on
     *     every pooled connection), so its own changes can be told from other workstations'
     */
    static HikariDataSource pool(DatabaseLocation.Postgres server, String session) {
        HikariConfig pool = new HikariConfig();
        pool.setJdbcUrl(server.jdbcUrl());
        java.util.Properties properties = properties(server, ServerHealthStore.applicationName());
        // No parallel workers: a workstation's statements are pages and counts in the background, and a count of
        // 1,000,000 outbox rows run in three server processes takes every processor of a small server (and, where
        // the server shares a machine with a console, the console's) for about a second each time.
        properties.setProperty("options", LOCK_TIMEOUT_OPTION + " -c claimdesk.session=" + session
                + " -c max_parallel_workers_per_gather=0 " + GONE_CLIENT_OPTIONS);
        properties.setProperty("tcpKeepAlive", "true");
        // a server gone silent mid-statement (a crash, a failover, a session a firewall dropped) fails the statement
        // after this long instead of the system's keepalive, two hours and more: a page's read ends with an error
        // staff see, and the pool's next connection is a new one. Far above any statement of a workstation's; a
        // schema upgrade lifts it for its own connection; an address's socketTimeout replaces it.
        properties.setProperty("socketTimeout", Long.toString(POOL_ANSWER_WITHIN.toSeconds()));
        // the pool's logged configuration masks the password among these
        pool.setDataSourceProperties(properties);
        pool.setPoolName("claimdesk-db");
        pool.setMaximumPoolSize(8);
        pool.setMinimumIdle(1);
        pool.setConnectionTimeout(10_000);
        // a wrong host, database or password fails here, at once, with the server's reason
        pool.setInitializationFailTimeout(1);
        try {
            return new HikariDataSource(pool);
        } catch (RuntimeException e) {
            throw translate(server, e);
        }
    }

    /**
     * One connection outside the pool: for work that holds a connection for as long as the console runs (the
     * live-update feed), or a look at a database before it is opened (a move's check that it is empty); the same
     * server, role, password source and driver parameters as the pool.
     */
    static Connection connect(DatabaseLocation.Postgres server, String applicationName) throws SQLException {
        return connect(server, applicationName, new java.util.Properties());
    }

    /** As {@link #connect(DatabaseLocation.Postgres, String)}, with more of the driver's connection properties. */
    static Connection connect(DatabaseLocation.Postgres server, String applicationName, java.util.Properties more)
            throws SQLException {
        java.util.Properties properties = properties(server, applicationName);
        properties.putAll(more);
        Connection connection = new org.postgresql.Driver().connect(server.jdbcUrl(), properties);
        if (connection == null) {
            throw new SQLException("not a PostgreSQL address: " + server.describe());
        }
        return connection;
    }

    /**
     * The driver's properties every connection of ClaimDesk's has: the role, the password ({@link #password}), the
     * session's name, and no detail of a refusal (the server's detail quotes the row refused, a tax id among its
     * values, and refusals reach standard error, the log and an import's audit entry).
     */
    private static java.util.Properties properties(DatabaseLocation.Postgres server, String applicationName) {
        java.util.Properties properties = new java.util.Properties();
        properties.setProperty("user", server.role());
        password(server).ifPresent(p -> properties.setProperty("password", p));
        properties.setProperty("logServerErrorDetail", "false");
        properties.setProperty("ApplicationName", applicationName);
        return properties;
    }

    /**
     * Brings the schema up to date. A database written by a newer ClaimDesk is refused untouched, as a file is; a
     * database with other tables but no ClaimDesk schema history is refused untouched too. A database that is
     * {@linkplain #current current} is left as it is without starting Flyway, whose set-up (finding and reading its
     * migrations, taking its lock, reading the history again) costs every workstation's start about 0.2 s.
     */
    static void migrate(DataSource dataSource, DatabaseLocation.Postgres server, SchemaProgress progress) {
        int found = schemaVersion(dataSource);
        if (found > Migrations.latestVersion()) {
            throw new DatabaseException("the team " + server.describe() + " was written by a newer ClaimDesk"
                    + " (schema version " + found + ", this version knows up to " + Migrations.latestVersion()
                    + "); it was not modified: install the newer ClaimDesk to open it");
        }
        if (found == Migrations.latestVersion() && current(dataSource)) {
            return;
        }
        int feed = changeFeedRevision(dataSource);
        if (feed > CHANGE_FEED_REVISION) {
            throw new DatabaseException("the team " + server.describe() + " was written by a newer ClaimDesk"
                    + " (its live updates' triggers are revision " + feed + ", this version knows up to "
                    + CHANGE_FEED_REVISION + "); it was not modified: install the newer ClaimDesk to open it");
        }
        try {
            Flyway.configure()
                    .dataSource(dataSource)
                    .locations(MIGRATIONS)
                    .loggers("slf4j")
                    .ignoreMigrationPatterns("*:missing")
                    .validateMigrationNaming(true)
                    .callbacks(new Progress(found, progress))
                    .load()
                    .migrate();
        } catch (FlywayException e) {
            if (permissionDenied(e)) {
                throw new DatabaseException("the team " + server.describe() + " needs its schema brought up"
                        + " to date by its owner before " + server.role() + " can use it: IT runs claimdesk --db"
                        + " postgresql://OWNER@" + server.address() + "/" + server.database()
                        + " doctor once (docs/operations.md, Upgrades); it was not modified", e);
            }
            if (e.getMessage() != null && e.getMessage().contains("non-empty schema")) {
                throw new DatabaseException("the team " + server.describe() + " holds tables but is not a"
                        + " ClaimDesk database; it was not modified (docs/operations.md: server and database)", e);
            }
            throw new DatabaseException("the team " + server.describe() + " could not be brought up to"
                    + " date: " + e.getMessage(), e);
        }
    }

    /** Tells {@link SchemaProgress} of each versioned migration Flyway is about to apply. */
    private static final class Progress extends BaseCallback {
        private final int found;
        private final SchemaProgress progress;

        Progress(int found, SchemaProgress progress) {
            this.found = found;
            this.progress = progress;
        }

        @Override
        public boolean supports(Event event, Context context) {
            return event == Event.BEFORE_EACH_MIGRATE;
        }

        @Override
        public void handle(Event event, Context context) {
            try {
                // an index built over millions of rows may take the server longer than the pool's answer time
                context.getConnection().setNetworkTimeout(Runnable::run, 0);
            } catch (SQLException e) {
                LOG.debug("could not lift the answer time of the schema upgrade's connection", e);
            }
            MigrationInfo migration = context.getMigrationInfo();
            if (migration != null && migration.isVersioned()) {
                progress.applying(found, Integer.parseInt(migration.getVersion().getVersion()), Migrations.latestVersion());
            }
        }
    }

    /**
     * True when the history records each repeatable migration of this build with the checksum Flyway gives its
     * script now, as a database that Flyway has just brought up to date does. The caller knows the latest version
     * is recorded: each versioned migration commits with its history row in one transaction, so that row is there
     * only once its schema is. A repeatable script changed by a newer build, or never applied, leaves the work to
     * Flyway.
     */
    static boolean current(DataSource dataSource) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = c.prepareStatement("SELECT checksum FROM flyway_schema_history"
                        + " WHERE success AND version IS NULL AND script = ? ORDER BY installed_rank DESC LIMIT 1")) {
            for (String script : REPEATABLE) {
                s.setString(1, script);
                try (ResultSet rs = s.executeQuery()) {
                    if (!rs.next() || rs.getInt(1) != flywayChecksum(script)) {
                        return false;
                    }
                }
            }
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /** The change feed's repeatable script. */
    static final String CHANGE_FEED_SCRIPT = "R__change_feed.sql";

    /** How the change feed's script names its revision, in its function's comment. */
    private static final java.util.regex.Pattern REVISION =
            java.util.regex.Pattern.compile("ClaimDesk change feed, revision (\\d+)");

    /** The revision of this build's change feed script (it says it in its last statement). */
    static final int CHANGE_FEED_REVISION = scriptRevision(CHANGE_FEED_SCRIPT);

    private static int scriptRevision(String script) {
        java.util.regex.Matcher m = REVISION.matcher(script(script));
        if (!m.find()) {
            throw new IllegalStateException("the migration " + script + " does not say its revision");
        }
        return Integer.parseInt(m.group(1));
    }

    /**
     * The revision of the change feed's triggers in the database: what its function's comment says, 1 for the
     * triggers written before revisions were, 0 when there are none yet.
     */
    static int changeFeedRevision(DataSource dataSource) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = c.prepareStatement("SELECT obj_description(p.oid, 'pg_proc') FROM pg_proc p"
                        + " JOIN pg_namespace n ON n.oid = p.pronamespace"
                        + " WHERE p.proname = 'claimdesk_changed' AND n.nspname = current_schema()")) {
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return 0;
                }
                String comment = rs.getString(1);
                java.util.regex.Matcher m = REVISION.matcher(comment == null ? "" : comment);
                return m.find() ? Integer.parseInt(m.group(1)) : 1;
            }
        } catch (SQLException e) {
            throw new DatabaseException("cannot read the team database's change feed: " + e.getMessage(), e);
        }
    }

    /** The repeatable migrations among {@link #MIGRATIONS}, by script name. */
    static final List<String> REPEATABLE = List.of(CHANGE_FEED_SCRIPT);

    /**
     * The checksum Flyway records for a migration script: a CRC-32 over its lines in UTF-8, without line breaks and
     * without a byte-order mark on the first.
     */
    static int flywayChecksum(String script) {
        CRC32 crc = new CRC32();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(migration(script), StandardCharsets.UTF_8))) {
            String line = lines.readLine();
            if (line != null && line.startsWith("\uFEFF")) {
                line = line.substring(1);
            }
            for (; line != null; line = lines.readLine()) {
                crc.update(line.getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the migration " + script, e);
        }
        return (int) crc.getValue();
    }

    /** The text of this build's migration script {@code script}, if this build has it. */
    static java.util.Optional<String> scriptIfPresent(String script) {
        return PostgresDatabase.class.getClassLoader().getResource(resource(script)) == null
                ? java.util.Optional.empty() : java.util.Optional.of(script(script));
    }

    /** The text of this build's migration script {@code script}. */
    static String script(String script) {
        try (InputStream in = migration(script)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the migration " + script, e);
        }
    }

    /** Where this build's migration script {@code script} is among the class path's resources. */
    private static String resource(String script) {
        return MIGRATIONS.substring("classpath:".length()) + "/" + script;
    }

    /** One of this build's migration scripts, by name. */
    private static InputStream migration(String script) {
        String resource = resource(script);
        InputStream in = PostgresDatabase.class.getClassLoader().getResourceAsStream(resource);
        if (in == null) {
            throw new IllegalStateException("the migration " + resource + " is not in this build");
        }
        return in;
    }

    /** True when the server refused a migration's statement for want of a privilege (the role is not the owner). */
    private static boolean permissionDenied(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && "42501".equals(sql.getSQLState())) {
                return true;
            }
            if (t.getMessage() != null && (t.getMessage().contains("must be owner of")
                    || t.getMessage().contains("permission denied"))) {
                return true;
            }
        }
        return false;
    }

    /** The schema version Flyway recorded, 0 for a database without ClaimDesk's schema. */
    static int schemaVersion(DataSource dataSource) {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            try (ResultSet exists = s.executeQuery("SELECT to_regclass('flyway_schema_history') IS NOT NULL")) {
                exists.next();
                if (!exists.getBoolean(1)) {
                    return 0;
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT coalesce(max(CAST(version AS integer)), 0)"
                    + " FROM flyway_schema_history WHERE success AND version IS NOT NULL")) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new DatabaseException("cannot read the schema version: " + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code work}, asking the server to stop its statement as soon as {@code cancelled} says so (checked every
     * 50 ms); the read then ends with {@link CancellationException}.
     */
    static <R> R cancellableRead(Database database, HandleCallback<R, RuntimeException> work,
            BooleanSupplier cancelled) {
        try {
            return database.jdbi().withHandle(h -> {
                PGConnection connection = h.getConnection().unwrap(PGConnection.class);
                // the server stops whatever the connection runs when the request arrives: none may be sent once the
                // read is over and the pool may lend the connection to another caller, so the check and the read's
                // end take turns
                Object turns = new Object();
                boolean[] reading = {true};
                ScheduledFuture<?> watch = CANCELLER.scheduleWithFixedDelay(() -> {
                    synchronized (turns) {
                        if (reading[0] && cancelled.getAsBoolean()) {
                            try {
                                connection.cancelQuery();
                            } catch (SQLException e) {
                                // the statement ended meanwhile: nothing to stop
                            }
                        }
                    }
                }, 50, 50, TimeUnit.MILLISECONDS);
                try {
                    return work.withHandle(h);
                } finally {
                    watch.cancel(false);
                    synchronized (turns) {
                        reading[0] = false;
                    }
                }
            });
        } catch (JdbiException e) {
            if (cancelled.getAsBoolean()) {
                throw new CancellationException("read cancelled");
            }
            throw translate((DatabaseLocation.Postgres) database.location(), e);
        } catch (SQLException e) {
            throw translate((DatabaseLocation.Postgres) database.location(), e);
        }
    }

    /**
     * {@code PGPASSWORD} when it is set, else the password file's password for the server ({@link PasswordFile}),
     * else none. Given none, the driver would read the password file itself, whatever its permissions, and fail on a
     * line that is not whole: its own reading is pointed at a name no file can have ({@code org.postgresql.pgpassfile},
     * the driver's setting for it, holds a NUL character, which no file system takes).
     */
    private static java.util.Optional<String> password(DatabaseLocation.Postgres server) {
        System.setProperty("org.postgresql.pgpassfile", NO_FILE);
        return passwordVariable().or(() -> PasswordFile.lookup(server).password());
    }

    /** A file name the driver cannot open: see {@link #password}. */
    static final String NO_FILE = "claimdesk reads the password file itself\0.conf";

    private static java.util.Optional<String> passwordVariable() {
        return java.util.Optional.ofNullable(System.getenv("PGPASSWORD")).filter(p -> !p.isEmpty());
    }

    /**
     * As {@link #translate(DatabaseLocation.Postgres, RuntimeException)} for an {@link SQLException} met outside
     * Jdbi: the refusal's meaning, or the server's first line of it.
     */
    static DatabaseException translate(DatabaseLocation.Postgres server, SQLException e) {
        DatabaseException known = meaning(server, e, e);
        if (known != null) {
            return known;
        }
        String message = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
        return new DatabaseException("the team " + server.describe() + ": " + message, e);
    }

    /**
     * Whether the server's refusal {@code sql} can pass with time: no connection (class 08, but a refused login), the
     * server starting or shutting down, no connection left, a serialization failure or deadlock, a lock not available.
     */
    static boolean mayPass(SQLException sql) {
        String state = sql.getSQLState() == null ? "" : sql.getSQLState();
        return state.startsWith("08") && !state.equals("08004") || state.equals("57P01") || state.equals("57P02")
                || state.equals("57P03") || state.equals("53300") || state.equals("40001") || state.equals("40P01")
                || state.equals("55P03");
    }

    /** What the server's refusal means, in one sentence naming the server (never a password). */
    static RuntimeException translate(DatabaseLocation.Postgres server, RuntimeException e) {
        if (e instanceof DatabaseException) {
            return e;
        }
        SQLException sql = null;
        for (Throwable t = e; t != null && sql == null; t = t.getCause()) {
            if (t instanceof SQLException s) {
                sql = s;
            }
        }
        if (sql == null) {
            return e;
        }
        DatabaseException known = meaning(server, sql, e);
        return known == null ? e : known;
    }

    /**
     * What the server's refusal {@code sql} means, in one sentence naming the server (with {@code e}, the exception
     * met, as its cause), or null where it is not known.
     */
    private static DatabaseException meaning(DatabaseLocation.Postgres server, SQLException sql, Throwable e) {
        String state = sql.getSQLState() == null ? "" : sql.getSQLState();
        String where = "the team " + server.describe();
        // 08004 is also the driver's for a server without the TLS asked of it ("The server does not support SSL", in
        // every translation of the driver's messages naming SSL); any other 08004 is about the password
        boolean password = state.equals("28P01") || state.equals("08004") && (sql.getMessage() == null
                || !sql.getMessage().contains("SSL"));
        if (state.equals("08004") && !password) {
            return new DatabaseException("the server " + server.address() + " rejected the connection ("
                    + sql.getMessage() + "): check the address's sslmode against the server's TLS set-up with IT"
                    + " (docs/operations.md)", e);
        }
        if (password) {
            String unread = passwordVariable().isPresent() ? null : PasswordFile.lookup(server).unread();
            return new DatabaseException("the server " + server.address() + " refused the login of "
                    + server.role() + ": set PGPASSWORD or add the password to ~/.pgpass (docs/operations.md)"
                    + (unread == null ? "" : "; " + unread), e);
        }
        if (state.equals("28000")) {
            // no such role, or no pg_hba.conf line lets it in from here (e.g. a server that takes TLS connections
            // only): the server's own reason says which, and it holds no password
            return new DatabaseException("the server " + server.address() + " refused the login of " + server.role()
                    + " (" + sql.getMessage() + "): IT checks the role and the server's pg_hba.conf"
                    + " (docs/operations.md)", e);
        }
        if (state.equals("3D000")) {
            return new DatabaseException("the server " + server.address() + " has no database "
                    + server.database() + ": IT creates it (docs/operations.md)", e);
        }
        if (state.startsWith("08")) {
            return new DatabaseException("cannot reach " + where + ": check the address and that the server runs"
                    + " (" + sql.getMessage() + ")", e);
        }
        if (state.equals("42501")) {
            return new DatabaseException("the role " + server.role() + " may not do this on " + where + " ("
                    + sql.getMessage() + "): staff's work needs the grants docs/operations.md gives the staff role"
                    + " (server and database); demo data, bench, migrate and schema upgrades run as the owner role", e);
        }
        if (state.equals("53100")) {
            return new DatabaseException("the disk of " + where + " is full; nothing was written", e);
        }
        if (state.equals("57P03") || state.equals("57P01") || state.equals("57P02")) {
            return new DatabaseException(where + " is starting or shutting down; try again in a moment", e);
        }
        if (state.equals("57014")) {
            return new DatabaseException(where + " stopped the statement before it ended (a time limit set on the"
                    + " server, or cancelled there); nothing was changed; try again, and if it goes on, IT checks the"
                    + " server's statement_timeout (docs/operations.md)", e);
        }
        if (state.equals("25006")) {
            return new DatabaseException(where + " takes no changes (a standby server, e.g. after a failover);"
                    + " nothing was written: IT points ClaimDesk at the primary server", e);
        }
        if (state.equals("53300")) {
            return new DatabaseException(where + " has no connection left for this workstation (too many open);"
                    + " try again in a moment; if it goes on, IT raises the server's max_connections"
                    + " (docs/operations.md)", e);
        }
        if (state.equals("40001") || state.equals("40P01")) {
            return new DatabaseException(where + ": another workstation's change met this one; nothing was changed;"
                    + " try again", e);
        }
        if (state.isEmpty() && sql instanceof java.sql.SQLTransientConnectionException) {
            // the pool's wait for a connection ran out, its last failure without a state of its own
            return new DatabaseException("cannot reach " + where + " in time: check that the server runs and is"
                    + " reachable from this workstation (" + sql.getMessage() + ")", e);
        }
        if (state.equals("55P03")) {
            return new DatabaseException(where + ": another workstation holds what this needs; try again", e);
        }
        return null;
    }
}
