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

    /**
     * Starts a separate JVM that takes the write lock of {@code file} and holds it for {@code seconds}
     * (or until destroyed); returns once it holds the lock.
     */
    public static Process hold(java.nio.file.Path file, int seconds) throws java.io.IOException {
        Process holder = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), LockHolder.class.getName(), file.toString(),
                Integer.toString(seconds)).redirectErrorStream(true).start();
        String first = new java.io.BufferedReader(new java.io.InputStreamReader(holder.getInputStream(),
                java.nio.charset.StandardCharsets.UTF_8)).readLine();
        if (!"locked".equals(first)) {
            holder.destroyForcibly();
            throw new AssertionError("the lock holder did not take the lock; it said: " + first);
        }
        return holder;
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
