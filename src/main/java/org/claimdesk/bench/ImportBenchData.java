package org.claimdesk.bench;

import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.SplittableRandom;
import org.claimdesk.app.ClaimImport;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.PropertyType;

/**
 * The claims file {@code bench import} imports: N rows in the import's columns, written row by row (never held),
 * the same for the same N. Names come from many scripts (Latin with diacritics, Cyrillic, Greek, Arabic, Hebrew,
 * Devanagari, Chinese, Japanese, Korean); holder names, business claimants and addresses carry commas and so are
 * quoted, some holder names carry doubled quotes. Every {@value #INVALID_EVERY}th row breaks one field rule (in
 * turn: a date written 02.03.2026, a tax id of five digits, an amount with a decimal point, an unknown
 * jurisdiction), so the import's rejection path and its errors file are measured too.
 */
final class ImportBenchData {
    static final long SEED = 171_717L;
    static final int INVALID_EVERY = 200;
    /** State property ids are {@code FIRST_PROPERTY_ID + row}: eight digits, unique, so every key is new. */
    static final int FIRST_PROPERTY_ID = 10_000_000;

    private static final String[] GIVEN = {"Maria", "José", "Zoë", "Seán", "Ngozi", "Aisha", "Łukasz", "Søren",
        "Иван", "Ольга", "Γιώργος", "Ελένη", "محمد", "فاطمة", "דוד", "אנה", "अनिल", "प्रिया", "伟", "娜", "健二", "さくら",
        "민준", "서연", "Nguyễn Văn", "Thị Lan", "Björk", "François", "Çağla", "Dvořák"};
    private static final String[] FAMILY = {"Garcia", "Hernández", "Ångström", "O'Brien", "Okafor", "Khan",
        "Wiśniewski", "Kierkegaard", "Петров", "Смирнова", "Παπαδόπουλος", "Νικολάου", "علي", "حسن", "כהן", "לוי",
        "शर्मा", "पटेल", "王", "李", "田中", "佐藤", "김", "이", "Trần", "Müller", "Lefèvre", "Yılmaz", "Novák", "Smith"};
    private static final String[] BUSINESSES = {"Harbor Dental Group, LLC", "Blue Ridge Farms, Inc.",
        "Nordic \"Fjord\" Imports, Ltd.", "Sakura Trading Co., Ltd.", "Ōkubo & Sons, LLP"};
    private static final String[] HOLDERS = {"Wells Fargo Bank, N.A.", "Pacific Gas and Electric Co",
        "JPMorgan Chase Bank, N.A.", "Consolidated Edison Co of New York", "State Farm Mutual Automobile Ins",
        "Acme \"Widgets\" Holdings, Inc.", "Comcast Cable Communications", "Citibank NA"};
    private static final String[] STREETS = {"Oak St", "Capitol Mall", "Water St", "Elm St", "N State St",
        "Calle Mayor", "Rue de Rivoli", "Main St"};
    private static final String[] CITIES = {"Sacramento, CA 95814", "New York, NY 10041", "Austin, TX 78701",
        "Chicago, IL 60654", "Seattle, WA 98101", "Miami, FL 33101"};
    private static final String[] JURISDICTIONS = {"CA", "NY", "TX", "FL", "WA", "IL", "PA", "OH", "GA", "NC"};
    private static final String[] COLUMNS = {"jurisdiction", "statePropertyId", "holderName", "holderId",
        "propertyType", "claimType", "claimantName", "taxId", "amountCents", "filedOn", "claimantEmail",
        "claimantPhone", "claimantAddress"};

    /** What was written: the rows, how many break a rule, the file's size. */
    record Summary(int rows, int invalidRows, long bytes) {
    }

    private ImportBenchData() {
    }

    static Summary write(Path file, int rows, LocalDate today) {
        SplittableRandom random = new SplittableRandom(SEED);
        int invalid = 0;
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
                SequenceWriter csv = new CsvMapper().writerFor(String[].class).with(CsvSchema.emptySchema())
                        .writeValues(out)) {
            checkColumns();
            csv.write(COLUMNS);
            String[] row = new String[COLUMNS.length];
            for (int i = 1; i <= rows; i++) {
                fill(row, i, random, today);
                if (i % INVALID_EVERY == 0) {
                    breakOneRule(row, i / INVALID_EVERY);
                    invalid++;
                }
                csv.write(row);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the benchmark's claims file " + file, e);
        }
        try {
            return new Summary(rows, invalid, Files.size(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the size of " + file, e);
        }
    }

    /** The columns written are the import's own (a renamed field fails the benchmark here, not in the child). */
    private static void checkColumns() {
        for (String c : COLUMNS) {
            if (!ClaimImport.columns().contains(c)) {
                throw new IllegalStateException("the import has no column " + c);
            }
        }
    }

    private static void fill(String[] row, int i, SplittableRandom random, LocalDate today) {
        ClaimType type = ClaimType.values()[random.nextInt(ClaimType.values().length)];
        String person = GIVEN[random.nextInt(GIVEN.length)] + " " + FAMILY[random.nextInt(FAMILY.length)];
        String claimant = switch (type) {
            case BUSINESS -> BUSINESSES[random.nextInt(BUSINESSES.length)];
            // a comma inside the name: the field is quoted
            case HEIR -> person + ", heir of " + FAMILY[random.nextInt(FAMILY.length)] + " estate";
            default -> person;
        };
        row[0] = JURISDICTIONS[random.nextInt(JURISDICTIONS.length)];
        row[1] = Integer.toString(FIRST_PROPERTY_ID + i);
        row[2] = HOLDERS[random.nextInt(HOLDERS.length)];
        row[3] = "HLD-" + (100_000 + random.nextInt(900_000));
        row[4] = PropertyType.values()[random.nextInt(PropertyType.values().length)].name();
        row[5] = type.name();
        row[6] = claimant;
        // group 00: never issued (docs of the domain), as the demo's
        row[7] = type == ClaimType.BUSINESS ? "12-" + (1_000_000 + random.nextInt(9_000_000))
                : "9" + two(random.nextInt(100)) + "-00-" + four(i % 10_000);
        row[8] = Long.toString(100 + random.nextInt(5_000_000));
        row[9] = today.minusDays(1 + random.nextInt(1_000)).toString();
        row[10] = random.nextInt(3) == 0 ? "claimant" + i + "@example.org" : "";
        row[11] = random.nextInt(4) == 0 ? "(916) 555-" + four(random.nextInt(10_000)) : "";
        row[12] = random.nextBoolean() ? (1 + random.nextInt(9_999)) + " " + STREETS[random.nextInt(STREETS.length)]
                + ", Apt " + (1 + random.nextInt(40)) + ", " + CITIES[random.nextInt(CITIES.length)] : "";
    }

    private static void breakOneRule(String[] row, int k) {
        switch (k % 4) {
            case 0 -> row[9] = "02.03.2026";
            case 1 -> row[7] = "12345";
            case 2 -> row[8] = "12.50";
            default -> row[0] = "XX";
        }
    }

    private static String two(int n) {
        return n < 10 ? "0" + n : Integer.toString(n);
    }

    private static String four(int n) {
        String s = Integer.toString(n);
        return "0000".substring(s.length()) + s;
    }
}
