package org.claimdesk.app;

import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.claimdesk.store.OwnerOnly;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rejected rows, each with its values as they were and an {@value ClaimImport#ERROR_COLUMN} column saying what is
 * wrong: corrected, the file imports as it is. It holds tax ids whole, so that the rows can be corrected, and
 * is written owner-only, like evidence files. UTF-8 with a byte order mark, which spreadsheets recognise.
 */
final class ErrorsFile {
    private static final Logger LOG = LoggerFactory.getLogger(ErrorsFile.class);
    private final Path path;
    private final Writer writer;
    private final SequenceWriter csv;
    private final int columns;
    /** Where the header already has an error column (an errors file imported again), else -1. */
    private final int errorIndex;

    ErrorsFile(Path path, String[] header, int errorIndex) throws IOException {
        this.path = path;
        Files.deleteIfExists(path);
        OwnerOnly.create(path, false);
        this.writer = Files.newBufferedWriter(path, StandardCharsets.UTF_8, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        writer.write('\uFEFF');
        this.csv = new CsvMapper().writerFor(String[].class).with(CsvSchema.emptySchema()).writeValues(writer);
        this.columns = header.length;
        this.errorIndex = errorIndex;
        List<String> names = new ArrayList<>(List.of(header));
        if (errorIndex < 0) {
            names.add(ClaimImport.ERROR_COLUMN);
        }
        csv.write(names.toArray(String[]::new));
    }

    void write(String[] values, List<ClaimImport.Rejected> broken) throws IOException {
        String error = broken.stream().map(r -> r.column() + " " + r.reason()).collect(Collectors.joining("; "));
        List<String> row = new ArrayList<>(List.of(values));
        if (errorIndex >= 0 && values.length == columns) {
            row.set(errorIndex, error);
        } else {
            row.add(error);
        }
        csv.write(row.toArray(String[]::new));
    }

    void close() throws IOException {
        csv.close();
        writer.close();
    }

    void discard() {
        try {
            close();
        } catch (IOException e) {
            // the partial file is removed below
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            LOG.warn("cannot remove the partial errors file {}: {}", path, e.getMessage());
        }
    }
}
