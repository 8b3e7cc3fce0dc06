package org.claimdesk.cli;

import java.nio.file.Path;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.claimdesk.app.Backup;
import org.claimdesk.domain.EvidenceRules;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseCopy;
import org.claimdesk.store.Migrations;
import org.claimdesk.store.PostgresDump;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "backup", description = {"Write a consistent copy of the database while ClaimDesk keeps running"
        + " (restore: see docs/operations.md); on a team database, print the pg_dump command to run.",
    "--check reads a backup file or a team database's dump (pg_dump -Fc or -Fp) to its end, without a PostgreSQL"
        + " client: exit 0 when it is whole, 1 with the reason when not."})
final class BackupCommand extends CliSupport implements Callable<Integer> {
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    @ArgGroup(exclusive = true, multiplicity = "1")
    Action action;

    static final class Action {
        @Option(names = "--to", paramLabel = "FILE", description = "The new backup file (must not exist).")
        Path to;

        @Option(names = "--check", paramLabel = "FILE", description = "Check a backup file or a pg_dump dump.")
        Path check;
    }

    @Override
    public Integer call() {
        if (action.check != null) {
            check(action.check.toAbsolutePath().normalize());
            return 0;
        }
        try (Database db = openDatabase()) {
            TerminalProgress line = TerminalProgress.onTerminal(err());
            Backup.Result result;
            try {
                result = new Backup(db).to(action.to, new Backup.Progress() {
                    @Override
                    public void copied(long bytes, long aboutBytes) {
                        line.show("backup: " + EvidenceRules.size(bytes) + " of about " + EvidenceRules.size(aboutBytes)
                                + " copied");
                    }

                    @Override
                    public void checking() {
                        line.step("backup: checking the copy…");
                    }
                });
            } finally {
                line.clear();
            }
            if (result.auditRefusal() != null) {
                err().println("warning: this backup is not in the audit trail (its entry could not be written: "
                        + result.auditRefusal() + ")");
                err().flush();
            }
            out().printf("backup written to %s: %d claims, %,d bytes, %d ms, integrity check passed%n", result.file(),
                    result.claims(), result.bytes(), result.millis());
            if (result.evidence().files() > 0) {
                out().printf("evidence files are not in this copy: back up %s as well (%,d file(s), %s)%n",
                        result.evidenceFolder(), result.evidence().files(), EvidenceRules.size(result.evidence().bytes()));
            }
        }
        return 0;
    }

    private void check(Path file) {
        if (Backup.isCopy(file)) {
            // SQLite's quick check reads the whole copy (12 s for a 2.3 GB copy of 1,000,000 claims)
            DatabaseCopy.Summary copy = shownWhile("backup: checking " + file.getFileName()
                    + " (SQLite's quick check, then its rows counted)…", () -> Backup.checkCopy(file));
            out().printf("backup %s: a workstation's database, SQLite's integrity check passed%n", file);
            printContents(copy.schemaVersion(), copy.rows());
            out().printf("backup check passed: %,d claims%n", copy.claims());
        } else {
            checkDump(file);
        }
        // said of a file found to be a backup: it holds every tax id whole
        Backup.readableByOthers(file).ifPresent(permissions -> {
            err().printf("warning: %s can be read by other users of this machine (%s), and it holds every claim's tax"
                    + " id whole: make it owner-only (chmod 600)%n", file, permissions);
            err().flush();
        });
    }

    /** {@code check}'s result, {@code step} shown at a terminal while it runs. */
    private <T> T shownWhile(String step, java.util.function.Supplier<T> check) {
        TerminalProgress line = TerminalProgress.onTerminal(err());
        try {
            line.step(step);
            return check.get();
        } finally {
            line.clear();
        }
    }

    /** A backup's or a dump's schema version against this build's, and the rows of each table. */
    private void printContents(int schemaVersion, Map<String, Long> rows) {
        int latest = Migrations.latestVersion();
        out().printf("  schema version %d%s%n", schemaVersion, schemaVersion == latest
                ? " (this ClaimDesk writes version " + latest + ")"
                : schemaVersion > latest ? " (newer than this ClaimDesk, which writes version " + latest
                        + ": restore it for a newer ClaimDesk)"
                        : " (older: this ClaimDesk upgrades it to version " + latest + " when it opens the restored"
                                + " database)");
        for (Map.Entry<String, Long> table : rows.entrySet()) {
            out().printf("  %-24s %,12d rows%n", table.getKey(), table.getValue());
        }
    }

    private void checkDump(Path file) {
        PostgresDump.Summary dump = shownWhile("backup: reading the dump " + file.getFileName() + " to its end…",
                () -> Backup.checkDump(file));
        List<String> origin = new ArrayList<>();
        if (dump.database() != null) {
            origin.add("database " + dump.database());
        }
        if (dump.dumpedAt() != null) {
            origin.add("dumped " + WHEN.format(dump.dumpedAt()) + " (pg_dump's local time)");
        }
        if (dump.pgDumpVersion() != null) {
            origin.add("by pg_dump " + dump.pgDumpVersion()
                    + (dump.serverVersion() == null ? "" : " from PostgreSQL " + dump.serverVersion()));
        }
        origin.add(dump.format() + (dump.compression().equals("none") ? ", uncompressed" : ", " + dump.compression()));
        out().printf("dump %s: %s%n", file, String.join(", ", origin));
        printContents(dump.schemaVersion(), dump.rows());
        out().printf("dump check passed: %,d claims; every ClaimDesk table is in the dump and its data reads to its"
                + " end%n", dump.rows().get("claim"));
    }
}
