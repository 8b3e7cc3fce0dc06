package org.claimdesk.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.function.LongConsumer;
import org.jdbi.v3.core.Handle;
import org.claimdesk.domain.Sha256;

/**
 * Copying every row of one ClaimDesk database into another, empty one, ids kept, table by table in an order in which
 * each row's references are there before it; then each table's rows counted and hashed the same way on both sides.
 * For moving a workstation's file into a team database ({@code claimdesk migrate}), in one transaction of the target
 * ({@link #keepOthersOut}, {@link #copy}, {@link #digest(Handle, Table)}), so that a move that stops leaves the
 * target as empty as it was.
 */
public final class DatabaseMove {
    /**
     * The tables, parents first, each with its key (the copy's and the checksum's order). Outbox rows go newest first:
     * a superseded row names its successor, which is always newer.
     */
    /** Who pauses the worker of a desk file a move has moved ({@code app.MoveIn}). */
    public static final String MOVED_BY = "claimdesk-migrate";

    public static final List<Table> TABLES = List.of(
            new Table("claim", "claim_id", false),
            new Table("claim_status_history", "history_id", false),
            new Table("request_key", "request_key", false),
            new Table("outbox_event", "outbox_event_id", true),
            new Table("delivery_attempt", "attempt_id", false),
            new Table("evidence", "evidence_id", false),
            new Table("audit_log", "audit_id", false),
            // the pause a move leaves on the desk it moved (MOVED_BY's) is the desk's own: a later move of the same
            // file into another database does not take it along
            new Table("worker_pause", "id", false, "paused_by <> '" + MOVED_BY + "'"),
            new Table("claim_number_sequence", "id", false));

    private static final int BATCH = 1_000;

    /** The tables whose rows make a database one in use: a move goes only into a database none of them has. */
    private static final List<String> IN_USE_TABLES = List.of("claim", "outbox_event", "audit_log");

    /**
     * Columns one engine derives from a row's other columns, which the other engine does not have: PostgreSQL's
     * {@code search_text} (written by PostgreSQL itself, where SQLite keeps its search in index tables). They are
     * neither copied nor hashed.
     */
    static final Set<String> DERIVED_COLUMNS = Set.of("search_text");

    /**
     * A table, the column its rows are ordered by, and which of its rows move ({@code moved}: a condition, or null for
     * every row).
     */
    public record Table(String name, String key, boolean newestFirst, String moved) {
        public Table(String name, String key, boolean newestFirst) {
            this(name, key, newestFirst, null);
        }

        /** The rows that move, as a query's FROM and WHERE. */
        String from() {
            return name + (moved == null ? "" : " WHERE " + moved);
        }
    }

    /** One table's rows and the SHA-256 of their values in key order. */
    public record Digest(String table, long rows, String sha256) {
    }

    private DatabaseMove() {
    }

    /**
     * True when {@code database} holds no claim, outbox row or audit entry: a probe of each table for one row, not a
     * count of every row, so that refusing a full database takes no longer than accepting an empty one.
     */
    public static boolean isEmpty(Database database) {
        return database.read(DatabaseMove::isEmpty);
    }

    /**
     * As {@link #isEmpty(Database)} for a team database not opened yet, read through a connection of its own before
     * anything brings its schema up to date (which opening it does): a move refuses a database in use untouched,
     * whatever ClaimDesk wrote it. A database without ClaimDesk's tables holds none of their rows. A table another
     * session holds locked (an upgrade under way, say) is waited for as long as the pool's statements wait.
     */
    public static boolean isEmpty(DatabaseLocation.Postgres server) {
        return isEmpty(server, PostgresDatabase.LOCK_TIMEOUT_OPTION);
    }

    static boolean isEmpty(DatabaseLocation.Postgres server, String lockTimeoutOption) {
        java.util.Properties options = new java.util.Properties();
        options.setProperty("options", lockTimeoutOption);
        try (Connection connection = PostgresDatabase.connect(server, "ClaimDesk migrate", options);
                Statement statement = connection.createStatement()) {
            for (String table : IN_USE_TABLES) {
                if (exists(statement, "SELECT to_regclass('" + table + "') IS NOT NULL")
                        && exists(statement, "SELECT EXISTS (SELECT 1 FROM " + table + ")")) {
                    return false;
                }
            }
            return true;
        } catch (SQLException e) {
            throw PostgresDatabase.translate(server, e);
        }
    }

    private static boolean exists(Statement statement, String query) throws SQLException {
        try (ResultSet answer = statement.executeQuery(query)) {
            return answer.next() && answer.getBoolean(1);
        }
    }

