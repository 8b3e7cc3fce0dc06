package org.claimdesk.ui.common;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * RFC 4180 CSV for exports: UTF-8 with a byte-order mark (so spreadsheet programs read accents), CRLF line
 * ends, quotes where needed, and cells that start like a formula prefixed with an apostrophe. The file is
 * written next to its target and moved into place, so a failed export leaves no half file.
 */
public final class CsvWriter implements AutoCloseable {
    private final Path target;
    private final Path temp;
    private final BufferedWriter out;
    private long rows;

    public CsvWriter(Path target, List<String> header) {
        this.target = target;
        this.temp = target.resolveSibling(target.getFileName() + ".part");
        try {
            this.out = Files.newBufferedWriter(temp, StandardCharsets.UTF_8);
            out.write('\uFEFF');
            write(header);
            rows = 0;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }

    public void row(List<?> cells) {
        write(cells.stream().map(c -> c == null ? "" : c.toString()).toList());
        rows++;
    }

    public long rows() {
        return rows;
    }

    private void write(List<String> cells) {
        try {
            for (int i = 0; i < cells.size(); i++) {
                if (i > 0) {
                    out.write(',');
                }
                out.write(escape(cells.get(i)));
            }
            out.write("\r\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }

    static String escape(String cell) {
        String value = cell;
        if (!value.isEmpty() && "=+-@\t\r".indexOf(value.charAt(0)) >= 0 && !value.matches("-?[0-9.]+")) {
            value = "'" + value;
        }
        if (value.contains(",") || value.contains("\"") || value.contains("\n") || value.contains("\r")) {
            return "\"" + value.replace("\"", "\"\"") + "\"";
        }
        return value;
    }

    /** Finishes the file and moves it into place. */
    @Override
    public void close() {
        try {
            out.close();
            try {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot finish " + target + ": " + e.getMessage(), e);
        }
    }

    /** Drops the partial file after a failure. */
    public void abort() {
        try {
            out.close();
            Files.deleteIfExists(temp);
        } catch (IOException e) {
            // Nothing more to do: the target was never touched.
        }
    }
}
