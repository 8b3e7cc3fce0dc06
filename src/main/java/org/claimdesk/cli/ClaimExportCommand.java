package org.claimdesk.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.claimdesk.app.ClaimExport;
import org.claimdesk.app.Queries;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.Database;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code claims export --to FILE}: the claims {@code claims list} selects, in the import's format. */
@Command(name = "export", description = {
    "Write the claims the filters select (those of claims list) to a CSV file.",
    "The file is in the import's format (docs/import.md), UTF-8. Tax ids are masked to their last four digits: such a file is for reading, and an",
    "import rejects its rows at taxId. With --include-tax-id (and --actor, --reason) tax ids are written whole,",
    "the export is audited, and the file imports into another database as it is. The file is owner-only."})
final class ClaimExportCommand extends CliSupport implements Callable<Integer> {
    @Option(names = "--to", required = true, paramLabel = "FILE", description = "The CSV file to write.")
    Path to;

    @Option(names = "--replace", description = "Write over FILE if it exists (refused otherwise).")
    boolean replace;

    @Mixin
    ClaimFilterOptions filter;

    @Option(names = "--include-tax-id", description = "Write tax ids whole (audited; needs --actor and --reason).")
    boolean includeTaxId;

    @Option(names = "--actor", paramLabel = "NAME", description = "Who exports tax ids.")
    String actor;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why tax ids are exported.")
    String reason;

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    @Override
    public Integer call() {
        if (!includeTaxId && (actor != null || reason != null)) {
            throw new UsageException("--actor and --reason go with --include-tax-id: an export without tax ids"
                    + " is not audited");
        }
        if (includeTaxId && (actor == null || actor.isBlank() || reason == null || reason.isBlank())) {
            throw new UsageException("--include-tax-id needs --actor and --reason: an export of whole tax ids is"
                    + " audited");
        }
        ClaimExport.Result result;
        ClaimQuery criteria = filter.criteria();
        TerminalProgress line = TerminalProgress.onTerminal(err());
        try (Database db = openDatabase()) {
            result = new ClaimExport(db, clock(db)).run(to, filter.asOf(criteria, new Queries(db, clock(db)).today()),
                    includeTaxId ? ClaimExport.TaxIds.included(actor, reason) : ClaimExport.TaxIds.masked(), replace,
                    written -> line.show(String.format("exporting: %,d claims written", written)));
        } catch (ClaimExport.FileExists exists) {
            throw new ClaimDeskException(to + " already exists: choose another name, or give --replace to write over it");
        } finally {
            line.clear();
        }
        if (json) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("file", result.file());
            out.put("claims", result.claims());
            out.put("taxIds", result.taxIds() ? "included" : "masked");
            printJson(out);
        } else {
            out().printf("exported %d claim(s) to %s (%s)%n", result.claims(), result.file(),
                    result.taxIds() ? "tax ids included, audited" : "tax ids masked: for reading, not for import");
        }
        out().flush();
        return ClaimDeskCommand.EXIT_OK;
    }
}
