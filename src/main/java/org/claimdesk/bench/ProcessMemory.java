package org.claimdesk.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** This process's memory as Linux reports it in {@code /proc/self/status}, for the benchmarks' figures. */
public final class ProcessMemory {
    private ProcessMemory() {
    }

    /** A line of /proc/self/status ({@code VmRSS}, {@code VmHWM}, …) in MB, or -1 where there is no such line. */
    public static long statusMb(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(field + ":")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