    /** As {@link #isEmpty(Database)}, inside the caller's transaction. */
    public static boolean isEmpty(Handle h) {
        return h.createQuery("SELECT 1 WHERE " + String.join(" OR ",
                IN_USE_TABLES.stream().map(t -> "EXISTS (SELECT 1 FROM " + t + ")").toList()))
                .mapTo(Integer.class).findOne().isEmpty();
    }

    /** What a move that stopped before its commit needs before it is run again. */
    public enum Retry {
        /** Nothing: run it again (the network, the server, a lock). */
        AS_IS,
        /** A row the server cannot store as the desk keeps it: corrected on the desk first (the message names it). */
        AFTER_THE_DESK_ROW_IS_CORRECTED,
        /** The role may not lock the tables or set the sequences: run by the team database's owner role. */
        AS_THE_OWNER_ROLE
    }

    /** What the move {@code stopped} by this needs before it is run again. */
    public static Retry retry(Throwable stopped) {
        for (Throwable t = stopped; t != null; t = t.getCause()) {
            if (t instanceof CopyRefused refused) {
                return refused.retry;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                switch (sql.getSQLState()) {
                    case "42501" -> {
                        return Retry.AS_THE_OWNER_ROLE;
                    }
                    case "22021", "22P05", "54000" -> {
                        return Retry.AFTER_THE_DESK_ROW_IS_CORRECTED;
                    }
                    default -> {
                    }
                }
            }
        }
        return Retry.AS_IS;
    }

    /** What {@link #holdWriters} holds until closed. */
    public interface Hold extends AutoCloseable {
        /**
         * Writes {@code work} in the held transaction and commits it, ending the hold; false when the file cannot be
         * written here (read-only), nothing done.
         */
        boolean commit(java.util.function.Consumer<Handle> work);

        /** Ends the hold; what it held is rolled back unless committed. */
        @Override
        void close();
    }

    /**
     * Keeps every other writer off the desk's file {@code desk} until closed, so that a move reads the whole file as
     * one state, none of it changed between its copy and its check: one write transaction is begun on a connection of
     * its own and never committed (the file's readers go on). A file another program is writing (a console's worker,
     * a drain) is refused in one sentence once the busy timeout passes; nothing is copied.
     */
    public static Hold holdWriters(Database desk) {
        // a connection of its own, not the pool's: closing it ends the transaction whatever happens to the ROLLBACK
        Handle hold = desk.unpooledHandle();
        try {
            hold.execute("BEGIN IMMEDIATE");
        } catch (RuntimeException e) {
            hold.close();
            org.sqlite.SQLiteException sqlite = Database.findSqliteException(e);
            String code = sqlite == null || sqlite.getResultCode() == null ? "" : sqlite.getResultCode().name();
            if (sqlite != null && Database.locked(sqlite)) {
                throw new DatabaseException("the desk's file " + desk.path() + " is being written by another program"
                        + " (a console or a drain on it): close it, then move in; nothing was copied", e);
            }
            if (code.startsWith("SQLITE_READONLY")) {
                // a file no one can write here (its permissions, a read-only mount) changes under no move
                return new Hold() {
                    @Override
                    public boolean commit(java.util.function.Consumer<Handle> work) {
                        return false;
                    }

                    @Override
                    public void close() {
                    }
                };
            }
            throw Database.translate(desk.path(), e);
        }
        return new Hold() {
            private boolean ended;

            @Override
            public boolean commit(java.util.function.Consumer<Handle> work) {
                try {
                    work.accept(hold);
                    hold.execute("COMMIT");
                    ended = true;
                    return true;
                } catch (RuntimeException e) {
                    throw Database.translate(desk.path(), e);
                }
            }

            @Override
            public void close() {
                try {
                    if (!ended) {
                        hold.execute("ROLLBACK");
                    }
                } finally {
                    hold.close();
                }
            }
        };
    }

    /**
     * Holds other writers of a team database off every moved table until the caller's transaction ends (they
     * may still read): a claim added or a setting changed elsewhere during a move would take ids the move is
     * writing. Needs the tables' owner, as the move's statistics do. A file's writer holds the whole file anyway.
     */
    public static void keepOthersOut(Handle target) {
        if (Dialect.of(target) == Dialect.POSTGRESQL) {
            // the move is one transaction, idle on the server while the desk's side is read and checked
            target.execute("SET LOCAL idle_in_transaction_session_timeout = 0");
            target.execute("LOCK TABLE " + String.join(", ", TABLES.stream().map(Table::name).toList())
                    + " IN SHARE ROW EXCLUSIVE MODE");
        }
    }

    /** The id of {@code target}'s transaction on a team database (the move's), for {@link #transactionStatus}. */
    public static long transactionId(Handle target) {
        return target.createQuery("SELECT txid_current()").mapTo(Long.class).one();
    }

