package org.claimdesk.app;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.ClaimKey;
import org.claimdesk.domain.ClaimNumbers;
import org.claimdesk.domain.FieldViolation;
import org.claimdesk.domain.TaxIds;
import org.claimdesk.domain.Transitions;
import org.claimdesk.store.AuditStore;
import org.claimdesk.store.BatchWriter;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseException;
import org.claimdesk.store.IoErrors;
import org.claimdesk.store.Json;
import org.claimdesk.store.NewClaim;
import org.claimdesk.store.SeenKeys;
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
 * SHA-256, counts), written with its last batch, or, stopped by an error after batches were written, one saying how
 * many claims it wrote and why it stopped. An errors file an earlier import of the file left is kept aside, not
 * replaced: staff correct errors files where they stand.
 */
public final class ClaimImport {
    private static final Logger LOG = LoggerFactory.getLogger(ClaimImport.class);
    /**
     * The valid rows of one transaction. A batch's drafts are gathered over a few young collections, so they must fit
     * a survivor space of the launcher's 24 MB young generation (about 2.4 MB): 5,000 did not, and each batch was
     * promoted until the old generation filled up to the heap's limit (docs/benchmarks.md, Import).
     */
    public static final int BATCH_ROWS = 2_000;
    /** The column an errors file adds; the import ignores it, so a corrected errors file imports as it is. */
    public static final String ERROR_COLUMN = "error";
    /** A column the header gives no name: ignored while its values are blank. */
    static final String UNNAMED = "";
    /** The "column" of a rejection that concerns the whole row (e.g. too many values). */
    public static final String WHOLE_ROW = "(row)";
    public static final String WINDOWS_1252 = "windows-1252";
    /**
     * The broken rules, and the conflicting rows, a report lists at most, so that memory stays bounded; the errors
     * file has every rejected row.
     */
    public static final int MAX_LISTED = 10_000;

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

    /** The two passes of an import: checking every row, then writing the valid ones. */
    public enum Phase { CHECKING, IMPORTING }

    /**
     * How far an import is, published once per {@value #BATCH_ROWS} rows.
     *
     * @param rows the data rows read in this phase
     * @param bytesRead the bytes of the file read in this phase
     * @param fileBytes the file's size
     * @param imported the claims written so far (would be written, in a dry run)
     */
    public record Progress(Phase phase, long rows, long bytesRead, long fileBytes, long imported) {
        /** The share of the whole import done, 0 to 1: checking is the first half, importing the second. */
        public double fraction() {
            double inPhase = fileBytes <= 0 ? 0 : Math.min(1.0, (double) bytesRead / fileBytes);
            return phase == Phase.CHECKING ? inPhase / 2 : 0.5 + inPhase / 2;
        }
    }

    /** Watches an import: told its progress, asked between batches whether to stop. */
    public interface Monitor {
        Monitor NONE = new Monitor() {
        };

        default void progress(Progress progress) {
        }

        /**
         * True to stop: while checking, nothing is imported; while importing, the batches written stay and the
         * import's audit entry says it was cancelled. Importing the same file again completes it.
         */
        default boolean cancelled() {
            return false;
        }
    }

    /**
     * What an import did (or, dry, would do).
     *
     * @param rows the data rows read
     * @param rejected the broken rules of the rejected rows, the first {@value #MAX_LISTED}
     * @param rejectedNotListed the broken rules past those
     * @param refused true when {@code --strict} found a rejected row, so nothing was imported
     * @param errorsFile the errors file written, or null (no row rejected, or a dry run)
     * @param cancelled true when the import was stopped: the counts are those of the batches written before
     * @param conflicts the conflicting rows, the first {@value #MAX_LISTED}
     * @param conflictsNotListed the conflicting rows past those
     * @param keptErrorsFile where an earlier import's errors file of this file, which this one would have replaced
     *     or removed, was kept (staff may have been correcting it); null when there was none or it was the same
     */
    public record Report(String file, String sha256, String encoding, boolean dryRun, boolean strict, long rows,
            long imported, long alreadyPresent, List<Conflict> conflicts, long rejectedRows, List<Rejected> rejected,
            long rejectedNotListed, boolean refused, String errorsFile, boolean cancelled, long conflictsNotListed,
            String keptErrorsFile) {
        public Report {
            conflicts = List.copyOf(conflicts);
            rejected = List.copyOf(rejected);
        }

        /** Every row imported or already present. */
        public boolean clean() {
            return !cancelled && rejectedRows == 0 && conflicts.isEmpty() && conflictsNotListed == 0;
        }

        /** Every conflicting row, listed or not. */
        public long conflictCount() {
            return conflicts.size() + conflictsNotListed;
        }
    }

