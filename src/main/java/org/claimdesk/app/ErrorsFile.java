package org.claimdesk.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The rejected rows, each with its values as they were and an {@value ClaimImport#ERROR_COLUMN} column saying what is
 * wrong: corrected, the file imports as it is. It holds tax ids whole, so that the rows can be corrected, and is
 * written owner-only, like evidence files. The values that broke a rule and that a spreadsheet would run as a formula
 * (=HYPERLINK(…) beside a whole tax id) are written with an apostrophe in front, as {@link CsvFile}'s guard writes
 * them: they are to be typed again, and one that comes back unchanged is refused for it; the other values are
 * written as they were, to import back exactly.
 */
final class ErrorsFile {
    private final CsvFile csv;
    private final int columns;
    /** Each column's field name, as the import matched the header. */
    private final List<String> fields;
    /** Where the header already has an error column (an errors file imported again), else -1. */
    private final int errorIndex;

    /**
     * @param header the header as the file writes it
     * @param fields each column's field name, {@value ClaimImport#ERROR_COLUMN} for its error column if it has one
     */
    ErrorsFile(Path path, String[] header, String[] fields) throws IOException {
        this.columns = header.length;
        this.fields = java.util.Arrays.asList(fields.clone());
        this.errorIndex = this.fields.indexOf(ClaimImport.ERROR_COLUMN);
        List<String> names = new ArrayList<>(List.of(header));
        if (errorIndex < 0) {
            names.add(ClaimImport.ERROR_COLUMN);
        }
        try {
            this.csv = CsvFile.create(path, names, CsvFile.Guard.NONE);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    void write(String[] values, List<ClaimImport.Rejected> broken) throws IOException {
        String error = broken.stream().map(r -> r.column() + " " + r.reason()).collect(Collectors.joining("; "));
        List<String> row = new ArrayList<>(List.of(values));
        // the reason always in the error column, which the import ignores: after a short row's values it would sit
        // under a field a spreadsheet round trip then fills with it (a spreadsheet saves every row to its width)
        while (row.size() < columns) {
            row.add("");
        }
        for (ClaimImport.Rejected r : broken) {
            int at = fields.indexOf(r.column());
            if (at >= 0) {
                row.set(at, CsvFile.neutralised(row.get(at)));
            }
        }
        if (errorIndex >= 0 && values.length <= columns) {
            row.set(errorIndex, error);
        } else {
            // right after the header's columns (a long row's extra values follow it, kept), or, for a long row of a
            // file that has the error column, after every value: none of its values is overwritten
            row.add(errorIndex >= 0 ? row.size() : columns, error);
        }
        try {
            csv.row(row);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    void close() throws IOException {
        try {
            csv.finish();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    void discard() {
        csv.abort();
    }
}
