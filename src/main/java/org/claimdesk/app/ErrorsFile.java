package org.claimdesk.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.claimdesk.domain.ClaimField;

/**
 * The rejected rows, each with its values as they were and an {@value ClaimImport#ERROR_COLUMN} column saying what is
 * wrong: corrected, the file imports as it is. It holds tax ids whole, so that the rows can be corrected, and is
 * written owner-only, like evidence files. The values that broke a rule and that a spreadsheet would run as a formula
 * (=HYPERLINK(…) beside a whole tax id) are written with an apostrophe in front, as {@link CsvFile}'s guard writes
 * them: they are to be typed again, and one that comes back unchanged is refused for it; the other values are
 * written as they were, to import back exactly. A row refused as a whole (of another width than the header) is read
 * under no field: each of its values that a spreadsheet would run is written so, a phone number excepted.
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
        boolean wholeRow = broken.stream().anyMatch(r -> r.column().equals(ClaimImport.WHOLE_ROW));
        for (int i = 0; i < row.size(); i++) {
            // a row of another width is read under no field, so every value of it is to be looked at again
            if (wholeRow ? !isPhone(row.get(i)) : brokenAt(broken, i)) {
                row.set(i, CsvFile.neutralised(row.get(i)));
            }
        }
        if (errorIndex >= 0 && values.length <= columns) {
            row.set(errorIndex, error);
        } else {
            // after every value, none overwritten: a long row mended in a spreadsheet the usual way (two cells of a
            // name split at a comma merged, the cells after them moved left) brings its last value back under the
            // last field and the reason under the error column; between them, the reason would land in that field
            row.add(error);
        }
        try {
            csv.row(row);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private boolean brokenAt(List<ClaimImport.Rejected> broken, int column) {
        return column < fields.size() && broken.stream().anyMatch(r -> r.column().equals(fields.get(column)));
    }

    /** A phone number as the field takes it ("+1 916 555 0142"), which a spreadsheet does not run: kept as it is. */
    private static boolean isPhone(String value) {
        return value.startsWith("+") && ClaimField.CLAIMANT_PHONE.check(value, LocalDate.EPOCH).violations().isEmpty();
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
