package org.claimdesk.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.claimdesk.app.DataDirectory;
import org.claimdesk.app.MoveIn;
import org.claimdesk.app.ShellWords;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.EvidenceRules;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.DatabaseMove;
import org.claimdesk.store.EvidenceFiles;
import org.claimdesk.store.EvidenceStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code migrate --from FILE.db --to postgresql://…}: a workstation's database moved into an empty team database. */
@Command(name = "migrate", description = {
    "Copy a workstation's database file into an empty team database.",
    "Claims, history, outbox rows with their attempts, audit trail and evidence records are copied, ids kept; then",
    "every table is counted and checksummed on both sides. A target that already holds claims, outbox rows or audit",
    "entries is refused (exit 1). Evidence files are copied to the team's evidence folder by IT (docs/operations.md)."})
final class MigrateCommand extends CliSupport implements Callable<Integer> {
    @Option(names = "--from", required = true, paramLabel = "FILE", description = "The workstation's database file.")
    Path from;

    @Option(names = "--to", required = true, paramLabel = "URL",
            description = "The team database: postgresql://user@host:port/dbname (password from PGPASSWORD or ~/.pgpass).")
    String to;

    @Override
    public Integer call() {
        DatabaseLocation target = DatabaseLocation.parse(to);
        if (!(target instanceof DatabaseLocation.Postgres server)) {
            throw new UsageException("--to names a team database: postgresql://user@host:port/dbname");
        }
        if (!Files.isRegularFile(from)) {
            throw new ClaimDeskException("no database file " + from);
        }
        MoveIn.refuseUnlessEmpty(server);
        // a desk's file one schema behind is upgraded as it opens, and says so, as every command's database does
        try (Database source = Database.open(new DatabaseLocation.SqliteFile(from), ClaimDeskCommand.upgradeNotice(err()));
                Database team = Database.open(target)) {
            long[] shown = {0};
            MoveIn.Result result = new MoveIn(source, team).run(new MoveIn.Progress() {
                @Override
                public void copied(String table, long rows, long ofRows) {
                    long now = System.nanoTime();
                    if (rows == ofRows || now - shown[0] > 500_000_000L) {
                        shown[0] = now;
                        err().printf("%s: %,d of %,d rows%n", table, rows, ofRows);
                        err().flush();
                    }
                }

                @Override
                public void checking(String table) {
                    err().printf("checking %s: its rows read again on both sides, counts and checksums compared%n",
                            table);
                    err().flush();
                }

                @Override
                public void gatheringStatistics() {
                    err().println("every table copied and checked; vacuuming the tables and gathering the planner's"
                            + " statistics (VACUUM ANALYZE)…");
                    err().flush();
                }

                @Override
                public void statisticsNotGathered(String reason) {
                    err().println("the planner's statistics could not be gathered (" + reason + "); the move is"
                            + " complete and checked, and the server's autovacuum gathers them within minutes (or"
                            + " run VACUUM ANALYZE as the tables' owner)");
                    err().flush();
                }
            });
            for (DatabaseMove.Digest d : result.tables()) {
                out().printf("%-22s %,10d rows  sha256 %s%n", d.table(), d.rows(), d.sha256());
            }
            out().printf("moved %s into %s: every table's count and checksum match%n", from, team.location().describe());
            // as the staff role, not the owner role the move ran as (which may drop the audit trail's guards)
            String staffUrl = ShellWords.word(server.url("STAFF-ROLE"));
            out().println((result.deskMarked()
                    ? "the desk's file is marked moved: its worker is paused, saying where its claims went; "
                    : "the desk's file could not be marked moved (" + result.deskNotMarked() + "): do not work on it"
                            + " any more; ")
                    + "point the workstation at the team database as its staff role (docs/operations.md: server and"
                    + " database): CLAIMDESK_DB=" + staffUrl);
            EvidenceStore.FileTally files = team.read(h -> new EvidenceStore().fileTally(h));
            if (files.files() > 0) {
                out().println(evidenceToCopy(files, DataDirectory.evidence(from),
                        DataDirectory.evidenceFiles(team, null)));
            }
            out().flush();
        }
        return ClaimDeskCommand.EXIT_OK;
    }

    /**
     * What IT copies after a move: the files the moved evidence rows name, from the desk's folder into the team's
     * shared one, readable by the staff group (the desk's are its owner's only).
     */
    static String evidenceToCopy(EvidenceStore.FileTally files, Path deskFolder, EvidenceFiles team) {
        String share = team.isShared() ? team.folder().toString() : "SHARED-FOLDER";
        String command = ShellWords.windows()
                ? "robocopy " + ShellWords.word(deskFolder.toString()) + " " + ShellWords.word(share) + " /XF .incoming-*"
                : "find " + ShellWords.word(deskFolder.toString()) + " -maxdepth 1 -type f ! -name '.incoming-*' -exec"
                        + " install -m 640 {} " + ShellWords.word(share) + " \\;";
        return String.format("%,d evidence file(s) (%s) are named by the moved rows: copy the files in %s (not the"
                + " folder itself) into the team's shared evidence folder, e.g. %s (docs/operations.md: moving in)",
                files.files(), EvidenceRules.size(files.bytes()), deskFolder, command);
    }
}
