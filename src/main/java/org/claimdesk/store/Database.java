package org.claimdesk.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.HandleConsumer;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.sqlite.ProgressHandler;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * One ClaimDesk database: a local file (the default) or, in team mode, a database on a PostgreSQL server
 * ({@link DatabaseLocation}). On a file, a small connection pool over sqlite-jdbc with WAL, a busy timeout,
 * foreign keys, and IMMEDIATE transactions (a transaction that reads then writes must take the write
 * lock up front, or a second writer makes it fail at once with "database is locked"). On a server, a pool over
 * pgjdbc ({@link PostgresDatabase}). Either way the schema is brought up to date when it opens, and the stores
 * find the engine's {@link Dialect} through their handles.
 */
public final class Database implements AutoCloseable {
    public static final int DEFAULT_BUSY_TIMEOUT_MS = 10_000;
    /** How many SQLite virtual-machine steps run between two checks of a cancellable read. */
    static final int CANCEL_CHECK_STEPS = 2_000;

    private final DatabaseLocation location;
    private final Dialect dialect;
    private final Path path;
    private final HikariDataSource dataSource;
    /** A desk's file without the pool, for {@link #soleConnection}; null on a team database. */
    private final SQLiteDataSource direct;
    /** True while a {@link #soleConnection} has the file to itself. */
    private final AtomicBoolean sole = new AtomicBoolean();
    private final Jdbi jdbi;
    /** A desk's file as the file system knows it when opened (its inode), null until then or where none is kept. */
    private volatile Object fileKey;
    /** Said once the desk's file is found moved, replaced or deleted under the open database; null while it is not. */
    private volatile String fileGone;
    private PostgresChangeFeed feed;
    /** On a team database, this open database's name in the change feed; null on a file. */
    private String session;
    /** The time this workstation writes and reads against ({@link #clock}). */
    private Clock clock = Clock.systemDefaultZone();
    /** The zone {@link #clock} counts days in ({@link OfficeZone}). */
    private OfficeZone officeZone = OfficeZone.workstation();
    /** The office's decision deadlines a team database sets ({@link #officeDeadlineDays}); null on a file. */
    private String officeDeadlineDays;
    /** On a team database, what measures the clock's distance from the server's again; null on a file. */
    private ScheduledExecutorService clockMeasures;

    private Database(DatabaseLocation location, Dialect dialect, HikariDataSource dataSource, SQLiteDataSource direct) {
        this.direct = direct;
        this.location = location;
        this.dialect = dialect;
        this.path = location instanceof DatabaseLocation.SqliteFile f ? f.file() : null;
        this.dataSource = dataSource;
        this.jdbi = jdbi(dataSource, dialect);
    }

    /**
     * Jdbi on {@code source}, knowing its engine. A failed statement's exception carries the database's reason only:
     * Jdbi's own message would add the statement's bound values (a tax id among them), and failures reach standard
     * error and the log.
     */
    private static Jdbi jdbi(javax.sql.DataSource source, Dialect dialect) {
        Jdbi jdbi = Jdbi.create(source);
        jdbi.define(Dialect.ATTRIBUTE, dialect);
        jdbi.getConfig(org.jdbi.v3.core.statement.StatementExceptions.class)
                .setMessageRendering(org.jdbi.v3.core.statement.StatementExceptions.MessageRendering.NONE);
        return jdbi;
    }

    public static Database open(DatabaseLocation location) {
        return open(location, SchemaProgress.NONE);
    }

    /** Opens {@code location}, telling {@code progress} of each schema version applied on the way. */
    public static Database open(DatabaseLocation location, SchemaProgress progress) {
        if (location instanceof DatabaseLocation.Postgres server) {
            String session = java.util.UUID.randomUUID().toString().substring(0, 8);
            HikariDataSource pool = PostgresDatabase.pool(server, session);
            Database database = new Database(server, Dialect.POSTGRESQL, pool, null);
            database.session = session;
            try {
                PostgresDatabase.migrate(pool, server, progress);
                java.util.Map<String, String> settings = DatabaseSettings.of(database.jdbi);
                database.officeZone = OfficeZone.of(settings);
                database.officeDeadlineDays = settings.get(DatabaseSettings.DEADLINE_DAYS);
                ServerClock clock = ServerClock.measured(database.jdbi, Clock.system(database.officeZone.zone()));
                database.clock = clock;
                database.clockMeasures = clock.remeasureEvery(database.jdbi);
                return database;
            } catch (RuntimeException e) {
                database.close();
                throw PostgresDatabase.translate(server, e);
            }
        }
        return open(((DatabaseLocation.SqliteFile) location).file(), DEFAULT_BUSY_TIMEOUT_MS, progress);
    }

