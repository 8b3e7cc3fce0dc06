package org.claimdesk.app;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.store.AuditStore;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.Json;
import org.jdbi.v3.core.Handle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exporting the claims a filter of {@code claims list} selects, in the import's format (docs/import.md): a header
 * with {@link ClaimImport#columns()} and one row per claim, each value as its field's rule reads it back. Claims are
 * read in pages of {@value #PAGE_SIZE} by claim id and written as they are read, never held whole, all of them (and
 * the audited count) from one {@linkplain Database#snapshot snapshot}: the file holds the claims as they stood when
 * the export began, whatever staff or the worker change meanwhile.
 *
 * <p>Without tax ids the {@code taxId} column holds the masked tax id (last four digits): such a file is for reading,
 * and an import rejects its rows at {@code taxId}. With tax ids the export needs a reason and is one audit entry
 * (who, why, the file's name, the filters, how many claims matched them when it began), written before the first tax
 * id is: an export cut off midway, even killed, is in the audit trail. The file is a {@link CsvFile}: owner-only,
 * written next to its target and moved into place, so a failed export leaves no half file (a killed one leaves its
 * owner-only partial file, which the next export to that file removes).
 *
 * <p>Values are written exactly, but for the fields that refuse a formula ({@link ClaimField#refusesFormulas}: the
 * names, the address, the email): a value of theirs starting with {@code = + - @} (a claim stored before that rule)
 * gets the apostrophe the console's exports put before such values, so that a spreadsheet does not run it; refused on
 * import either way, nothing that imports is changed. Elsewhere the apostrophe would become part of the value on
 * import (a phone {@code +1 ...} would be rejected), so the file would no longer import back.
 */
public final class ClaimExport {
    private static final Logger LOG = LoggerFactory.getLogger(ClaimExport.class);
    public static final int PAGE_SIZE = 1_000;

    private final Database database;
    private final Clock clock;
    private final ClaimStore claims = new ClaimStore();
    private final AuditStore audit = new AuditStore();

    public ClaimExport(Database database, Clock clock) {
        this.database = database;
        this.clock = clock;
    }

    /**
     * Who exports tax ids whole, and why; {@link #masked()} for an export without them.
     */
    public record TaxIds(boolean include, String actor, String reason) {
        public static TaxIds masked() {
            return new TaxIds(false, null, null);
        }

        public static TaxIds included(String actor, String reason) {
            return new TaxIds(true, actor, reason);
        }
    }

    /** What was written: the file, how many claims, whether with tax ids whole. */
    public record Result(String file, long claims, boolean taxIds) {
    }

    public Result run(Path target, ClaimQuery filter, TaxIds taxIds) {
        return run(target, filter, taxIds, written -> { });
    }

    /** An export refused because its file exists and replacing it was not asked for; nothing was written. */
    public static final class FileExists extends ClaimDeskException {
        private final Path file;

        FileExists(Path file) {
            super(file + " already exists; an export replaces a file only when asked to");
            this.file = file;
        }

        public Path file() {
            return file;
        }
    }

    /** {@link #run(Path, ClaimQuery, TaxIds, boolean, LongConsumer)} replacing an existing file. */
    public Result run(Path target, ClaimQuery filter, TaxIds taxIds, LongConsumer progress) {
        return run(target, filter, taxIds, true, progress);
    }

    /**
     * {@link #run(Path, ClaimQuery, TaxIds)}, telling {@code progress} the claims written after each page; an existing
     * {@code target} is refused ({@link FileExists}) unless {@code replace}. The desk's own database is refused always.
     */
    public Result run(Path target, ClaimQuery filter, TaxIds taxIds, boolean replace, LongConsumer progress) {
        return run(target, filter, taxIds, replace, progress, () -> false);
    }

    /** An export stopped by staff: no file was written (the partial one is removed). */
    public static final class Cancelled extends ClaimDeskException {
        Cancelled(Path target) {
            super("the export to " + target.getFileName() + " was cancelled: no file was written");
        }
    }

    /**
     * As {@link #run(Path, ClaimQuery, TaxIds, boolean, LongConsumer)}, stopped after the page under way when
     * {@code cancelled} says so ({@link Cancelled}): the partial file is removed, the target left as it was.
     */
    public Result run(Path target, ClaimQuery filter, TaxIds taxIds, boolean replace, LongConsumer progress,
            java.util.function.BooleanSupplier cancelled) {
        String actor = taxIds.include() ? Inputs.actor(taxIds.actor()) : null;
        String reason = taxIds.include() ? Inputs.reason(taxIds.reason(), true) : null;
        if (Files.isDirectory(target)) {
            throw new ClaimDeskException(target + " is a folder: give the file to write");
        }
        if (database.location() instanceof DatabaseLocation.SqliteFile desk && isDatabaseFile(target, desk.file())) {
            throw new ClaimDeskException(target + " is this desk's database or one of its files: an export must not"
                    + " replace it; choose another name");
        }
        if (!replace && Files.exists(target)) {
            throw new FileExists(target);
        }
        Path parent = target.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new ClaimDeskException("no folder " + parent + " to write " + target.getFileName() + " in");
        }
        long count;
        try (CsvFile csv = CsvFile.create(target, ClaimImport.columns(), CsvFile.Guard.NONE)) {
            // one state of the claims for every page and the audited count, whatever other staff or the worker
            // commit meanwhile
            count = database.snapshot(h -> {
                if (taxIds.include()) {
                    audited(h, target, filter, actor, reason);
                }
                return write(h, csv, filter, taxIds.include(), written -> {
                    progress.accept(written);
                    if (cancelled.getAsBoolean()) {
                        throw new Cancelled(target);
                    }
                });
            });
            csv.finish();
        } catch (UncheckedIOException e) {
            throw new ClaimDeskException(e.getMessage(), e);
        }
        LOG.info("exported {} claim(s) to {}{}", count, target.getFileName(),
                taxIds.include() ? " with tax ids, by " + actor : " (tax ids masked)");
        return new Result(target.toString(), count, taxIds.include());
    }

    /** Whether {@code target} is the desk's database file, or its write-ahead log, shared memory or journal. */
    static boolean isDatabaseFile(Path target, Path database) {
        Path file = target.toAbsolutePath().normalize();
        for (String suffix : new String[] {"", "-wal", "-shm", "-journal"}) {
            Path own = database.resolveSibling(database.getFileName() + suffix);
            if (file.equals(own)) {
                return true;
            }
            try {
                if (Files.exists(file) && Files.exists(own) && Files.isSameFile(file, own)) {
                    return true;
                }
            } catch (java.io.IOException e) {
                // a file that cannot be compared is not taken for the database: its path differs
            }
        }
        return false;
    }

    private long write(Handle h, CsvFile csv, ClaimQuery filter, boolean includeTaxIds, LongConsumer progress) {
        List<ClaimField<?>> fields = ClaimImport.columns().stream()
                .<ClaimField<?>>map(c -> ClaimField.byName(c).orElseThrow()).toList();
        long after = 0;
        while (true) {
            long from = after;
            List<Claim> page = claims.listAfter(h, filter, from, PAGE_SIZE);
            for (Claim claim : page) {
                String[] row = new String[fields.size()];
                for (int i = 0; i < row.length; i++) {
                    ClaimField<?> field = fields.get(i);
                    row[i] = field.personal() && !includeTaxIds ? field.shown(field.valueOf(claim))
                            : field.refusesFormulas() ? CsvFile.neutralised(field.textOf(claim)) : field.textOf(claim);
                }
                csv.row(row);
            }
            progress.accept(csv.rows());
            if (page.size() < PAGE_SIZE) {
                return csv.rows();
            }
            after = page.get(page.size() - 1).claimId();
        }
    }

    /** The export's audit entry, with the number of claims its filters select in the export's snapshot {@code h}. */
    private void audited(Handle h, Path target, ClaimQuery filter, String actor, String reason) {
        long matching = claims.count(h, filter);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("file", target.getFileName().toString());
        details.put("claims", matching);
        Map<String, Object> filters = new LinkedHashMap<>();
        filters.put("statuses", filter.statuses().stream().map(Enum::name).sorted().toList());
        filters.put("jurisdiction", filter.jurisdiction());
        filters.put("search", filter.search());
        filters.put("overdueOn", filter.overdueOn() == null ? null : filter.overdueOn().toString());
        details.put("filters", filters);
        database.useTransaction(w -> audit.append(w, clock.instant(), actor, AuditActions.CLAIMS_EXPORT_TAX_IDS,
                AuditActions.SUBJECT_EXPORT, target.getFileName().toString(), reason, Json.write(details)));
    }
}