    /**
     * What became of transaction {@code xid} on {@code database}'s server, read on a connection of its own:
     * "committed", "aborted" or "in progress"; null when the server no longer knows (too old).
     */
    public static String transactionStatus(Database database, long xid) {
        return database.read(h -> h.createQuery("SELECT txid_status(:xid)").bind("xid", xid).mapTo(String.class)
                .findOne().orElse(null));
    }

    /** Rows of {@code table} in {@code database}. */
    public static long count(Database database, Table table) {
        return database.read(h -> h.createQuery("SELECT count(*) FROM " + table.from()).mapTo(Long.class).one());
    }

    /** The tables whose rows count the outbox per delivery state and the claims per status on a team database. */
    static final List<String> TALLIES = List.of("outbox_state_tally", "claim_status_tally");

    /**
     * On a team database, after rows were loaded in bulk, leaves the tables as a server that had been running for a
     * while would, outside a transaction: the tallies folded and rewritten, every moved table vacuumed and its
     * planner's statistics gathered. Each statement of a load left a row in its table's tally, which the first count
     * would otherwise fold (half a second of the server at 1,000,000 claims, on the first console's start); the fold
     * writes its rows after the ones it deletes, so each tally is rewritten ({@code VACUUM FULL}: the 2,400 pages a
     * million claims' load left, which every count reads, become one). The vacuum of the moved tables marks the loaded
     * pages visible to all, which the first readers would otherwise do as they read, and the statistics plan the
     * first searches and filters on what the tables hold rather than on an empty database's estimates; the server's
     * autovacuum would get round to them a minute or two later, during which filters took up to a second. A role that
     * does not own the tables has them skipped with the server's warning. A desk's file is left as it is: SQLite
     * plans its queries without statistics, and its tallies hold one row per value whatever was loaded.
     */
    public static void settle(Database database) {
        if (!database.onServer()) {
            return;
        }
        database.useTransaction(h -> {
            new OutboxStore().countByState(h);
            new ClaimStore().countByStatus(h, ClaimQuery.all());
        });
        try {
            // VACUUM cannot run inside a transaction block: a handle in autocommit, one statement at a time
            database.jdbi().useHandle(h -> {
                // the fold wrote its rows after the ones it deleted: rewritten, a tally is a page again
                h.execute("VACUUM (FULL, ANALYZE) " + String.join(", ", TALLIES));
                h.execute("VACUUM (ANALYZE) " + String.join(", ", TABLES.stream().map(Table::name).toList()));
            });
        } catch (org.jdbi.v3.core.JdbiException e) {
            throw database.translated(e);
        }
    }

    /**
     * Copies {@code table} from {@code from} into the caller's transaction of the target, telling {@code progress} the
     * rows copied after each batch. The single-row tables present in a new database (the claim number sequence) are
     * replaced.
     */
    public static long copy(Database from, Handle target, Table table, LongConsumer progress) {
        if (table.name().equals("claim_number_sequence")) {
            target.execute("DELETE FROM claim_number_sequence");
        }
        long copied = from.read(source -> {
            try {
                return copyRows(source.getConnection(), target.getConnection(), table, progress);
            } catch (SQLException e) {
                throw new DatabaseException("cannot read " + table.name() + " on the desk: " + e.getMessage(), e);
            }
        });
        if (!table.key().equals("id") && !table.key().equals("request_key")) {
            Dialect.of(target).afterExplicitIds(target, table.name(), table.key());
        }
        return copied;
    }

    private static long copyRows(Connection source, Connection target, Table table, LongConsumer progress)
            throws SQLException {
        long copied = 0;
        try (Statement select = source.createStatement()) {
            select.setFetchSize(BATCH);
            ResultSet rows = select.executeQuery("SELECT * FROM " + table.from() + " ORDER BY " + table.key()
                    + (table.newestFirst() ? " DESC" : ""));
            ResultSetMetaData meta = rows.getMetaData();
            List<String> names = new ArrayList<>();
            List<Integer> copiedColumns = new ArrayList<>();
            for (int c = 1; c <= meta.getColumnCount(); c++) {
                if (!DERIVED_COLUMNS.contains(meta.getColumnName(c).toLowerCase(java.util.Locale.ROOT))) {
                    names.add(meta.getColumnName(c));
                    copiedColumns.add(c);
                }
            }
            String insert = "INSERT INTO " + table.name() + " (" + String.join(", ", names) + ") VALUES ("
                    + "?, ".repeat(names.size() - 1) + "?)";
            int key = rows.findColumn(table.key());
            try (PreparedStatement ps = target.prepareStatement(insert)) {
                int held = 0;
                Object first = null;
                Object last = null;
                while (rows.next()) {
                    for (int c = 0; c < copiedColumns.size(); c++) {
                        ps.setObject(c + 1, rows.getObject(copiedColumns.get(c)));
                    }
                    last = rows.getObject(key);
                    first = held == 0 ? last : first;
                    ps.addBatch();
                    copied++;
                    if (++held == BATCH) {
                        write(ps, table, first, last);
                        held = 0;
                        progress.accept(copied);
                    }
                }
                if (held > 0) {
                    write(ps, table, first, last);
                }
                if (held > 0 || copied == 0) {
                    // a last batch that was full was reported already
                    progress.accept(copied);
                }
            }
        }
        return copied;
    }

