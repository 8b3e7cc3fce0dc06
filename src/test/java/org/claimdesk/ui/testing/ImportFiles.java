package org.claimdesk.ui.testing;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Claims files for the console's import tests, written into a temporary folder. */
public final class ImportFiles {
    public static final Path SAMPLE = Path.of("resources", "samples", "claims.csv");
    public static final String HEADER = "jurisdiction,statePropertyId,holderName,holderId,propertyType,claimType,"
            + "claimantName,taxId,amountCents,filedOn,claimantAddress";
    /** The jurisdiction of every generated row: none of the demo data's, so imported claims are easy to count. */
    public static final String JURISDICTION = "VT";

    private ImportFiles() {
    }

    /** A valid row: property id 5000000 + n, claimant "Imported Claimant n", a non-issuable tax id. */
    public static String row(int n) {
        return String.format("%s,%d,Green Mountain Power,HLD-551020,UT01,OWNER,Imported Claimant %d,900-00-%04d,%d,"
                + "2026-03-02,", JURISDICTION, 5_000_000 + n, n, n % 10_000, 1_000 + n);
    }

    /** {@code rows} valid rows, streamed to the file. */
    public static Path valid(Path dir, String name, int rows) {
        Path file = dir.resolve(name);
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write(HEADER + "\n");
            for (int i = 1; i <= rows; i++) {
                out.write(row(i));
                out.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /** Three valid rows and two invalid ones (lines 3 and 5: a property id too short, an amount that is text). */
    public static Path withInvalidRows(Path dir) {
        return write(dir, "with-invalid.csv", HEADER + "\n" + row(1) + "\n"
                + row(2).replace(",5000002,", ",12AB,") + "\n" + row(3) + "\n"
                + row(4).replace(",1004,", ",lots,") + "\n" + row(5) + "\n", StandardCharsets.UTF_8);
    }

    /** Two valid rows written in Windows-1252, as Excel's plain "CSV" on Windows writes them (accented names). */
    public static Path windows1252(Path dir) {
        return write(dir, "excel.csv", HEADER + "\r\n" + row(1).replace("Imported Claimant 1", "José Núñez") + "\r\n"
                + row(2).replace("Imported Claimant 2", "Renée Façade") + "\r\n", Charset.forName("windows-1252"));
    }

    public static Path write(Path dir, String name, String text, Charset charset) {
        Path file = dir.resolve(name);
        try {
            Files.write(file, text.getBytes(charset));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }
}
