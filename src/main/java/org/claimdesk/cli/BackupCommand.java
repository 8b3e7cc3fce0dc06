package org.claimdesk.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.claimdesk.app.Backup;
import org.claimdesk.store.Database;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "backup", description = "Write a consistent copy of the database while ClaimDesk keeps running"
        + " (restore: see docs/operations.md).")
final class BackupCommand extends CliSupport implements Callable<Integer> {
    @Option(names = "--to", required = true, paramLabel = "FILE", description = "The new backup file (must not exist).")
    Path to;

    @Override
    public Integer call() {
        try (Database db = openDatabase()) {
            Backup.Result result = new Backup(db).to(to);
            out().printf("backup written to %s: %d claims, %,d bytes, %d ms, integrity check passed%n", result.file(),
                    result.claims(), result.bytes(), result.millis());
        }
        return 0;
    }
}