    /**
     * Writes a batch of {@code table}'s rows, {@code first} to {@code last} by key. A refusal names the table, the
     * rows' keys and the server's reason, never the values: the driver's own message for a batch quotes the statement
     * with every value bound (a claimant's tax id among them), and a move's failure is printed and logged.
     */
    private static void write(PreparedStatement batch, Table table, Object first, Object last) {
        try {
            batch.executeBatch();
        } catch (SQLException e) {
            SQLException server = e.getNextException() != null ? e.getNextException() : e;
            String state = server.getSQLState() == null ? "" : server.getSQLState();
            String reason = server instanceof org.postgresql.util.PSQLException p && p.getServerErrorMessage() != null
                    ? p.getServerErrorMessage().getMessage() : "error " + state;
            String rowsNamed = table.name() + " rows " + (java.util.Objects.equals(first, last)
                    ? table.key() + " " + printable(first)
                    : "with " + table.key() + " " + printable(first) + " to " + printable(last));
            String what = switch (state) {
                case "22021", "22P05", "54000" -> "; a value there cannot be stored on the server as it is on the desk:"
                        + " moving in again stops the same way until that row is corrected on the desk";
                case "42501" -> "; the role moving in lacks a privilege: move in as the team database's owner"
                        + " (docs/operations.md)";
                default -> "";
            };
            // not the driver's exception as the cause: its message, logged with it, holds the values
            throw new CopyRefused("cannot copy " + rowsNamed + ": " + reason + " [" + state + "]" + what,
                    switch (state) {
                        case "22021", "22P05", "54000" -> Retry.AFTER_THE_DESK_ROW_IS_CORRECTED;
                        case "42501" -> Retry.AS_THE_OWNER_ROLE;
                        default -> Retry.AS_IS;
                    });
        }
    }

    /** A batch the server refused, said without the driver's exception (whose message holds the values). */
    private static final class CopyRefused extends DatabaseException {
        private final transient Retry retry;

        CopyRefused(String message, Retry retry) {
            super(message);
            this.retry = retry;
        }
    }

    /** A key as a message shows it: control characters as '?', at most 40 characters. */
    private static String printable(Object key) {
        String text = String.valueOf(key).replaceAll("\\p{Cntrl}", "?");
        return text.length() > 40 ? text.substring(0, 40) + "…" : text;
    }

    /**
     * The rows of {@code table} and a SHA-256 over their values in key order, each value written the same way
     * whatever the engine (numbers as whole numbers, text as UTF-8, null as a mark of its own).
     */
    public static Digest digest(Database database, Table table) {
        return database.read(h -> digest(h, table));
    }

    /**
     * As {@link #digest(Database, Table)}, inside the caller's transaction (a move checks what it wrote before it
     * commits). The rows are read in batches, never all held at once.
     */
    public static Digest digest(Handle h, Table table) {
        MessageDigest sha = Sha256.digest();
        long rows = 0;
        try (Statement select = h.getConnection().createStatement()) {
            // on PostgreSQL, inside a transaction, a fetch size reads through a cursor instead of all at once
            select.setFetchSize(BATCH);
            ResultSet rs = select.executeQuery("SELECT * FROM " + table.from() + " ORDER BY " + table.key());
            ResultSetMetaData meta = rs.getMetaData();
            List<String> names = new ArrayList<>();
            for (int c = 1; c <= meta.getColumnCount(); c++) {
                names.add(meta.getColumnName(c).toLowerCase(java.util.Locale.ROOT));
            }
            List<String> sorted = names.stream().filter(n -> !DERIVED_COLUMNS.contains(n)).sorted().toList();
            while (rs.next()) {
                for (String column : sorted) {
                    Object value = rs.getObject(column);
                    String text = value == null ? "\u0000null" : value instanceof Number n ? Long.toString(n.longValue())
                            : value.toString();
                    sha.update(column.getBytes(StandardCharsets.UTF_8));
                    sha.update((byte) '=');
                    sha.update(text.getBytes(StandardCharsets.UTF_8));
                    sha.update((byte) 0x1f);
                }
                sha.update((byte) 0x1e);
                rows++;
            }
        } catch (SQLException e) {
            throw new DatabaseException("cannot read " + table.name() + ": " + e.getMessage(), e);
        }
        return new Digest(table.name(), rows, HexFormat.of().formatHex(sha.digest()));
    }
}
