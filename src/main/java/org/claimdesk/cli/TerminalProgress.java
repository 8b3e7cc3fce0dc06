package org.claimdesk.cli;

import java.io.PrintWriter;

/**
 * One line on standard error kept current with how far a long command is, at most four times a second, when the
 * command runs at a terminal; elsewhere (a script, a pipe, a test) nothing, so that its output holds only results.
 */
final class TerminalProgress {
    private static final long EVERY_NANOS = 250_000_000L;

    private final PrintWriter err;
    private final boolean shown;
    private long last;
    private boolean written;
    /** The longest line written since the last clear, which {@link #clear} blanks whole. */
    private int width;

    /** @param shown whether the lines are written (the process runs at a terminal) */
    TerminalProgress(PrintWriter err, boolean shown) {
        this.err = err;
        this.shown = shown;
    }

    /** On {@code err} when the process runs at a terminal. */
    static TerminalProgress onTerminal(PrintWriter err) {
        return new TerminalProgress(err, System.console() != null);
    }

    /** Shows {@code line} in place of the last, unless one was shown less than a quarter of a second ago. */
    synchronized void show(String line) {
        if (!shown || (written && System.nanoTime() - last < EVERY_NANOS)) {
            return;
        }
        write(line + "   ");
    }

    /** Shows {@code line} in place of the last at once: a step that begins, which a later one may not follow soon. */
    synchronized void step(String line) {
        if (shown) {
            write(String.format("%-60s", line));
        }
    }

    private void write(String text) {
        last = System.nanoTime();
        written = true;
        width = Math.max(width, text.length());
        err.print("\r" + text);
        err.flush();
    }

    /** Clears the line, before the command's result is printed. */
    synchronized void clear() {
        if (written) {
            err.printf("\r%s\r", " ".repeat(Math.max(60, width)));
            err.flush();
            written = false;
            width = 0;
        }
    }
}
