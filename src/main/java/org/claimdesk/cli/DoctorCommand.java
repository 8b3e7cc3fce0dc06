package org.claimdesk.cli;

import java.time.Duration;
import java.util.concurrent.Callable;
import org.claimdesk.app.Doctor;
import org.claimdesk.store.Database;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "doctor", description = "Check the database: integrity (a file) or the server's version, pg_trgm,"
        + " TLS, login role, grants and other connections (a team database); the schema's triggers and tallies,"
        + " orphaned rows, expired leases, stuck rows, the workflow's records and the evidence files; every check is"
        + " in docs/operations.md (Health check). Exit 0 when healthy (warnings allowed), 1 when a check fails.")
final class DoctorCommand extends CliSupport implements Callable<Integer> {
    @Option(names = "--stuck-after-hours", defaultValue = "24", paramLabel = "H",
            description = "A pending row due this long and not taken by a worker is reported as stuck"
                    + " (default ${DEFAULT-VALUE}).")
    long stuckAfterHours;

    @Option(names = "--json", description = "The report as JSON.")
    boolean json;

    @Option(names = "--all-evidence", description = "Look for every evidence file a row records, not only the newest "
            + Doctor.EVIDENCE_SAMPLE + " (after the evidence folder was restored).")
    boolean allEvidence;

    @Override
    public Integer call() {
        if (stuckAfterHours < 1) {
            throw new UsageException("--stuck-after-hours must be at least 1");
        }
        try (Database db = openDatabase()) {
            Duration stuck = Duration.ofHours(stuckAfterHours);
            TerminalProgress line = TerminalProgress.onTerminal(err());
            Doctor.Report report;
            try {
                // each check's name as it begins: a file's integrity alone reads the whole file (40 s at a million claims)
                report = (allEvidence ? Doctor.everyEvidenceFile(db, clock(db), stuck)
                        : new Doctor(db, clock(db), stuck)).examine(check -> line.step("doctor: checking " + check + "…"));
            } finally {
                line.clear();
            }
            if (json) {
                printJson(report);
            } else {
                out().printf("ClaimDesk doctor: %s (schema version %d)%n", report.database(), report.schemaVersion());
                for (Doctor.Finding f : report.findings()) {
                    out().printf("  %-4s %-10s %s%n", f.level(), f.check(), f.message());
                }
                out().println(report.healthy() ? "healthy" : "problems found");
            }
            return report.healthy() ? 0 : ClaimDeskCommand.EXIT_REFUSED;
        }
    }
}
