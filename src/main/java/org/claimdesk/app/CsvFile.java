package org.claimdesk.app;

import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.regex.Pattern;
import org.claimdesk.store.OwnerOnly;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every CSV file ClaimDesk writes (exports, the claims export, an import's errors file): RFC 4180 through
 * jackson-dataformat-csv, UTF-8 with a byte order mark (so spreadsheets read accents and other scripts), CRLF line
 * ends, owner-only, written next to its target as {@code NAME.part} and moved into place by {@link #finish}, so a
 * failed write leaves no half file.
 *
 * <p>{@link Guard#FORMULAS} puts an apostrophe before a value a spreadsheet would run as a formula (starting with
 * {@code = + - @}, a tab or a carriage return, numbers excepted): right for files staff open in a spreadsheet, wrong
 * for a file meant to be imported again, whose values must come back exactly ({@link Guard#NONE}).
 */
public final class CsvFile implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CsvFile.class);
    private static final CsvMapper MAPPER = new CsvMapper();
    private static final Pattern NUMBER = Pattern.compile("-?[0-9.]+");

    /** Whether values that look like spreadsheet formulas are neutralised. */
    public enum Guard { FORMULAS, NONE }

    private final Path target;
    private final Path temp;
    private final Guard guard;
    private final Writer writer;
    private final SequenceWriter csv;
    private long rows;
    private boolean closed;

    private CsvFile(Path target, Guard guard) throws IOException {
        this.target = target;
        this.temp = target.resolveSibling(target.getFileName() + ".part");
        this.guard = guard;
        Files.deleteIfExists(temp);
        OwnerOnly.create(temp, false);
        this.writer = Files.newBufferedWriter(temp, StandardCharsets.UTF_8, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        writer.write('\uFEFF');
        this.csv = MAPPER.writerFor(String[].class).with(CsvSchema.emptySchema().withLineSeparator("\r\n"))
                .writeValues(writer);
    }

    /**
     * Starts {@code target} with its header row.
     *
     * @throws UncheckedIOException when the file cannot be created
     */
    public static CsvFile create(Path target, List<String> header, Guard guard) {
        try {
            CsvFile file = new CsvFile(target, guard);
            file.csv.write(header.toArray(String[]::new));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }

    /** Writes one row; a null cell is empty, any other value its {@code toString()}. */
    public void row(List<?> cells) {
        String[] values = new String[cells.size()];
        for (int i = 0; i < values.length; i++) {
            Object cell = cells.get(i);
            values[i] = cell == null ? "" : cell.toString();
        }
        row(values);
    }

    /** Writes one row of values (the array is not kept). */
    public void row(String[] values) {
        if (guard == Guard.FORMULAS) {
            for (int i = 0; i < values.length; i++) {
                values[i] = neutralised(values[i]);
            }
        }
        try {
            csv.write(values);
            rows++;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }

    /** The data rows written, header excluded. */
    public long rows() {
        return rows;
    }

    public Path target() {
        return target;
    }

    /** The value with an apostrophe in front when a spreadsheet would run it as a formula. */
    static String neutralised(String value) {
        if (value == null || value.isEmpty() || "=+-@\t\r".indexOf(value.charAt(0)) < 0
                || NUMBER.matcher(value).matches()) {
            return value;
        }
        return "'" + value;
    }

    /** Completes the file and moves it into place over {@code target}. */
    public void finish() {
        try {
            closeWriters();
            try {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            abort();
            throw new UncheckedIOException("cannot finish " + target + ": " + e.getMessage(), e);
        }
    }

    /** Drops the partial file; the target is left as it was. Does nothing once finished. */
    public void abort() {
        try {
            closeWriters();
        } catch (IOException e) {
            LOG.debug("closing the partial {} failed: {}", temp.getFileName(), e.getMessage());
        }
        try {
            Files.deleteIfExists(temp);
        } catch (IOException e) {
            LOG.warn("cannot remove the partial file {}: {}", temp, e.getMessage());
        }
    }

    /** Drops the partial file unless {@link #finish} was called: use in try-with-resources. */
    @Override
    public void close() {
        abort();
    }

    private void closeWriters() throws IOException {
        if (!closed) {
            closed = true;
            try {
                csv.close();
            } finally {
                writer.close();
            }
        }
    }
}
