package org.claimdesk.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseCopy;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.OwnerOnly;

/**
 * An online, consistent copy of the database ({@code VACUUM INTO}: one read transaction, so the
 * console and the worker go on writing meanwhile), checked by opening the copy and running SQLite's
 * integrity check on it.
 */
public final class Backup {
    private final Database database;

    public Backup(Database database) {
        this.database = database;
    }

    public record Result(Path file, long bytes, int claims, long millis) {
    }

    public Result to(Path target) {
        Path file = target.toAbsolutePath().normalize();
        if (database.location() instanceof DatabaseLocation.Postgres server) {
            throw new ClaimDeskException("a team database is backed up on its server, by IT: run pg_dump -Fc -h "
                    + server.host() + " -p " + server.port() + " -U " + server.role() + " -d " + server.database()
                    + " -f " + file + " (docs/operations.md: backups and restore)");
        }
        if (Files.exists(file)) {
            throw new ClaimDeskException("the backup file " + file + " already exists; choose a new name");
        }
        if (file.equals(database.path())) {
            throw new ClaimDeskException("the backup must not overwrite the database itself");
        }
        Path dir = file.getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            throw new ClaimDeskException("the folder " + dir + " does not exist");
        }
        long started = System.nanoTime();
        createPrivate(file);
        DatabaseCopy.write(database, file);
        int claims = DatabaseCopy.check(file);
        try {
            return new Result(file, Files.size(file), claims, (System.nanoTime() - started) / 1_000_000);
        } catch (IOException e) {
            throw new ClaimDeskException("the backup " + file + " was written but cannot be read: " + e.getMessage(), e);
        }
    }

    /** An empty owner-only file for VACUUM INTO to fill, so the copy is never readable by others. */
    private static void createPrivate(Path file) {
        try {
            OwnerOnly.create(file, false);
        } catch (IOException e) {
            throw new ClaimDeskException("cannot create the backup file " + file + ": " + e.getMessage(), e);
        }
    }
}