    public static Database open(Path path) {
        return open(path, DEFAULT_BUSY_TIMEOUT_MS);
    }

    public static Database open(Path path, int busyTimeoutMs) {
        return open(path, busyTimeoutMs, SchemaProgress.NONE);
    }

    /**
     * The driver's address of the file {@code absolute}: its plain path (SQLite reads a name that does not begin with
     * {@code file:} as it is, a '#' or '%' in a folder "Desk #2" included; a Windows share's {@code \\server\share}
     * too), unless it holds a '?', which the driver would take for the start of its own settings: then as a URI with
     * the path's characters escaped (only a POSIX path can hold a '?', and its URI has no authority).
     */
    static String sqliteUrl(Path absolute) {
        return "jdbc:sqlite:" + (absolute.toString().indexOf('?') < 0 ? absolute.toString()
                : absolute.toUri().toASCIIString());
    }

    /** The write-ahead log's size after a checkpoint, at most (64 MiB: twice the worker's checkpoint threshold). */
    static final int JOURNAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

    private static Database open(Path path, int busyTimeoutMs, SchemaProgress progress) {
        Path absolute = path.toAbsolutePath().normalize();
        boolean created = prepareFile(absolute);
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        // after a checkpoint the log is cut back to this: an import's or a drain's burst would otherwise keep its
        // largest size on disk for as long as a console keeps the file open (weeks)
        config.setJournalSizeLimit(JOURNAL_SIZE_LIMIT_BYTES);
        config.setBusyTimeout(busyTimeoutMs);
        config.enforceForeignKeys(true);
        config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        SQLiteDataSource sqlite = new SQLiteDataSource(config);
        sqlite.setUrl(sqliteUrl(absolute));
        preflight(absolute, sqlite);

        HikariConfig pool = new HikariConfig();
        pool.setDataSource(sqlite);
        pool.setPoolName("claimdesk-db");
        pool.setMaximumPoolSize(4);
        pool.setMinimumIdle(1);
        pool.setConnectionTimeout(Math.max(30_000, busyTimeoutMs + 5_000L));
        pool.setInitializationFailTimeout(-1);
        pool.setAllowPoolSuspension(true);
        HikariDataSource dataSource = new HikariDataSource(pool);
        Database database = new Database(new DatabaseLocation.SqliteFile(absolute), Dialect.SQLITE, dataSource, sqlite);
        try {
            Migrations.migrate(database.jdbi, absolute.toString(), progress);
            if (created) {
                ownerOnly(absolute);
            }
            // from now on a connection never makes the file: one the pool opens after the file was moved or deleted
            // would make a new, empty database beside the old one's -wal and -shm files
            config.resetOpenMode(org.sqlite.SQLiteOpenMode.CREATE);
            database.fileKey = fileKey(absolute);
            return database;
        } catch (RuntimeException e) {
            database.close();
            throw translate(absolute, e);
        }
    }

    private static boolean prepareFile(Path file) {
        try {
            Path dir = file.getParent();
            if (dir != null && !Files.isDirectory(dir)) {
                Files.createDirectories(dir);
                ownerOnly(dir);
            }
        } catch (IOException e) {
            throw new DatabaseException("cannot create the folder for the database " + file + ": " + e.getMessage(), e);
        }
        if (Files.exists(file)) {
            if (Files.isDirectory(file)) {
                throw new DatabaseException("the database path " + file + " is a folder, not a file");
            }
            if (!Files.isReadable(file)) {
                throw new DatabaseException("the database " + file + " cannot be read: check its permissions");
            }
            return false;
        }
        try {
            // owner-only from its first byte: SQLite gives its -wal and -shm files the database file's mode when it
            // makes them (during the migrations, holding the first claims), which the umask would leave readable
            OwnerOnly.create(file, false);
        } catch (java.nio.file.FileAlreadyExistsException meanwhile) {
            return false;
        } catch (IOException | UnsupportedOperationException e) {
            // SQLite makes the file itself, and it is restricted once the schema is in (permissions are best effort
            // on file systems that do not keep them)
        }
        return true;
    }

