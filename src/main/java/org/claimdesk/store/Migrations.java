package org.claimdesk.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Versioned schema migrations tracked in SQLite's {@code user_version}. Each migration runs with its
 * version bump in one transaction, so a database is always at exactly one known version. A database
 * whose version is newer than this build knows is refused and left untouched.
 */
public final class Migrations {
    /** SQLite {@code application_id} marking a ClaimDesk database ("ClmD"). */
    public static final int APPLICATION_ID = 0x436C6D44;

    private static final List<String> SCRIPTS = List.of("V1__schema.sql", "V2__delivery.sql", "V3__search.sql",
            "V4__worker_pause.sql", "V5__attempt_field.sql", "V6__claim_editing.sql", "V7__resubmit.sql", "V8__claim_numbers.sql",
            "V9__case_search.sql", "V10__search_text.sql", "V11__audit_filters.sql",
            "V12__outbox_tally.sql", "V13__claim_status_tally.sql", "V14__failed_errors.sql",
            "V15__lease_order.sql", "V16__tallies.sql", "V17__evidence_withdrawal.sql", "V18__due_order.sql",
            "V19__jurisdiction_reads.sql", "V20__office_deadlines.sql", "V21__error_search.sql",
            "V22__overdue_reads.sql");

    private Migrations() {
    }

    public static int latestVersion() {
        return SCRIPTS.size();
    }

    /** Brings the schema up to date; returns the version found before migrating. */
    static int migrate(Jdbi jdbi, String describedPath, SchemaProgress progress) {
        return jdbi.withHandle(handle -> {
            int found = pragmaInt(handle, "user_version");
            int applicationId = pragmaInt(handle, "application_id");
            if (found > latestVersion()) {
                throw newer(describedPath, found);
            }
            boolean empty = handle.createQuery("SELECT count(*) FROM sqlite_master").mapTo(Integer.class).one() == 0;
            if (!empty && applicationId != APPLICATION_ID) {
                throw new DatabaseException("the file " + describedPath
                        + " is an SQLite database but not a ClaimDesk one; it was not modified");
            }
            for (int version = found + 1; version <= latestVersion(); version++) {
                progress.applying(found, version, latestVersion());
                apply(handle, version, describedPath);
            }
            return found;
        });
    }

    private static DatabaseException newer(String describedPath, int found) {
        return new DatabaseException("the database " + describedPath + " was written by a newer ClaimDesk"
                + " (schema version " + found + ", this version knows up to " + latestVersion()
                + "); it was not modified: install the newer ClaimDesk to open it");
    }

    /**
     * Runs one script with its version bump in one transaction. A script that rebuilds a table ({@link
     * #rebuildsTable}) runs with foreign keys off (SQLite allows that switch only outside a transaction), so it may
     * drop a table others refer to; every reference is then checked before the transaction commits, and a dangling
     * one rolls the migration back. Any other script runs with foreign keys on, which check each row it writes, and
     * without that check, which reads every row of every table.
     */
    private static void apply(Handle handle, int version, String describedPath) {
        List<String> statements = SqlScript.statements(script(SCRIPTS.get(version - 1)));
        if (!rebuildsTable(statements)) {
            handle.useTransaction(tx -> {
                if (appliedMeanwhile(tx, version, describedPath)) {
                    return;
                }
                for (String statement : statements) {
                    tx.execute(statement);
                }
                setVersion(tx, version);
            });
            return;
        }
        handle.execute("PRAGMA foreign_keys = OFF");
        try {
            handle.useTransaction(tx -> {
                if (appliedMeanwhile(tx, version, describedPath)) {
                    return;
                }
                for (String statement : statements) {
                    tx.execute(statement);
                }
                List<String> dangling = tx.createQuery("SELECT \"table\" || ' row ' || rowid FROM pragma_foreign_key_check")
                        .mapTo(String.class).list();
                if (!dangling.isEmpty()) {
                    throw new DatabaseException("migration " + SCRIPTS.get(version - 1) + " would leave references to"
                            + " missing rows (" + String.join(", ", dangling.subList(0, Math.min(5, dangling.size())))
                            + "); the database was not modified");
                }
                setVersion(tx, version);
            });
        } finally {
            handle.execute("PRAGMA foreign_keys = ON");
        }
    }

    /**
     * Whether another program on the file (a second console, a scheduled drain or backup started at the same time)
     * applied {@code version} since this one read the file's version: read again once this transaction holds the
     * write lock (every transaction here is IMMEDIATE), so a version is never applied twice, which would fail on what
     * it already made (a table that exists) or, for a version with nothing to do on SQLite, set the file's version
     * back below what it holds. A file a newer ClaimDesk upgraded meanwhile is refused, as it is when found so.
     */
    private static boolean appliedMeanwhile(Handle transaction, int version, String describedPath) {
        int now = pragmaInt(transaction, "user_version");
        if (now > latestVersion()) {
            // a newer ClaimDesk upgraded the file meanwhile: refused as at the start, untouched
            throw newer(describedPath, now);
        }
        return now >= version;
    }

    /**
     * True for a script that drops or alters a table (SQLite rebuilds a table by creating its new form, copying the
     * rows, dropping the old one and renaming the new); false for one that only adds tables, triggers, indexes or
     * rows, or does nothing (a version that exists for the other engine).
     */
    static boolean rebuildsTable(List<String> statements) {
        // a column added keeps the table as it is; a rename or drop is part of a rebuild
        return statements.stream().map(s -> s.strip().toUpperCase(java.util.Locale.ROOT).replaceAll("\\s+", " "))
                .anyMatch(s -> s.startsWith("DROP TABLE ")
                        || s.startsWith("ALTER TABLE ") && !s.matches("ALTER TABLE \\S+ ADD (COLUMN )?.*"));
    }

    private static void setVersion(Handle transaction, int version) {
        transaction.execute("PRAGMA user_version = " + version);
        transaction.execute("PRAGMA application_id = " + APPLICATION_ID);
    }

    static int pragmaInt(Handle handle, String pragma) {
        return handle.createQuery("PRAGMA " + pragma).mapTo(Integer.class).one();
    }

    /** The migration scripts of a desk's file, in the order they run: version n is the n-th. */
    static List<String> scripts() {
        return SCRIPTS;
    }

    /** The text of the migration script {@code name}. */
    static String script(String name) {
        try (InputStream in = Migrations.class.getResourceAsStream("migrations/" + name)) {
            if (in == null) {
                throw new IllegalStateException("migration " + name + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
