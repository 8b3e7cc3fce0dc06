package org.claimdesk.bench.ui;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The console's major page faults, as Linux counts them for the process ({@code /proc/self/stat}, field 12): a page
 * of code or data that had to be read from disk first (a mapped file's page the system had dropped, memory it had
 * paged out). Beside a slow pulse with idle processors, they say the console waited for the disk. Elsewhere than on
 * Linux nothing is read.
 */
final class MajorFaults {
    private static final Path STAT = Path.of("/proc/self/stat");
    /** majflt's place among the fields after the command name's closing parenthesis (field 3 is the first). */
    private static final int MAJFLT_AFTER_NAME = 12 - 3;
    private final Growing faults = new Growing();

    /** Reads the counter again; {@link #sinceBefore} is then since the sample before. False where it cannot be read. */
    boolean sample() {
        try {
            faults.read(Long.parseLong(ProcStat.fieldsAfterName(STAT)[MAJFLT_AFTER_NAME]));
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Major faults from the first sample to the last. */
    long inAll() {
        return faults.sinceFirst();
    }

    /** Major faults between the last two samples. */
    long sinceBefore() {
        return faults.sinceBefore();
    }
}
