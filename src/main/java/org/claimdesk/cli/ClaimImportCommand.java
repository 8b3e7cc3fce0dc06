package org.claimdesk.cli;

import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.claimdesk.app.ClaimImport;
import org.claimdesk.store.Database;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code claims import FILE}: claims from a CSV file, row by row, as docs/import.md describes. */
@Command(name = "import", description = {
    "Import claims from a CSV file with a header row (docs/import.md lists the columns and their rules).",
    "Valid rows are imported and invalid ones reported by line, column and reason, and written to FILE.errors.csv",
    "with an error column (correct it and import it). A row whose jurisdiction, state property id and claimant match",
    "a claim present is skipped: already present when its fields are equal, a conflict when they differ.",
    "Importing the same file again changes nothing. Exit 0 when every row is imported or already present, else 1."})
final class ClaimImportCommand extends CliSupport implements Callable<Integer> {
    @Parameters(paramLabel = "FILE", description = "The CSV file.")
    Path file;

    @Option(names = "--actor", required = true, paramLabel = "NAME", description = "Who imports.")
    String actor;

    @Option(names = "--dry-run", description = "Check and report only: nothing is written, no errors file either.")
    boolean dryRun;

    @Option(names = "--strict", description = "Import nothing if any row is invalid.")
    boolean strict;

    @Option(names = "--encoding", paramLabel = "CHARSET",
            description = "The file's encoding: UTF-8 (default, with or without a byte order mark) or e.g."
                    + " windows-1252 for Excel's plain \"CSV\" on Windows.")
    String encoding;

    @Option(names = "--json", description = "Print the report as JSON.")
    boolean json;

    @Override
    public Integer call() {
        ClaimImport.Options options = new ClaimImport.Options(dryRun, strict, charset(encoding));
        if (!java.nio.file.Files.isRegularFile(file)) {
            // before a new desk's file is made for nothing
            throw new org.claimdesk.domain.ClaimDeskException("no file " + file + " to import"
                    + (java.nio.file.Files.isDirectory(file) ? " (it is a folder)" : "") + "; nothing was imported");
        }
        ClaimImport.Report report;
        TerminalProgress line = TerminalProgress.onTerminal(err());
        try (Database db = dryRun ? openDatabase() : openOrCreateDatabase()) {
            report = new ClaimImport(db, clock(db)).run(file, actor, options, new ClaimImport.Monitor() {
                @Override
                public void progress(ClaimImport.Progress p) {
                    line.show(String.format("%s %,d rows, %d%%", p.phase() == ClaimImport.Phase.CHECKING ? "checking"
                            : "importing", p.rows(), Math.round(p.fraction() * 100)));
                }
            });
        } finally {
            line.clear();
        }
        if (json) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("file", report.file());
            out.put("sha256", report.sha256());
            out.put("dryRun", report.dryRun());
            out.put("strict", report.strict());
            out.put("rows", report.rows());
            out.put("imported", report.imported());
            out.put("alreadyPresent", report.alreadyPresent());
            out.put("conflicts", report.conflicts());
            out.put("conflictsNotListed", report.conflictsNotListed());
            out.put("rejectedRows", report.rejectedRows());
            out.put("rejected", report.rejected());
            out.put("rejectedNotListed", report.rejectedNotListed());
            out.put("refused", report.refused());
            out.put("errorsFile", report.errorsFile());
            out.put("keptErrorsFile", report.keptErrorsFile());
            printJson(out);
        } else {
            report.rejected().forEach(r -> out().printf("line %d, %s: %s%n", r.line(), r.column(), r.reason()));
            if (report.rejectedNotListed() > 0) {
                out().printf("... and %d more broken rule(s): every rejected row is in the errors file%n",
                        report.rejectedNotListed());
            }
            report.conflicts().forEach(c -> out().printf("line %d: conflicts with claim %s (differs in %s); claim left"
                    + " as it is%n", c.line(), c.claimNumber(), String.join(", ", c.fields())));
            if (report.conflictsNotListed() > 0) {
                out().printf("... and %d more conflicting row(s)%n", report.conflictsNotListed());
            }
            String verb = report.dryRun() ? "would import" : "imported";
            if (report.refused()) {
                out().printf("%s: nothing imported: %d of %d row(s) are invalid and --strict was given%n",
                        report.file(), report.rejectedRows(), report.rows());
            } else {
                out().printf("%s: %s %d, already present %d, conflicts %d, rejected %d (of %d row(s))%n",
                        report.file(), verb, report.imported(), report.alreadyPresent(), report.conflictCount(),
                        report.rejectedRows(), report.rows());
            }
            if (report.errorsFile() != null) {
                out().printf("rejected rows written to %s: correct them there and import that file%n",
                        report.errorsFile());
            }
            if (report.keptErrorsFile() != null) {
                out().println(ClaimImport.keptSentence(Path.of(report.keptErrorsFile())));
            }
        }
        out().flush();
        return report.clean() ? ClaimDeskCommand.EXIT_OK : ClaimDeskCommand.EXIT_REFUSED;
    }

    static Charset charset(String name) {
        if (name == null || name.isBlank()) {
            return null;
        }
        try {
            return Charset.forName(name.strip());
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            throw new UsageException("unknown encoding " + name + "; use UTF-8 or " + ClaimImport.WINDOWS_1252);
        }
    }
}
