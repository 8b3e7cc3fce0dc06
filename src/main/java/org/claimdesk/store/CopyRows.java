package org.claimdesk.store;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of one table's data in a dump, fed as the bytes of its {@code COPY … FROM stdin} text arrive: one row
 * per line (COPY's text format writes a newline inside a value as {@code \n}), up to the line {@code \.} that ends
 * the data. Keeps the lines themselves only when asked, for a small table whose values are read.
 */
final class CopyRows {
    /** Lines kept at most, so that a damaged small table cannot fill the memory. */
    private static final int KEEP_AT_MOST = 100_000;

    private final ByteArrayOutputStream kept;
    private final List<String> lines = new ArrayList<>();
    private long rows;
    private boolean ended;
    private int lineLength;
    private int first;
    private int second;

    CopyRows(boolean keepLines) {
        this.kept = keepLines ? new ByteArrayOutputStream() : null;
    }

    void accept(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length && !ended; i++) {
            int b = bytes[i] & 0xFF;
            if (b == '\n') {
                endLine();
                continue;
            }
            if (lineLength == 0) {
                first = b;
            } else if (lineLength == 1) {
                second = b;
            }
            lineLength++;
            if (kept != null) {
                kept.write(b);
            }
        }
    }

    /** Ends the data: a last line without its newline counts as a row. */
    void finish() {
        if (lineLength > 0 && !ended) {
            endLine();
        }
    }

    private void endLine() {
        if (lineLength == 2 && first == '\\' && second == '.') {
            ended = true;
        } else {
            rows++;
            if (kept != null && lines.size() < KEEP_AT_MOST) {
                lines.add(kept.toString(StandardCharsets.UTF_8));
            }
        }
        if (kept != null) {
            kept.reset();
        }
        lineLength = 0;
    }

    /** One whole line without its newline, as a plain dump is read. */
    void line(String line) {
        if (ended) {
            return;
        }
        if (line.equals("\\.")) {
            ended = true;
            return;
        }
        rows++;
        if (kept != null && lines.size() < KEEP_AT_MOST) {
            lines.add(line);
        }
    }

    long rows() {
        return rows;
    }

    /** True once the line {@code \.} was read. */
    boolean ended() {
        return ended;
    }

    /** The rows' lines, when kept. */
    List<String> lines() {
        return lines;
    }

    /** The column names of a {@code COPY table (a, b, …) FROM stdin;} statement, unquoted. */
    static List<String> columns(String copyStatement) {
        int open = copyStatement.indexOf('(');
        int close = copyStatement.indexOf(')', open + 1);
        if (open < 0 || close < 0) {
            return List.of();
        }
        List<String> columns = new ArrayList<>();
        for (String column : copyStatement.substring(open + 1, close).split(",")) {
            columns.add(column.strip().replace("\"", ""));
        }
        return columns;
    }
}
