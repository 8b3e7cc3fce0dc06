package org.claimdesk.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A separate process that holds an operating-system lock on a file, as a writer in another ClaimDesk does, until it
 * is destroyed or its time runs out: {@code FileLockHolder PATH SECONDS}. Prints "locked" once it holds the lock.
 */
public final class FileLockHolder {
    private FileLockHolder() {
    }

    /** Starts the holder on {@code file} (created if missing) and returns once it holds the lock. */
    public static Process hold(Path file, int seconds) throws IOException {
        Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), FileLockHolder.class.getName(), file.toString(),
                Integer.toString(seconds)).redirectErrorStream(true).start();
        String first = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8))
                .readLine();
        if (!"locked".equals(first)) {
            holder.destroyForcibly();
            throw new AssertionError("the file lock holder did not take the lock; it said: " + first);
        }
        return holder;
    }

    public static void main(String[] args) throws Exception {
        try (FileChannel channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            channel.lock();
            System.out.println("locked");
            System.out.flush();
            Thread.sleep(Long.parseLong(args[1]) * 1000);
        }
    }
}
