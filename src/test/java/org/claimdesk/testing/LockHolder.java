package org.claimdesk.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * A separate process that takes the write lock of a database and holds it until it is killed or
 * its time runs out: {@code LockHolder PATH SECONDS}. Prints "locked" once it holds the lock.
 */
public final class LockHolder {
    private LockHolder() {
    }

    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + args[0]); Statement s = c.createStatement()) {
            s.execute("PRAGMA busy_timeout = 5000");
            s.execute("BEGIN IMMEDIATE");
            s.execute("UPDATE claim SET updated_at = updated_at");
            System.out.println("locked");
            System.out.flush();
            Thread.sleep(Long.parseLong(args[1]) * 1000);
            s.execute("ROLLBACK");
        }
    }
}
