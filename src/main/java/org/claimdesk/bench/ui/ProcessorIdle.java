package org.claimdesk.bench.ui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How long the machine's processors stood idle, all of them added up, as Linux counts it in the first line of
 * {@code /proc/stat} (idle and waiting for IO, in ticks of 10 ms): beside a slow pulse, none idle means the
 * machine had more work than processors. On a virtual machine the same line counts the time the host ran something
 * else while a processor of this one had work ({@code steal}): a gap with none of the console's threads running or
 * waiting for a processor may be one the host took. Elsewhere than on Linux nothing is read.
 */
final class ProcessorIdle {
    private static final Path STAT = Path.of("/proc/stat");
    private static final long MILLIS_PER_TICK = 10;
    private final Growing idleTicks = new Growing();
    private final Growing stolenTicks = new Growing();

    /** Reads the counter again; {@link #idleMillis} is then since the sample before. False where it cannot be read. */
    boolean sample() {
        try (var lines = Files.lines(STAT)) {
            String[] fields = lines.findFirst().orElseThrow().trim().split("\\s+");
            long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
            long stolen = fields.length > 8 ? Long.parseLong(fields[8]) : 0;
            idleTicks.read(idle);
            stolenTicks.read(stolen);
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Idle processor time between the last two samples, in ms (a tick's precision). */
    long idleMillis() {
        return idleTicks.sinceBefore() * MILLIS_PER_TICK;
    }

    /** Processor time the host took between the last two samples, in ms (a tick's precision). */
    long stolenMillis() {
        return stolenTicks.sinceBefore() * MILLIS_PER_TICK;
    }

    /** Processor time the host took since the first sample, in ms. */
    long stolenInAllMillis() {
        return stolenTicks.sinceFirst() * MILLIS_PER_TICK;
    }
}
