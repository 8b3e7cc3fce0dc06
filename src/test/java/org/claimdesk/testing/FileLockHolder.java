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
 * {@code FileLockHolder PATH probe} prints whether the file is locked by another process ("locked" or "free").
 */
public final class FileLockHolder {
    private FileLockHolder() {
    }

    /** Starts the holder on {@code file} (created if missing) and returns once it holds the lock. */
    public static Process hold(Path file, int seconds) throws IOException {
        Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), FileLockHolder.class.getName(), file.toString(),
                Integer.toString(seconds)).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String first = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8))
                .readLine();
        if (!"locked".equals(first)) {
            holder.destroyForcibly();
            throw new AssertionError("the file lock holder did not take the lock; it said: " + first);
        }
        return holder;
    }

    /**
     * Whether a separate process finds {@code file} locked: what a ClaimDesk on another workstation sees when it asks
     * whether a partial file's writer still runs.
     */
    public static boolean lockedElsewhere(Path file) throws IOException, InterruptedException {
        Process probe = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), FileLockHolder.class.getName(), file.toString(), "probe")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String answer = new BufferedReader(new InputStreamReader(probe.getInputStream(), StandardCharsets.UTF_8))
                .readLine();
        probe.waitFor();
        if (!"locked".equals(answer) && !"free".equals(answer)) {
            throw new AssertionError("the lock probe said: " + answer);
        }
        return "locked".equals(answer);
    }

    public static void main(String[] args) throws Exception {
        if (args[1].equals("probe")) {
            try (FileChannel channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.WRITE)) {
                System.out.println(channel.tryLock() == null ? "locked" : "free");
            }
            return;
        }
        try (FileChannel channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            channel.lock();
            System.out.println("locked");
            System.out.flush();
            Thread.sleep(Long.parseLong(args[1]) * 1000);
        }
    }
}