    /** One of the first rows of a file, read by the field rules: its values by field, and the rules it breaks. */
    public record SampleRow(long line, Map<String, String> values, List<Rejected> rejected) {
        public SampleRow {
            values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
            rejected = List.copyOf(rejected);
        }
    }

    /**
     * What importing a file would do, before anything is written: the file's columns mapped to fields, its first
     * rows, and a dry run's report (counts of rows to import, already present, conflicting and rejected).
     */
    public record Preview(List<String> columns, List<SampleRow> sample, Report report) {
        public Preview {
            columns = List.copyOf(columns);
            sample = List.copyOf(sample);
        }
    }

    /** A file refused because it is UTF-8 text read as another encoding: the console names its own choice. */
    public static final class Utf8Text extends ClaimDeskException {
        Utf8Text(String fileName, String why, String charset) {
            super(fileName + " was not imported: it is UTF-8 text (" + why + "), not " + charset
                    + ": import it without --encoding");
        }
    }

    /** Thrown inside an import when its monitor asks it to stop while checking. */
    private static final class Stopped extends RuntimeException {
        Stopped() {
            super(null, null, false, false);
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

    /** Every column an import reads, required ones first: the columns {@link ClaimExport} writes. */
    public static List<String> columns() {
        List<String> columns = new ArrayList<>(requiredColumns());
        columns.addAll(optionalColumns());
        return List.copyOf(columns);
    }

    /**
     * Imports {@code file} as {@code actor}. A file-level problem (not readable, not in the encoding, not CSV, a
     * required column missing, an unknown column) is a {@link ClaimDeskException} with one message, and nothing
     * is imported.
     */
    public Report run(Path file, String actor, Options options) {
        return run(file, actor, options, Monitor.NONE);
    }

    /** {@link #run(Path, String, Options)}, telling {@code monitor} its progress and stopping when it asks. */
    public Report run(Path file, String actor, Options options, Monitor monitor) {
        String who = Inputs.actor(actor);
        LocalDate today = LocalDate.now(clock);
        Path errorsFile = options.dryRun() ? null : errorsFileOf(file);
        String name = file.getFileName().toString();
        Check check;
        try {
            check = check(file, options.charset(), today, errorsFile, monitor);
        } catch (Stopped stopped) {
            LOG.info("import of {} cancelled while checking: nothing imported", name);
            return new Report(name, null, options.charset().name(), options.dryRun(), options.strict(), 0, 0, 0,
                    List.of(), 0, List.of(), 0, false, null, true, 0, null);
        }
        List<Conflict> conflicts = new ArrayList<>();
        // imported, already present, conflicts not listed
        long[] counts = new long[3];
        boolean refused = options.strict() && check.rejectedRows > 0;
        boolean cancelled;
        try {
            cancelled = !refused && !load(file, options, today, who, check, conflicts, counts, monitor);
        } catch (ClaimDeskException e) {
            if (check.keptErrorsFile == null) {
                throw e;
            }
            String message = e.getMessage() + "; " + keptSentence(check.keptErrorsFile);
            throw e instanceof DatabaseException ? new DatabaseException(message, e) : new ClaimDeskException(message, e);
        }
        Report report = new Report(name, check.sha256, options.charset().name(), options.dryRun(), options.strict(),
                check.rows, counts[0], counts[1], conflicts, check.rejectedRows, check.rejected, check.notListed,
                refused, check.rejectedRows > 0 && errorsFile != null ? errorsFile.toString() : null, cancelled,
                counts[2], check.keptErrorsFile == null ? null : check.keptErrorsFile.toString());
        LOG.info("import of {} ({}){}: {} rows, {} imported, {} already present, {} conflicts, {} rejected{}{}",
                report.file(), report.sha256(), options.dryRun() ? " (dry run)" : "", report.rows(), report.imported(),
                report.alreadyPresent(), report.conflictCount(), report.rejectedRows(), refused ? ", refused (strict)" : "",
                cancelled ? ", cancelled" : "");
        return report;
    }

    /**
     * What importing {@code file} would do, writing nothing: its first {@code sampleRows} rows mapped to fields
     * and a dry run's report. A file-level problem is a {@link ClaimDeskException}, as for {@link #run}.
     */
    public Preview preview(Path file, String actor, Charset charset, int sampleRows, Monitor monitor) {
        LocalDate today = LocalDate.now(clock);
        List<SampleRow> sample = new ArrayList<>();
        Header header;
        try (CsvRows source = new CsvRows(file, charset == null ? StandardCharsets.UTF_8 : charset)) {
            header = Header.of(file, source.next());
            for (CsvRows.Row row = source.next(); row != null && sample.size() < sampleRows; row = source.next()) {
                sample.add(header.sample(row, today));
            }
        }
        Report report = run(file, actor, new Options(true, false, charset), monitor);
        return new Preview(header.columns(), sample, report);
    }

    // ---- the first pass: check the file, write the errors file ----

    private record Check(Header header, String sha256, long bytes, long rows, long rejectedRows,
            List<Rejected> rejected, long notListed, Path keptErrorsFile) {
    }

    private Check check(Path file, Charset charset, LocalDate today, Path errorsFile, Monitor monitor) {
        List<Rejected> rejected = new ArrayList<>();
        long rows = 0;
        long rejectedRows = 0;
        long notListed = 0;
        ErrorsFile errors = null;
        boolean done = false;
        try (CsvRows source = new CsvRows(file, charset)) {
            Header header = Header.of(file, source.next());
            for (CsvRows.Row row = source.next(); row != null; row = source.next()) {
                rows++;
                if (rows % BATCH_ROWS == 0) {
                    monitor.progress(new Progress(Phase.CHECKING, rows, source.bytesRead(), source.size(), 0));
                    if (monitor.cancelled()) {
                        throw new Stopped();
                    }
                }
                List<Rejected> broken = header.read(row, today).rejected();
                if (broken.isEmpty()) {
                    continue;
                }
                rejectedRows++;
                for (Rejected r : broken) {
                    if (rejected.size() < MAX_LISTED) {
                        rejected.add(r);
                    } else {
                        notListed++;
                    }
                }
                if (errorsFile != null) {
                    if (errors == null) {
                        errors = new ErrorsFile(errorsFile, header.written, header.names);
                    }
                    errors.write(row.values(), broken);
                }
            }
            Path kept = errorsFile == null ? null : keepEarlierErrorsFile(errorsFile);
            if (errors != null) {
                try {
                    errors.close();
                } catch (IOException | RuntimeException e) {
                    if (kept != null) {
                        putBack(kept, errorsFile, e);
                    }
                    throw e;
                }
                if (kept != null && Files.mismatch(kept, errorsFile) == -1) {
                    Files.delete(kept);
                    kept = null;
                }
            }
            done = true;
            return new Check(header, source.sha256(), source.size(), rows, rejectedRows, rejected, notListed, kept);
        } catch (IOException e) {
            throw new ClaimDeskException("cannot write the errors file " + errorsFile + ": " + IoErrors.describe(e), e);
        } finally {
            if (!done && errors != null) {
                errors.discard();
            }
        }
    }

    /**
     * Moves an errors file an earlier import left at {@code errorsFile} aside, to {@code FILE.errors.<its last
     * change>.csv}: staff correct an errors file where it stands, so a run that replaces it (or, with no row rejected,
     * would remove it) must not lose their corrections. Returns where it went, or null when there was none.
     */
    private static Path keepEarlierErrorsFile(Path errorsFile) throws IOException {
        String stamp;
        try {
            if (!Files.isRegularFile(errorsFile)) {
                return null;
            }
            stamp = KEPT_STAMP.format(Files.getLastModifiedTime(errorsFile).toInstant().atZone(ZoneId.systemDefault()));
        } catch (NoSuchFileException goneMeanwhile) {
            return null;
        }
        String name = errorsFile.getFileName().toString();
        String base = name.substring(0, name.length() - ".csv".length()) + "." + stamp;
        for (int n = 1; ; n++) {
            Path kept = errorsFile.resolveSibling(base + (n == 1 ? "" : "-" + n) + ".csv");
            try {
                Files.move(errorsFile, kept);
                LOG.info("an earlier errors file of this import was kept as {}", kept);
                return kept;
            } catch (FileAlreadyExistsException taken) {
                // another import of the same file kept one under that name: the next one
            } catch (NoSuchFileException goneMeanwhile) {
                // another import of the same file moved it aside first: that one reports it
                return null;
            }
        }
    }

    /** The earlier errors file back in place after this import's could not be written; a failure joins {@code e}. */
    private static void putBack(Path kept, Path errorsFile, Exception e) {
        try {
            Files.move(kept, errorsFile, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException notBack) {
            e.addSuppressed(notBack);
            LOG.warn("the earlier errors file kept as {} could not be put back as {}: {}", kept, errorsFile,
                    notBack.getMessage());
        }
    }

    /** What staff are told of an earlier errors file kept aside: "the errors file of an earlier import … was kept as X". */
    public static String keptSentence(Path kept) {
        return "the errors file of an earlier import of this file was kept as " + kept;
    }

    private static final DateTimeFormatter KEPT_STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    // ---- the second pass: write the valid rows in bounded transactions ----

    private static ClaimDeskException changedWhileImported(String name, long imported) {
        return new ClaimDeskException(name + " changed while it was imported; " + importedBefore(imported));
    }

    private static String importedBefore(long imported) {
        return imported + " claim(s) were imported before that: import the file again to complete it";
    }

    /**
     * {@code e}, which stopped an import after {@code imported} claims were committed, saying so (a refusal already
     * saying it as it is): staff import the file again, and the claims already in are counted as present.
     */
    private static RuntimeException withImported(RuntimeException e, long imported) {
        String more = importedBefore(imported);
        if (String.valueOf(e.getMessage()).endsWith(more)) {
            return e;
        }
        if (e instanceof org.jdbi.v3.core.JdbiException) {
            // a refusal no sentence of the store's names (a deadlock, the server ending an idle session): its first line
            return new DatabaseException("the import stopped: " + DatabaseException.reasonOf(e) + "; " + more, e);
        }
        if (!(e instanceof ClaimDeskException)) {
            return e;
        }
        String message = e.getMessage() + "; " + more;
        return e instanceof DatabaseException ? new DatabaseException(message, e) : new ClaimDeskException(message, e);
    }

    private record Valid(long line, ClaimDraft draft) {
    }

    /** Writes the valid rows; false when the monitor stopped it (the batches written stay). */
    private boolean load(Path file, Options options, LocalDate today, String actor, Check check,
            List<Conflict> conflicts, long[] counts, Monitor monitor) {
        String name = file.getFileName().toString();
        List<Valid> batch = new ArrayList<>(BATCH_ROWS);
        boolean cancelled = false;
        boolean begun = false;
        long committed = 0;
        try (CsvRows source = new CsvRows(file, options.charset(), false);
                BatchWriter writer = options.dryRun() ? null : BatchWriter.open(database);
                SeenKeys seenDry = options.dryRun() ? SeenKeys.open(database) : null) {
            // a header changed since the check (columns swapped, say) would put every row's values in other fields
            CsvRows.Row header = source.next();
            if (header == null || !Arrays.equals(header.values(), check.header.written)) {
                throw changedWhileImported(name, counts[0]);
            }
            long rows = 0;
            for (CsvRows.Row row = source.next(); row != null; row = source.next()) {
                if (++rows % BATCH_ROWS == 0) {
                    monitor.progress(new Progress(Phase.IMPORTING, rows, source.bytesRead(), source.size(),
                            counts[0]));
                    if (monitor.cancelled()) {
                        cancelled = true;
                        batch.clear();
                        break;
                    }
                }
                Parsed parsed = check.header.read(row, today);
                if (parsed.draft() == null) {
                    continue;
                }
                batch.add(new Valid(row.line(), parsed.draft()));
                if (batch.size() == BATCH_ROWS) {
                    // an import of several batches is audited as it begins, with its first batch: one stopped
                    // halfway (killed, the power cut) leaves no claim of it without an entry
                    flush(writer, batch, name, actor, options, check.header.fields(), seenDry, conflicts, counts,
                            null, begun ? null : auditDetails(name, options, check));
                    begun = true;
                    committed = counts[0];
                    batch.clear();
                }
            }
            if (!cancelled && !source.sha256().equals(check.sha256)) {
                throw changedWhileImported(name, counts[0]);
            }
            Map<String, Object> details = auditDetails(name, options, check);
            if (cancelled) {
                details.put("cancelled", true);
            }
            flush(writer, batch, name, actor, options, check.header.fields(), seenDry, conflicts, counts, details, null);
            committed = -1;
        } catch (RuntimeException e) {
            // committed is -1 once the last batch and its audit entry are in: closing a resource may still fail
            if (!options.dryRun() && committed > 0) {
                auditStopped(name, options, actor, check, committed, e);
                throw withImported(e, committed);
            }
            throw e;
        }
        if (!cancelled) {
            monitor.progress(new Progress(Phase.IMPORTING, check.rows, check.bytes, check.bytes, counts[0]));
        }
        return !cancelled;
    }

    /** What every import's audit entry says of the file and its check, the counts of its writing aside. */
    private static Map<String, Object> auditDetails(String name, Options options, Check check) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("file", name);
        details.put("sha256", check.sha256);
        details.put("encoding", options.charset().name());
        details.put("strict", options.strict());
        details.put("rows", check.rows);
        details.put("rejectedRows", check.rejectedRows);
        if (check.keptErrorsFile != null) {
            details.put("keptErrorsFile", check.keptErrorsFile.getFileName().toString());
        }
        return details;
    }

    /**
     * The audit entry of an import that stopped on an error after some of its batches were committed (the file
     * changed, the database failed): the claims it wrote, and why it stopped. Written in a transaction of its own;
     * when that fails too, the log says so and the error that stopped the import is the one reported.
     */
    private void auditStopped(String name, Options options, String actor, Check check, long imported,
            RuntimeException stoppedBy) {
        Map<String, Object> details = auditDetails(name, options, check);
        details.put("imported", imported);
        details.put("stopped", stoppedBy.getMessage());
        try {
            database.inTransaction(h -> {
                audit.append(h, clock.instant(), actor, AuditActions.CLAIMS_IMPORT, AuditActions.SUBJECT_IMPORT,
                        check.sha256, "import of " + name + ", stopped after " + imported + " claim(s)",
                        Json.write(details));
                return null;
            });
        } catch (RuntimeException e) {
            stoppedBy.addSuppressed(e);
            LOG.warn("the import of {} stopped after {} claim(s) and its audit entry could not be written: {}", name,
                    imported, e.getMessage());
        }
    }

    /**
     * Writes one batch in one transaction (a dry run only reads); with {@code auditDetails} (the last batch), the
     * import's audit entry too, and with {@code beginDetails} (the first of several) the entry saying it began. Each row is looked up by its key among the claims present, then among the rows of
     * the batch before it: a row repeating a claim present or an earlier row is already present or a conflict. A dry
     * run remembers the rows it counted by key and fingerprint in a temporary table ({@link SeenKeys}), not in the
     * heap.
     */
    private void flush(BatchWriter writer, List<Valid> batch, String fileName, String actor, Options options, List<ClaimField<?>> fields,
            SeenKeys seenDry, List<Conflict> conflicts, long[] counts, Map<String, Object> auditDetails,
            Map<String, Object> beginDetails) {
        if (options.dryRun()) {
            database.read(h -> {
                List<ClaimKey> keys = batch.stream().map(v -> v.draft.key()).toList();
                Map<ClaimKey, List<Claim>> present = claims.findByKeys(h, keys);
                Map<ClaimKey, long[]> earlierBatches = seenDry.find(keys);
                Map<ClaimKey, long[]> counted = new LinkedHashMap<>();
                for (Valid v : batch) {
                    ClaimKey key = v.draft.key();
                    long[] earlier = earlierBatches.containsKey(key) ? earlierBatches.get(key) : counted.get(key);
                    if (present.containsKey(key)) {
                        classify(v, present.get(key), fields, conflicts, counts);
                    } else if (earlier != null) {
                        classify(v, v.draft.differences(earlier, fields), "(an earlier row of this file)", conflicts,
                                counts);
                    } else {
                        counted.put(key, v.draft.fingerprint());
                        counts[0]++;
                    }
                }
                seenDry.add(counted);
                return null;
            });
            return;
        }
        Instant now = clock.instant();
        int year = LocalDate.ofInstant(now, clock.getZone()).getYear();
        writer.inTransaction(h -> {
            claims.lockNewClaims(h);
            Map<ClaimKey, List<Claim>> present = claims.findByKeys(h, batch.stream().map(v -> v.draft.key()).toList());
            Map<ClaimKey, Valid> created = new LinkedHashMap<>();
            List<Valid> repeats = new ArrayList<>();
            for (Valid v : batch) {
                ClaimKey key = v.draft.key();
                if (present.containsKey(key)) {
                    classify(v, present.get(key), fields, conflicts, counts);
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
            if (beginDetails != null) {
                audit.append(h, now, actor, AuditActions.CLAIMS_IMPORT_BEGIN, AuditActions.SUBJECT_IMPORT,
                        (String) beginDetails.get("sha256"), "import of " + fileName + " begun; its claims come in"
                                + " batches of " + BATCH_ROWS, Json.write(beginDetails));
            }
            if (auditDetails != null) {
                auditDetails.put("imported", counts[0]);
                auditDetails.put("alreadyPresent", counts[1]);
                auditDetails.put("conflicts", conflicts.size() + counts[2]);
                audit.append(h, now, actor, AuditActions.CLAIMS_IMPORT, AuditActions.SUBJECT_IMPORT,
                        (String) auditDetails.get("sha256"), "import of " + fileName, Json.write(auditDetails));
            }
            return null;
        });
    }

    /**
     * A row whose key claims present share: already present when one of them has its values, else a conflict with
     * the oldest.
     */
    private static void classify(Valid v, List<Claim> present, List<ClaimField<?>> fields, List<Conflict> conflicts,
            long[] counts) {
        for (Claim claim : present) {
            List<String> differ = v.draft.differences(claim, fields);
            if (differ.isEmpty()) {
                classify(v, differ, claim.claimNumber(), conflicts, counts);
                return;
            }
        }
        classify(v, v.draft.differences(present.get(0), fields), present.get(0).claimNumber(), conflicts, counts);
    }

    private static void classify(Valid v, List<String> differ, String claimNumber, List<Conflict> conflicts,
            long[] counts) {
        if (differ.isEmpty()) {
            counts[1]++;
        } else {
            if (conflicts.size() < MAX_LISTED) {
                conflicts.add(new Conflict(v.line, claimNumber, differ));
            } else {
                counts[2]++;
            }
        }
    }

    // ---- reading ----


    /** A row read by the field rules: its draft, or the rules it breaks. */
    private record Parsed(ClaimDraft draft, List<Rejected> rejected) {
    }

    /** The header: each column's field name (or the errors file's own column). */
    private static final class Header {
        /**
         * Each column's field name, {@value #ERROR_COLUMN}, or {@value #UNNAMED} for a column without a name (a
         * spreadsheet saves empty columns after the last one used): ignored, but a value under it rejects its row.
         */
        final String[] names;
        /** The header as the file writes it. */
        final String[] written;

        /** The columns matched to their fields once, for reading every row. */
        private final ClaimDraft.Columns columns;

        private Header(String[] names, String[] written) {
            this.names = names;
            this.written = written;
            List<ClaimField<?>> fields = new ArrayList<>(names.length);
            for (String n : names) {
                fields.add(ClaimField.byName(n).orElse(null));
            }
            this.columns = new ClaimDraft.Columns(fields);
        }

        static Header of(Path file, CsvRows.Row row) {
            String name = file.getFileName().toString();
            if (row == null) {
                throw new ClaimDeskException(name + " is empty: a claims file starts with a header row naming its"
                        + " columns (" + String.join(", ", requiredColumns()) + " are required)");
            }
            String[] names = new String[row.values().length];
            List<String> unknown = new ArrayList<>();
            List<String> repeated = new ArrayList<>();
            Map<String, Boolean> seen = new HashMap<>();
            for (int i = 0; i < names.length; i++) {
                String written = row.values()[i].strip();
                Optional<ClaimField<?>> field = ClaimField.byName(written);
                names[i] = field.map(ClaimField::name).orElse(written.equalsIgnoreCase(ERROR_COLUMN) ? ERROR_COLUMN
                        : written.isEmpty() ? UNNAMED : null);
                if (names[i] == null) {
                    unknown.add(shownName(written, i));
                } else if (!names[i].equals(UNNAMED) && seen.put(names[i], true) != null) {
                    repeated.add(written);
                }
            }
            if (seen.isEmpty()) {
                // a file of data without its header row: its first row holds a claim, which no message repeats
                throw new ClaimDeskException(name + " was not imported: its first row names no claim column, so it is"
                        + " not a header row; a claims file starts with one (required: "
                        + String.join(", ", requiredColumns()) + "; optional: " + String.join(", ", optionalColumns())
                        + "; see docs/import.md)");
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
            return new Header(names, row.values());
        }

        /**
         * An unknown column's name as a message shows it: a name that looks like a value (digits in it, or long) is
         * not repeated, since a row of data given as the header would put a tax id or a claimant's details there.
         */
        private static String shownName(String written, int index) {
            long digits = written.chars().filter(Character::isDigit).count();
            if (digits > 2 || written.length() > 40 || !Character.isLetter(written.charAt(0))) {
                return "(column " + (index + 1) + ", whose name looks like a value and is not shown)";
            }
            return written;
        }

        /** The claim fields the file has columns for: a row is compared with a claim present on these only. */
        List<ClaimField<?>> fields() {
            List<ClaimField<?>> fields = new ArrayList<>();
            for (String n : names) {
                ClaimField.byName(n).ifPresent(fields::add);
            }
            return fields;
        }

        /** The fields the file's columns map to, in the file's order (the errors file's own column left out). */
        List<String> columns() {
            return Arrays.stream(names).filter(n -> !n.equals(ERROR_COLUMN) && !n.equals(UNNAMED)).toList();
        }

        /**
         * The row's values, padded with blanks when it lacks only columns with no name (a header saved with empty
         * columns after the last, rows typed without them); else as they are.
         */
        private String[] values(CsvRows.Row row) {
            String[] values = row.values();
            if (values.length >= names.length) {
                return values;
            }
            for (int i = values.length; i < names.length; i++) {
                if (!names[i].equals(UNNAMED)) {
                    return values;
                }
            }
            String[] padded = Arrays.copyOf(values, names.length);
            Arrays.fill(padded, values.length, names.length, "");
            return padded;
        }

        SampleRow sample(CsvRows.Row row, LocalDate today) {
            Map<String, String> values = new LinkedHashMap<>();
            String[] given = values(row);
            // a row of another width (an unquoted comma in a name) has its values under other columns: a tax id
            // would show whole under another field, so such a row shows its reason only
            for (int i = 0; i < names.length && given.length == names.length; i++) {
                if (!names[i].equals(ERROR_COLUMN) && !names[i].equals(UNNAMED)) {
                    values.put(names[i], ClaimField.byName(names[i]).map(ClaimField::personal).orElse(false)
                            ? TaxIds.mask(given[i]) : given[i]);
                }
            }
            return new SampleRow(row.line(), values, read(row, today).rejected());
        }

        Parsed read(CsvRows.Row row, LocalDate today) {
            String[] given = values(row);
            if (given.length != names.length) {
                return new Parsed(null, List.of(new Rejected(row.line(), WHOLE_ROW, "has " + given.length
                        + " value(s) but the header has " + names.length + " column(s)")));
            }
            for (int i = 0; i < names.length; i++) {
                if (names[i].equals(UNNAMED) && !given[i].isBlank()) {
                    return new Parsed(null, List.of(new Rejected(row.line(), WHOLE_ROW, "has a value under column "
                            + (i + 1) + ", which has no name in the header: name that column, or clear it")));
                }
            }
            ClaimDraft.Read read = columns.read(given, today);
            if (read.isOk()) {
                return new Parsed(read.draft(), List.of());
            }
            List<Rejected> rejected = new ArrayList<>();
            for (FieldViolation v : read.violations()) {
                rejected.add(new Rejected(row.line(), v.field(), v.rule()));
            }
            return new Parsed(null, rejected);
        }
    }


}
