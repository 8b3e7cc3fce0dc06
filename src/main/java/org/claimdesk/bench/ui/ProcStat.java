package org.claimdesk.bench.ui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A {@code /proc/…/stat} file of Linux, a process's or a thread's. */
final class ProcStat {
    private ProcStat() {
    }

    /**
     * The fields after the command name, from the state (field 3 in {@code man proc}) on: the name is in parentheses
     * and may itself hold spaces and parentheses, so the fields start after its last closing one.
     */
    static String[] fieldsAfterName(Path stat) throws IOException {
        String text = Files.readString(stat);
        return text.substring(text.lastIndexOf(')') + 2).split(" ");
    }
}