    /**
     * Opens one plain connection and reads the schema, so that a file that is not a database, is
     * damaged or cannot be written fails here at once with a clear message, not after the pool's
     * connection timeout.
     */
    private static void preflight(Path file, SQLiteDataSource sqlite) {
        try (java.sql.Connection c = sqlite.getConnection(); java.sql.Statement s = c.createStatement()) {
            s.executeQuery("SELECT count(*) FROM sqlite_master").close();
        } catch (SQLException e) {
            throw translate(file, new DatabaseException(e.getMessage(), e), true);
        }
    }

    static void ownerOnly(Path path) {
        try {
            OwnerOnly.restrict(path);
        } catch (IOException | UnsupportedOperationException e) {
            // Permissions are best effort on file systems that do not keep them.
        }
    }

    /** Turns what the driver says about an unusable file into one sentence for staff. */
    static RuntimeException translate(Path file, RuntimeException e) {
        return translate(file, e, false);
    }

    private static RuntimeException translate(Path file, RuntimeException e, boolean always) {
        if (e instanceof DatabaseException && !always) {
            return e;
        }
        SQLiteException sqlite = findSqliteException(e);
        if (sqlite == null) {
            return e;
        }
        SQLiteErrorCode code = sqlite.getResultCode();
        String base = code == null ? "" : code.name();
        if (base.startsWith("SQLITE_NOTADB")) {
            return new DatabaseException("the file " + file + " is not a ClaimDesk database (not an SQLite file); it was not modified", e);
        }
        if (base.startsWith("SQLITE_CORRUPT")) {
            return new DatabaseException("the database " + file + " is damaged or truncated; restore it from a backup", e);
        }
        if (base.equals("SQLITE_READONLY_DBMOVED")) {
            return new DatabaseException(movedSentence(file), e);
        }
        if (base.startsWith("SQLITE_READONLY")) {
            return new DatabaseException("the database " + file + " or its folder is read-only; ClaimDesk needs to write to both", e);
        }
        if (base.startsWith("SQLITE_CANTOPEN")) {
            return new DatabaseException("the database " + file + " cannot be opened: check that the file and its folder exist and are writable", e);
        }
        if (locked(sqlite)) {
            return new DatabaseException("the database " + file + " is locked by another program; try again when it is done", e);
        }
        if (base.startsWith("SQLITE_FULL")) {
            return new DatabaseException("the disk holding " + file + " is full; free space and try again (nothing was written)", e);
        }
        return new DatabaseException("the database " + file + " reported an error: " + sqlite.getMessage(), e);
    }

