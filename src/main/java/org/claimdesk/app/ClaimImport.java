package org.claimdesk.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PushbackReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.ClaimKey;
import org.claimdesk.domain.ClaimNumbers;
import org.claimdesk.domain.FieldViolation;
import org.claimdesk.domain.Transitions;
import org.claimdesk.store.AuditStore;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.claimdesk.store.NewClaim;
import org.claimdesk.store.OwnerOnly;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Importing claims from a CSV file with a header row (docs/import.md). The file is read twice, streaming, never
 * whole: first to check it (its encoding, its header, every row by the field rules of {@link ClaimDraft}) and to
 * write the rejected rows to {@code FILE.errors.csv}; then, unless {@code --strict} finds a rejected row, to write
 * the valid rows in transactions of {@value #BATCH_ROWS} rows. A row whose jurisdiction, state property id and
 * claimant name match a claim present is not written: counted as already present when its fields are equal, listed
 * as a conflict when they differ. So an import stopped half-way leaves whole batches, and running it again
 * completes it without duplicates. Each new claim gets a history row; the import gets one audit entry (file name,
 * SHA-256, counts), written with its last batch.
 */
public final class ClaimImport {
    private static final Logger LOG = LoggerFactory.getLogger(ClaimImport.class);
    public static final int BATCH_ROWS = 1_000;
    /** The column an errors file adds; the import ignores it, so a corrected errors file imports as it is. */
    public static final String ERROR_COLUMN = "error";
    /** The "column" of a rejection that concerns the whole row (e.g. too many values). */
    public static final String WHOLE_ROW = "(row)";
    public static final String WINDOWS_1252 = "windows-1252";

    private static final CsvMapper CSV = new CsvMapper();
    private static final ObjectReader ROWS = CSV.readerFor(String[].class)
            .with(CsvSchema.emptySchema())
            .with(CsvParser.Feature.WRAP_AS_ARRAY)
            .with(CsvParser.Feature.SKIP_EMPTY_LINES);

    private final Database database;
    private final Clock clock;
    private final ClaimStore claims = new ClaimStore();
    private final AuditStore audit = new AuditStore();

    public ClaimImport(Database database, Clock clock) {
        this.database = database;
        this.clock = clock;
    }

    /**
     * How to import.
     *
     * @param dryRun read and check only: nothing is written, neither to the database nor an errors file
     * @param strict import nothing when any row is rejected
     * @param charset the file's encoding: UTF-8 (with or without a byte order mark) unless told otherwise
     */
    public record Options(boolean dryRun, boolean strict, Charset charset) {
        public Options {
            charset = charset == null ? StandardCharsets.UTF_8 : charset;
        }

        public static Options defaults() {
            return new Options(false, false, StandardCharsets.UTF_8);
        }
    }

    /**
     * One broken rule of a rejected row. {@code line} numbers the rows as a spreadsheet does: the header is line 1,
     * and a line break inside a quoted value does not start a new line.
     */
    public record Rejected(long line, String column, String reason) {
    }

    /** A row matching a claim present whose other fields differ: the claim is left as it is. */
    public record Conflict(long line, String claimNumber, List<String> fields) {
        public Conflict {
            fields = List.copyOf(fields);
        }
    }

    /**
     * What an import did (or, dry, would do).
     *
     * @param rows the data rows read
     * @param refused true when {@code --strict} found a rejected row, so nothing was imported
     * @param errorsFile the errors file written, or null (no row rejected, or a dry run)
     */
    public record Report(String file, String sha256, String encoding, boolean dryRun, boolean strict, long rows,
            long imported, long alreadyPresent, List<Conflict> conflicts, long rejectedRows, List<Rejected> rejected,
            boolean refused, String errorsFile) {
        public Report {
            conflicts = List.copyOf(conflicts);
            rejected = List.copyOf(rejected);
        }

        /** Every row imported or already present. */
        public boolean clean() {
            return rejected.isEmpty() && conflicts.isEmpty();
        }
    }

    /** Where the rejected rows of {@code file} go: {@code FILE.errors.csv} next to it. */
    public static Path errorsFileOf(Path file) {
        return file.resolveSibling(file.getFileName() + ".errors.csv");
    }

    /** The columns an import knows: the required ones first, in field order. */
    public static List<String> requiredColumns() {
        return ClaimField.all().stream().filter(ClaimField::required).map(ClaimField::name).toList();
    }

    public static List<String> optionalColumns() {
        return ClaimField.all().stream().filter(f -> !f.required()).map(ClaimField::name).toList();
    }

    /**
     * Imports {@code file} as {@code actor}. A file-level problem (not readable, not in the encoding, not CSV, a
     * required column missing, an unknown column) is a {@link ClaimDeskException} with one message, and nothing
     * is imported.
     */
    public Report run(Path file, String actor, Options options) {
        String who = Inputs.actor(actor);
        LocalDate today = LocalDate.ofInstant(clock.instant(), ZoneId.systemDefault());
        Path errorsFile = options.dryRun() ? null : errorsFileOf(file);
        Check check = check(file, options.charset(), today, errorsFile);
        List<Conflict> conflicts = new ArrayList<>();
        long[] counts = new long[2];
        boolean refused = options.strict() && check.rejectedRows > 0;
        if (!refused) {
            load(file, options, today, who, check, conflicts, counts);
        }
        Report report = new Report(file.getFileName().toString(), check.sha256, options.charset().name(),
                options.dryRun(), options.strict(), check.rows, counts[0], counts[1], conflicts, check.rejectedRows,
                check.rejected, refused, check.rejectedRows > 0 && errorsFile != null ? errorsFile.toString() : null);
        LOG.info("import of {} ({}){}: {} rows, {} imported, {} already present, {} conflicts, {} rejected{}",
                report.file(), report.sha256(), options.dryRun() ? " (dry run)" : "", report.rows(), report.imported(),
                report.alreadyPresent(), conflicts.size(), report.rejectedRows(), refused ? ", refused (strict)" : "");
        return report;
    }

    // ---- the first pass: check the file, write the errors file ----

    private record Check(Header header, String sha256, long rows, long rejectedRows, List<Rejected> rejected) {
    }

    private Check check(Path file, Charset charset, LocalDate today, Path errorsFile) {
        List<Rejected> rejected = new ArrayList<>();
        long rows = 0;
        long rejectedRows = 0;
        ErrorsFile errors = null;
        boolean done = false;
        try (Source source = new Source(file, charset)) {
            Header header = Header.of(file, source.next());
            for (Row row = source.next(); row != null; row = source.next()) {
                rows++;
                List<Rejected> broken = header.read(row, today).rejected();
                if (broken.isEmpty()) {
                    continue;
                }
                rejectedRows++;
                rejected.addAll(broken);
                if (errorsFile != null) {
                    if (errors == null) {
                        errors = new ErrorsFile(errorsFile, header.written,
                                List.of(header.names).indexOf(ERROR_COLUMN));
                    }
                    errors.write(row.values, broken);
                }
            }
            if (errors != null) {
                errors.close();
            } else if (errorsFile != null) {
                Files.deleteIfExists(errorsFile);
            }
            done = true;
            return new Check(header, source.sha256(), rows, rejectedRows, rejected);
        } catch (IOException e) {
            throw new ClaimDeskException("cannot write the errors file " + errorsFile + ": " + e.getMessage(), e);
        } finally {
            if (!done && errors != null) {
                errors.discard();
            }
        }
    }

    // ---- the second pass: write the valid rows in bounded transactions ----

    private record Valid(long line, ClaimDraft draft) {
    }

    private void load(Path file, Options options, LocalDate today, String actor, Check check, List<Conflict> conflicts,
            long[] counts) {
        String name = file.getFileName().toString();
        Map<ClaimKey, int[]> seenDry = options.dryRun() ? new HashMap<>() : null;
        List<Valid> batch = new ArrayList<>(BATCH_ROWS);
        try (Source source = new Source(file, options.charset())) {
            source.next();
            for (Row row = source.next(); row != null; row = source.next()) {
                Parsed parsed = check.header.read(row, today);
                if (parsed.draft() == null) {
                    continue;
                }
                batch.add(new Valid(row.line, parsed.draft()));
                if (batch.size() == BATCH_ROWS) {
                    flush(batch, name, actor, options, check.header.fields(), seenDry, conflicts, counts, null);
                    batch.clear();
                }
            }
            if (!source.sha256().equals(check.sha256)) {
                throw new ClaimDeskException(name + " changed while it was imported; " + counts[0]
                        + " claim(s) were imported before that: import the file again to complete it");
            }
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("file", name);
        details.put("sha256", check.sha256);
        details.put("encoding", options.charset().name());
        details.put("strict", options.strict());
        details.put("rows", check.rows);
        details.put("rejectedRows", check.rejectedRows);
        flush(batch, name, actor, options, check.header.fields(), seenDry, conflicts, counts, details);
    }

    /**
     * Writes one batch in one transaction (a dry run only reads); with {@code auditDetails} (the last batch), the
     * import's audit entry too. Each row is looked up by its key among the claims present, then among the rows of
     * the batch before it: a row repeating a claim present or an earlier row is already present or a conflict.
     */
    private void flush(List<Valid> batch, String fileName, String actor, Options options, List<ClaimField<?>> fields,
            Map<ClaimKey, int[]> seenDry, List<Conflict> conflicts, long[] counts, Map<String, Object> auditDetails) {
        if (options.dryRun()) {
            database.read(h -> {
                Map<ClaimKey, Claim> present = claims.findByKeys(h, batch.stream().map(v -> v.draft.key()).toList());
                for (Valid v : batch) {
                    ClaimKey key = v.draft.key();
                    int[] earlier = seenDry.get(key);
                    if (present.containsKey(key)) {
                        classify(v, v.draft.differences(present.get(key), fields), present.get(key).claimNumber(),
                                conflicts, counts);
                    } else if (earlier != null) {
                        classify(v, v.draft.differences(earlier, fields), "(an earlier row of this file)", conflicts,
                                counts);
                    } else {
                        seenDry.put(key, v.draft.fingerprint());
                        counts[0]++;
                    }
                }
                return null;
            });
            return;
        }
        Instant now = clock.instant();
        int year = LocalDate.ofInstant(now, ZoneId.systemDefault()).getYear();
        database.inTransaction(h -> {
            Map<ClaimKey, Claim> present = claims.findByKeys(h, batch.stream().map(v -> v.draft.key()).toList());
            Map<ClaimKey, Valid> created = new LinkedHashMap<>();
            List<Valid> repeats = new ArrayList<>();
            for (Valid v : batch) {
                ClaimKey key = v.draft.key();
                if (present.containsKey(key)) {
                    classify(v, v.draft.differences(present.get(key), fields), present.get(key).claimNumber(),
                            conflicts, counts);
                } else if (created.containsKey(key)) {
                    repeats.add(v);
                } else {
                    created.put(key, v);
                }
            }
            Map<ClaimKey, String> numbers = new HashMap<>();
            if (!created.isEmpty()) {
                long next = claims.reserveNumbers(h, created.size());
                List<NewClaim> newClaims = new ArrayList<>(created.size());
                List<String> reasons = new ArrayList<>(created.size());
                for (Map.Entry<ClaimKey, Valid> e : created.entrySet()) {
                    String number = ClaimNumbers.format(year, next++);
                    numbers.put(e.getKey(), number);
                    newClaims.add(e.getValue().draft.toNewClaim(number, Transitions.FIRST));
                    reasons.add("imported from " + fileName + ", line " + e.getValue().line);
                }
                claims.createAll(h, newClaims, reasons, actor, now);
                counts[0] += newClaims.size();
            }
            for (Valid v : repeats) {
                ClaimKey key = v.draft.key();
                classify(v, v.draft.differences(created.get(key).draft, fields), numbers.get(key), conflicts, counts);
            }
            if (auditDetails != null) {
                auditDetails.put("imported", counts[0]);
                auditDetails.put("alreadyPresent", counts[1]);
                auditDetails.put("conflicts", conflicts.size());
                audit.append(h, now, actor, AuditActions.CLAIMS_IMPORT, AuditActions.SUBJECT_IMPORT,
                        (String) auditDetails.get("sha256"), "import of " + fileName, Json.write(auditDetails));
            }
            return null;
        });
    }

    private static void classify(Valid v, List<String> differ, String claimNumber, List<Conflict> conflicts,
            long[] counts) {
        if (differ.isEmpty()) {
            counts[1]++;
        } else {
            conflicts.add(new Conflict(v.line, claimNumber, differ));
        }
    }

    // ---- reading ----

    /** One record of the file: the line it starts on and its values as written. */
    private record Row(long line, String[] values) {
    }

    /** A row read by the field rules: its draft, or the rules it breaks. */
    private record Parsed(ClaimDraft draft, List<Rejected> rejected) {
    }

    /** The header: each column's field name (or the errors file's own column). */
    private static final class Header {
        /** Each column's field name, or {@value #ERROR_COLUMN}. */
        final String[] names;
        /** The header as the file writes it. */
        final String[] written;

        private Header(String[] names, String[] written) {
            this.names = names;
            this.written = written;
        }

        static Header of(Path file, Row row) {
            String name = file.getFileName().toString();
            if (row == null) {
                throw new ClaimDeskException(name + " is empty: a claims file starts with a header row naming its"
                        + " columns (" + String.join(", ", requiredColumns()) + " are required)");
            }
            String[] names = new String[row.values.length];
            List<String> unknown = new ArrayList<>();
            List<String> repeated = new ArrayList<>();
            Map<String, Boolean> seen = new HashMap<>();
            for (int i = 0; i < names.length; i++) {
                String written = row.values[i].strip();
                Optional<ClaimField<?>> field = ClaimField.byName(written);
                names[i] = field.map(ClaimField::name)
                        .orElse(written.equalsIgnoreCase(ERROR_COLUMN) ? ERROR_COLUMN : null);
                if (names[i] == null) {
                    unknown.add(written.isEmpty() ? "(a column with no name)" : written);
                } else if (seen.put(names[i], true) != null) {
                    repeated.add(written);
                }
            }
            List<String> missing = requiredColumns().stream().filter(c -> !seen.containsKey(c)).toList();
            List<String> problems = new ArrayList<>();
            if (!missing.isEmpty()) {
                problems.add("the required column(s) " + String.join(", ", missing) + " are missing");
            }
            if (!unknown.isEmpty()) {
                problems.add("the column(s) " + String.join(", ", unknown) + " are not claim columns");
            }
            if (!repeated.isEmpty()) {
                problems.add("the column(s) " + String.join(", ", repeated) + " appear more than once");
            }
            if (!problems.isEmpty()) {
                throw new ClaimDeskException(name + " was not imported: " + String.join("; ", problems)
                        + " (required: " + String.join(", ", requiredColumns()) + "; optional: "
                        + String.join(", ", optionalColumns()) + "; see docs/import.md)");
            }
            return new Header(names, row.values);
        }

        /** The claim fields the file has columns for: a row is compared with a claim present on these only. */
        List<ClaimField<?>> fields() {
            List<ClaimField<?>> fields = new ArrayList<>();
            for (String n : names) {
                ClaimField.byName(n).ifPresent(fields::add);
            }
            return fields;
        }

        Parsed read(Row row, LocalDate today) {
            if (row.values.length != names.length) {
                return new Parsed(null, List.of(new Rejected(row.line, WHOLE_ROW, "has " + row.values.length
                        + " value(s) but the header has " + names.length + " column(s)")));
            }
            Map<String, String> raw = new LinkedHashMap<>();
            for (int i = 0; i < names.length; i++) {
                if (!names[i].equals(ERROR_COLUMN)) {
                    raw.put(names[i], row.values[i]);
                }
            }
            ClaimDraft.Read read = ClaimDraft.read(raw, today);
            if (read.isOk()) {
                return new Parsed(read.draft(), List.of());
            }
            List<Rejected> rejected = new ArrayList<>();
            for (FieldViolation v : read.violations()) {
                rejected.add(new Rejected(row.line, v.field(), v.rule()));
            }
            return new Parsed(null, rejected);
        }
    }

    /** The file, streamed: its bytes hashed, decoded strictly, a byte order mark skipped, read as CSV records. */
    private static final class Source implements AutoCloseable {
        private final Path file;
        private final Charset charset;
        private final InputStream in;
        private final MessageDigest digest;
        private final MappingIterator<String[]> rows;
        private long lastLine = 1;

        Source(Path file, Charset charset) {
            this.file = file;
            this.charset = charset;
            try {
                digest = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
            }
            try {
                in = new DigestInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16), digest);
            } catch (NoSuchFileException e) {
                throw new ClaimDeskException("no file " + file);
            } catch (IOException e) {
                throw new ClaimDeskException("cannot read " + file + ": " + e.getMessage(), e);
            }
            try {
                Reader decoded = new InputStreamReader(in, charset.newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT));
                PushbackReader reader = new PushbackReader(new BufferedReader(decoded, 1 << 16));
                int first = reader.read();
                if (first != -1 && first != '\uFEFF') {
                    reader.unread(first);
                }
                rows = ROWS.readValues(reader);
            } catch (IOException e) {
                close();
                throw problem(e);
            }
        }

        /** The next record, or null at the end of the file. */
        Row next() {
            try {
                if (!rows.hasNextValue()) {
                    return null;
                }
                // the parser counts rows from 0, a line break inside quotes not starting a new one
                long line = rows.getParser().currentTokenLocation().getLineNr() + 1;
                lastLine = line;
                return new Row(line, rows.nextValue());
            } catch (IOException e) {
                throw problem(e);
            }
        }

        /** The SHA-256 of the bytes read: the file's, once {@link #next} has returned null. */
        String sha256() {
            return HexFormat.of().formatHex(digest.digest());
        }

        private ClaimDeskException problem(IOException e) {
            String name = file.getFileName().toString();
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof CharacterCodingException) {
                    boolean utf8 = charset.equals(StandardCharsets.UTF_8);
                    return new ClaimDeskException(name + " was not imported: it is not " + charset.name()
                            + " text (near line " + lastLine + ")" + (utf8
                            ? "; a file Excel saved as plain \"CSV\" on Windows is Windows-1252: import it with"
                                    + " --encoding " + WINDOWS_1252 + ", or save it as \"CSV UTF-8\""
                            : "; give the file's encoding with --encoding (UTF-8 is the default)"), e);
                }
            }
            if (e instanceof JsonProcessingException json) {
                long line = json.getLocation() == null ? lastLine : json.getLocation().getLineNr() + 1;
                return new ClaimDeskException(name + " was not imported: it is not a CSV file that can be read ("
                        + json.getOriginalMessage() + ", near line " + line + ")", e);
            }
            return new ClaimDeskException("cannot read " + file + ": " + e.getMessage(), e);
        }

        @Override
        public void close() {
            try {
                in.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close " + file, e);
            }
        }
    }

    /**
     * The rejected rows, each with its values as they were and an {@value #ERROR_COLUMN} column saying what is
     * wrong: corrected, the file imports as it is. It holds tax ids whole, so that the rows can be corrected, and
     * is written owner-only, like evidence files. UTF-8 with a byte order mark, which spreadsheets recognise.
     */
    private static final class ErrorsFile {
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
            this.csv = CSV.writerFor(String[].class).with(CsvSchema.emptySchema()).writeValues(writer);
            this.columns = header.length;
            this.errorIndex = errorIndex;
            List<String> names = new ArrayList<>(List.of(header));
            if (errorIndex < 0) {
                names.add(ERROR_COLUMN);
            }
            csv.write(names.toArray(String[]::new));
        }

        void write(String[] values, List<Rejected> broken) throws IOException {
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
}
