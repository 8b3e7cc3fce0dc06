package org.claimdesk.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.claimdesk.domain.ClaimDeskException;

/** The SQL of a backup: an online copy of a database and the check of a copy. */
public final class DatabaseCopy {
    private DatabaseCopy() {
    }

    /**
     * Copies {@code database} into {@code file} with {@code VACUUM INTO}: one read transaction, so the console
     * and the worker go on writing meanwhile. {@code file} must be new or empty.
     */
    public static void write(Database database, Path file) {
        database.read(h -> h.createUpdate("VACUUM INTO :file").bind("file", file.toString()).execute());
    }

    /** The bytes {@code database}'s pages take, those its write-ahead log holds included: about a copy's size. */
    public static long pagesBytes(Database database) {
        return database.read(h -> h.createQuery("SELECT page_count * page_size FROM pragma_page_count(),"
                + " pragma_page_size()").mapTo(Long.class).one());
    }

    /** True when {@code file} begins as an SQLite database does, as every copy {@link #write} makes. */
    public static boolean isCopy(Path file) {
        byte[] magic = "SQLite format 3\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
            return java.util.Arrays.equals(in.readNBytes(magic.length), magic);
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static java.util.Properties readOnly() {
        org.sqlite.SQLiteConfig config = new org.sqlite.SQLiteConfig();
        config.setReadOnly(true);
        return config.toProperties();
    }

    /**
     * What a copy that passed holds.
     *
     * @param schemaVersion its schema version ({@code user_version})
     * @param rows rows per ClaimDesk table, in {@link DatabaseMove#TABLES} order; a table the copy lacks is refused,
     *     unless the copy's schema is older than this build's (a table added since is left out)
     */
    public record Summary(int schemaVersion, Map<String, Long> rows) {
        public long claims() {
            return rows.get("claim");
        }
    }

    /**
     * Opens the copy {@code file} read-only, runs SQLite's quick check on it, and counts the rows of each ClaimDesk
     * table.
     */
    public static Summary check(Path file) {
        try (Connection c = DriverManager.getConnection(Database.sqliteUrl(file.toAbsolutePath()), readOnly());
             Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("PRAGMA quick_check")) {
                rs.next();
                if (!"ok".equals(rs.getString(1))) {
                    throw new ClaimDeskException("the backup " + file + " failed its integrity check: " + rs.getString(1));
                }
            }
            int version;
            try (ResultSet rs = s.executeQuery("PRAGMA user_version")) {
                rs.next();
                version = rs.getInt(1);
            }
            Map<String, Long> rows = new LinkedHashMap<>();
            for (DatabaseMove.Table table : DatabaseMove.TABLES) {
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table.name())) {
                    rs.next();
                    rows.put(table.name(), rs.getLong(1));
                } catch (SQLException missing) {
                    if (version < Migrations.latestVersion()) {
                        // a copy of an older schema, before the table was added: the upgrade makes it
                        continue;
                    }
                    throw new ClaimDeskException("the backup " + file + " is not a whole ClaimDesk database: it has no"
                            + " table " + table.name() + " (schema version " + version + ")", missing);
                }
            }
            return new Summary(version, rows);
        } catch (SQLException e) {
            throw new ClaimDeskException("the backup " + file + " cannot be opened: " + e.getMessage(), e);
        }
    }

    /** The evidence files the rows of the copy {@code file} name ({@link EvidenceStore#fileTally}), read from it. */
    public static EvidenceStore.FileTally evidenceIn(Path file) {
        try (Connection c = DriverManager.getConnection(Database.sqliteUrl(file.toAbsolutePath()), readOnly());
             org.jdbi.v3.core.Handle h = org.jdbi.v3.core.Jdbi.open(c)) {
            return new EvidenceStore().fileTally(h);
        } catch (SQLException | RuntimeException e) {
            throw new ClaimDeskException("the backup " + file + " cannot be read: " + e.getMessage(), e);
        }
    }
}
