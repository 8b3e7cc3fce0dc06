package org.claimdesk.testing;

import org.claimdesk.store.Database;

/**
 * Triggers a test plants to make the database misbehave at one point (a write that fails, a row taken over by
 * someone else), written for the engine the test runs on.
 */
public final class Triggers {
    private Triggers() {
    }

    /** Makes every {@code event} ({@code INSERT}, {@code UPDATE}, {@code DELETE}) on {@code table} fail with {@code message}. */
    public static void failing(Database db, String name, String table, String event, String message) {
        if (db.onServer()) {
            db.useTransaction(h -> {
                h.execute("CREATE FUNCTION " + name + "_f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '"
                        + message + "'; END; $$");
                h.execute("CREATE TRIGGER " + name + " BEFORE " + event + " ON " + table
                        + " FOR EACH ROW EXECUTE FUNCTION " + name + "_f()");
            });
        } else {
            db.useTransaction(h -> h.execute("CREATE TRIGGER " + name + " BEFORE " + event + " ON " + table
                    + " BEGIN SELECT RAISE(ABORT, '" + message + "'); END"));
        }
    }

    /**
     * Runs {@code statement} (which may use {@code NEW.column}) after each {@code event} on {@code table} whose new row
     * meets {@code when}.
     */
    public static void after(Database db, String name, String table, String event, String when, String statement) {
        if (db.onServer()) {
            db.useTransaction(h -> {
                h.execute("CREATE FUNCTION " + name + "_f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN " + statement
                        + "; RETURN NEW; END; $$");
                h.execute("CREATE TRIGGER " + name + " AFTER " + event + " ON " + table + " FOR EACH ROW WHEN (" + when
                        + ") EXECUTE FUNCTION " + name + "_f()");
            });
        } else {
            db.useTransaction(h -> h.execute("CREATE TRIGGER " + name + " AFTER " + event + " ON " + table + " WHEN "
                    + when + " BEGIN " + statement + "; END"));
        }
    }

    /** Removes a trigger {@link #failing} or {@link #after} planted. */
    public static void drop(Database db, String name, String table) {
        db.useTransaction(h -> h.execute(db.onServer() ? "DROP TRIGGER " + name + " ON " + table
                : "DROP TRIGGER " + name));
    }

    /**
     * Runs {@code work} with the foreign keys unchecked, to plant a row that names a missing parent (as a damaged or
     * hand-edited database may hold). On PostgreSQL the test server's superuser turns its triggers, foreign keys
     * included, off for the session.
     */
    public static void withoutForeignKeys(Database db, java.util.function.Consumer<org.jdbi.v3.core.Handle> work) {
        db.read(h -> {
            h.execute(db.onServer() ? "SET session_replication_role = replica" : "PRAGMA foreign_keys = OFF");
            try {
                work.accept(h);
            } finally {
                h.execute(db.onServer() ? "SET session_replication_role = DEFAULT" : "PRAGMA foreign_keys = ON");
            }
            return null;
        });
    }
}