    /**
     * Whether failure {@code e} of this database can pass with time, so that the same work tried again later may go
     * through: the file locked by another program past the busy timeout, the team database's server out of reach,
     * restarting, out of connections, or a transaction of another workstation met; not a refusal of the work itself
     * (a constraint, a grant, a full disk, a damaged file).
     */
    public boolean mayPass(Throwable e) {
        SQLiteException sqlite = findSqliteException(e);
        if (sqlite != null) {
            return locked(sqlite);
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLTransientException || t instanceof java.sql.SQLRecoverableException) {
                return true;
            }
            if (t instanceof SQLException sql) {
                return PostgresDatabase.mayPass(sql);
            }
        }
        return false;
    }

    /** Whether SQLite's {@code failure} is the file held by another connection or program (busy, or locked). */
    static boolean locked(SQLiteException failure) {
        String code = failure.getResultCode() == null ? "" : failure.getResultCode().name();
        return code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED");
    }

    static SQLiteException findSqliteException(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLiteException s) {
                return s;
            }
            if (t instanceof SQLException sql && sql.getNextException() instanceof SQLiteException s) {
                return s;
            }
        }
        return null;
    }

    /**
     * The database file.
     *
     * @throws DatabaseException for a team database, which is not a file
     */
    public Path path() {
        if (path == null) {
            throw new DatabaseException("the team " + location.describe() + " is not a file");
        }
        return path;
    }

    public DatabaseLocation location() {
        return location;
    }

    /** True for a team database on a PostgreSQL server, false for a local file. */
    public boolean onServer() {
        return dialect == Dialect.POSTGRESQL;
    }

    Dialect dialect() {
        return dialect;
    }

    public Jdbi jdbi() {
        return jdbi;
    }

    /**
     * A connection of its own to this desk's file, for a write that wants the file to itself: until {@link
     * SoleConnection#close} the pool keeps no connection open and lends none (this process's other callers wait).
     * Other programs may still have the file open. One at a time; refused on a team database.
     */
    SoleConnection soleConnection() {
        if (direct == null) {
            throw new IllegalStateException("a team database is not a file to have to oneself");
        }
        if (!sole.compareAndSet(false, true)) {
            throw new DatabaseException("another load has the database " + path + " to itself; try again when it is done");
        }
        HikariPoolMXBean pool = dataSource.getHikariPoolMXBean();
        boolean suspended = false;
        boolean opened = false;
        try {
            pool.suspendPool();
            suspended = true;
            // idle connections are closed now, lent ones when given back
            pool.softEvictConnections();
            SoleConnection connection = new SoleConnection(unpooledHandle(), () -> {
                pool.resumePool();
                sole.set(false);
            });
            opened = true;
            return connection;
        } finally {
            if (!opened) {
                if (suspended) {
                    pool.resumePool();
                }
                sole.set(false);
            }
        }
    }

    /**
     * A handle on a connection of its own to this desk's file, outside the pool: closing it closes the connection,
     * and whatever it held (a transaction left open included) goes with it. Refused on a team database.
     */
    Handle unpooledHandle() {
        if (direct == null) {
            throw new IllegalStateException("a team database has no file to open a connection of its own to");
        }
        return jdbi(direct, dialect).open();
    }

    /** False while a {@link #soleConnection} has the file to itself. */
    boolean lendsConnections() {
        return !sole.get();
    }

    /** A handle on a connection outside the pool, which {@link #close} closes before it gives the pool back. */
    static final class SoleConnection {
        private final Handle handle;
        private final Runnable givePoolBack;
        private boolean closed;

        private SoleConnection(Handle handle, Runnable givePoolBack) {
            this.handle = handle;
            this.givePoolBack = givePoolBack;
        }

        Handle handle() {
            return handle;
        }

        /**
         * Closes the connection, then runs {@code afterClosed} while no connection of the pool is open (for what must
         * wait until the connection's locks are released), then gives the pool back.
         */
        void close(Runnable afterClosed) {
            if (closed) {
                return;
            }
            closed = true;
            try {
                handle.close();
            } finally {
                try {
                    afterClosed.run();
                } finally {
                    givePoolBack.run();
                }
            }
        }
    }

    private static Object fileKey(Path file) {
        try {
            return Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Refuses work on a desk's file that was moved, replaced or deleted while open: the connections open on it would
     * go on writing to the file where it went (or, deleted, to nothing kept), with no error from SQLite. Checked
     * before each transaction and read (a file system look-up of a few microseconds); a team database is not checked.
     *
     * @throws DatabaseException saying what happened and what to do, every time once it has happened
     */
    public void requireFileInPlace() {
        if (path == null || fileKey == null) {
            return;
        }
        String said = fileGone;
        if (said == null) {
            Object now;
            try {
                now = Files.readAttributes(path, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
            } catch (java.nio.file.NoSuchFileException e) {
                now = null;
            } catch (IOException e) {
                // the file system cannot say (a share gone for a moment): the work itself will fail or not
                return;
            }
            if (fileKey.equals(now)) {
                return;
            }
            said = movedSentence(path);
            fileGone = said;
            org.slf4j.LoggerFactory.getLogger(Database.class).error("{}", said);
        }
        throw new DatabaseException(said);
    }

    private static String movedSentence(Path file) {
        return "the database file " + file + " was moved, replaced or deleted while ClaimDesk had it open; nothing more"
                + " is written: close ClaimDesk, put the file back where it was (with its -wal and -shm files) and start"
                + " ClaimDesk again";
    }

    /** Runs {@code work} in one IMMEDIATE transaction, translating file-level failures. */
    public <R> R inTransaction(HandleCallback<R, RuntimeException> work) {
        requireFileInPlace();
        try {
            return jdbi.inTransaction(work);
        } catch (JdbiException e) {
            throw translated(e);
        }
    }

    /**
     * A failure of a database in one line for staff: a known one's sentence, else the database's own first line
     * (not the driver's class name).
     */
    public static String failureText(RuntimeException e) {
        if (e instanceof DatabaseException) {
            return e.getMessage();
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLException sql && sql.getMessage() != null) {
                return sql.getMessage().lines().findFirst().orElse(sql.getMessage());
            }
        }
        return String.valueOf(e.getMessage());
    }

    /**
     * A failure of work on this database in one line for staff: the file's or the server's sentence where it has one
     * ({@link #translated}), else the database's own first line.
     */
    public String failureOf(Throwable e) {
        if (e instanceof JdbiException jdbi) {
            return failureText(translated(jdbi));
        }
        return e instanceof RuntimeException r ? failureText(r) : String.valueOf(e.getMessage());
    }

    /** What a failure of this database means for staff: the file's or the server's sentence. */
    RuntimeException translated(RuntimeException e) {
        return path == null ? PostgresDatabase.translate((DatabaseLocation.Postgres) location, e) : translate(path, e);
    }

    public void useTransaction(HandleConsumer<RuntimeException> work) {
        inTransaction(handle -> {
            work.useHandle(handle);
            return null;
        });
    }

    /** Runs read-only {@code work} on a pooled connection without a transaction. */
    public <R> R read(HandleCallback<R, RuntimeException> work) {
        requireFileInPlace();
        try {
            return jdbi.withHandle(work);
        } catch (JdbiException e) {
            throw translated(e);
        }
    }

    /**
     * Runs read-only {@code work} on one state of the database, whatever others commit meanwhile: on a team database
     * a {@code REPEATABLE READ, READ ONLY} transaction; on a file a deferred transaction, whose first read fixes what
     * it sees and which takes no write lock (writers go on; the file's checkpoint waits for it to end). For reads of
     * many statements that must agree with each other, e.g. an export's pages and its count.
     */
    public <R> R snapshot(HandleCallback<R, RuntimeException> work) {
        requireFileInPlace();
        // a handle of its own, not the thread's: what work writes (an audit entry) goes through a handle of its own
        try (Handle h = jdbi.open()) {
            return inSnapshot(h, work);
        } catch (JdbiException e) {
            throw translated(e);
        }
    }

    /**
     * As {@link #snapshot}, for {@code reads} made through this database's own methods ({@link #read}, and the stores
     * and queries built on it) on this thread: each of them sees the state the first one saw. Nothing may be written
     * within (a write on this thread would go to the snapshot's read-only transaction).
     */
    public <R> R snapshotOfReads(java.util.function.Supplier<R> reads) {
        requireFileInPlace();
        try {
            // the thread's handle: the reads' own calls to Jdbi on this thread take it rather than one of their own
            return jdbi.withHandle(h -> inSnapshot(h, any -> reads.get()));
        } catch (JdbiException e) {
            throw translated(e);
        }
    }

    private <R> R inSnapshot(Handle h, HandleCallback<R, RuntimeException> work) {
        if (path == null) {
            return h.inTransaction(org.jdbi.v3.core.transaction.TransactionIsolationLevel.REPEATABLE_READ, tx -> {
                tx.execute("SET TRANSACTION READ ONLY");
                return work.withHandle(tx);
            });
        }
        h.execute("BEGIN DEFERRED");
        try {
            R result = work.withHandle(h);
            h.execute("COMMIT");
            return result;
        } catch (RuntimeException | Error failed) {
            endSnapshot(h, failed);
            throw failed;
        }
    }

    /**
     * Ends a file's snapshot after {@code failed}: rolled back, or, if that fails, its connection is taken out of the
     * pool rather than lent out again inside a transaction.
     */
    private void endSnapshot(Handle h, Throwable failed) {
        try {
            h.execute("ROLLBACK");
        } catch (RuntimeException rollback) {
            // rolled back by SQLite already, or the connection is broken: either way it is not lent out again
            dataSource.evictConnection(h.getConnection());
            failed.addSuppressed(rollback);
        }
    }

    /**
     * Like {@link #read(HandleCallback)}, but SQLite stops the statement as soon as {@code cancelled} says so
     * (it is asked every few thousand virtual-machine steps); the read then ends with {@link
     * CancellationException}. For scans whose answer is no longer wanted, e.g. counts for a filter staff
     * already replaced.
     */
    public <R> R read(HandleCallback<R, RuntimeException> work, BooleanSupplier cancelled) {
        if (path == null) {
            return PostgresDatabase.cancellableRead(this, work, cancelled);
        }
        requireFileInPlace();
        try {
            return jdbi.withHandle(h -> {
                Connection connection = h.getConnection().unwrap(SQLiteConnection.class);
                ProgressHandler.setHandler(connection, CANCEL_CHECK_STEPS, new ProgressHandler() {
                    @Override
                    protected int progress() {
                        return cancelled.getAsBoolean() ? 1 : 0;
                    }
                });
                try {
                    return work.withHandle(h);
                } finally {
                    ProgressHandler.clearHandler(connection);
                }
            });
        } catch (JdbiException e) {
            if (cancelled.getAsBoolean()) {
                throw new CancellationException("read cancelled");
            }
            throw translate(path, e);
        } catch (SQLException e) {
            throw translate(path, new org.jdbi.v3.core.ConnectionException(e));
        }
    }

    public int schemaVersion() {
        return path == null ? PostgresDatabase.schemaVersion(dataSource) : read(h -> Migrations.pragmaInt(h, "user_version"));
    }

    /**
     * The time this workstation writes and reads against: on a file the system's clock in the system's zone; on a
     * team database the system's clock moved by how far it is from the server's ({@link ServerClock}), in the
     * office's zone ({@link #officeZone}), so that every workstation of an office keeps one time and counts the same
     * calendar days. Reading it never touches the database.
     */
    public Clock clock() {
        return clock;
    }

    /** The zone {@link #clock()} counts days in, and whether the team database names it. */
    public OfficeZone officeZone() {
        return officeZone;
    }

    /**
     * The office's decision deadlines for jurisdictions the statute does not fix, as the team database sets them for
     * every workstation ({@code ALTER DATABASE … SET claimdesk.deadline_days TO 'NY=150,*=120'}), unread; null when it
     * sets none, and always on a desk's file.
     */
    public String officeDeadlineDays() {
        return officeDeadlineDays;
    }

    /** The name a team database's setting of {@link #officeDeadlineDays()} goes by. */
    public static String officeDeadlineDaysSetting() {
        return DatabaseSettings.DEADLINE_DAYS;
    }

    /**
     * What other workstations (and other programs on this one) change, as they commit it: the server's
     * notifications on a team database, less this open database's own changes (the feed's connection opens with its
     * first subscriber); nothing on a local file.
     */
    public synchronized ChangeFeed changes() {
        if (!(location instanceof DatabaseLocation.Postgres server)) {
            return ChangeFeed.NONE;
        }
        if (feed == null) {
            feed = new PostgresChangeFeed(server, session);
        }
        return feed;
    }

    @Override
    public void close() {
        PostgresChangeFeed open;
        synchronized (this) {
            open = feed;
        }
        try {
            if (clockMeasures != null) {
                clockMeasures.shutdownNow();
            }
            if (open != null) {
                open.close();
            }
        } finally {
            dataSource.close();
        }
    }

    @Override
    public String toString() {
        return "Database[" + location.describe() + "]";
    }
}
