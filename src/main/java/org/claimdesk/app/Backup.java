package org.claimdesk.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.store.AuditStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseCopy;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.EvidenceStore;
import org.claimdesk.store.IoErrors;
import org.claimdesk.store.Json;
import org.claimdesk.store.LeftoverFiles;
import org.claimdesk.store.OwnerOnly;
import org.claimdesk.store.PostgresDump;

/**
 * An online, consistent copy of the database ({@code VACUUM INTO}: one read transaction, so the
 * console and the worker go on writing meanwhile), checked by opening the copy and running SQLite's
 * integrity check on it. A team database is dumped on its server with pg_dump; {@link #checkDump} reads such a
 * dump to its end without a PostgreSQL client.
 */
public final class Backup {
    private final Database database;

    public Backup(Database database) {
        this.database = database;
    }

    /**
     * @param evidence the evidence files the database's rows name, which the copy does not hold (they are kept in
     *        {@code evidenceFolder}, beside the database)
     * @param auditRefusal why the backup is not in the audit trail (its entry could not be written), or null
     */
    public record Result(Path file, long bytes, int claims, long millis, EvidenceStore.FileTally evidence,
            Path evidenceFolder, String auditRefusal) {
    }

    /**
     * How far a backup is: the copy's bytes written so far, against about how many the database holds (its pages,
     * those in its write-ahead log included; the copy leaves out its free pages), then the check of the copy. Told from the copying thread and from a
     * thread that looks at the copy's size every {@value #PROGRESS_EVERY_MS} ms.
     */
    public interface Progress {
        Progress NONE = new Progress() {
            @Override
            public void copied(long bytes, long aboutBytes) {
            }

            @Override
            public void checking() {
            }
        };

        void copied(long bytes, long aboutBytes);

        void checking();
    }

    static final long PROGRESS_EVERY_MS = 250;

    public Result to(Path target) {
        return to(target, Progress.NONE);
    }

    /** As {@link #to(Path)}, telling {@code progress} how far the copy is (a million claims: 25 s for 2.3 GB). */
    public Result to(Path target, Progress progress) {
        Path file = target.toAbsolutePath().normalize();
        if (database.location() instanceof DatabaseLocation.Postgres server) {
            throw new ClaimDeskException("a team database is backed up on its server, by IT: run " + pgDump(server, file)
                    + " as the database's owner role (the staff role may not read all of it; give the owner to -U),"
                    + " then check it with claimdesk backup --check " + ShellWords.word(file.toString())
                    + " (docs/operations.md: backups and restore)");
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
        // written and checked under a name of its own, on disk before it takes the backup's name: a backup cut short
        // (a full disk, the process killed) never stands under the name, and one reported good is on disk
        removeAbandonedPartials(file);
        Path partial = partial(file);
        createPrivate(partial);
        // audited once the folder took the new file: a folder refused leaves no entry of a copy never begun
        String auditRefusal = audited(file);
        int claims;
        EvidenceStore.FileTally evidence;
        try {
            copyWatched(partial, progress);
            progress.checking();
            claims = Math.toIntExact(DatabaseCopy.check(partial).claims());
            evidence = DatabaseCopy.evidenceIn(partial);
            sync(partial);
        } catch (RuntimeException | IOException e) {
            try {
                Files.deleteIfExists(partial);
            } catch (IOException ignored) {
                e.addSuppressed(ignored);
            }
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new ClaimDeskException("cannot write the backup " + file + ": "
                    + (e instanceof IOException io ? IoErrors.describe(io) : e.getMessage()), e);
        }
        try {
            // no option: a file that took the name meanwhile is not replaced
            Files.move(partial, file);
        } catch (IOException e) {
            // a checked copy is kept (a virus scanner or a share may hold the new file a moment on Windows)
            throw new ClaimDeskException("the backup was written and checked as " + partial + " but could not be"
                    + " named " + file.getFileName() + " (" + IoErrors.describe(e) + "): rename it yourself", e);
        }
        syncFolder(file.getParent());
        try {
            return new Result(file, Files.size(file), claims, (System.nanoTime() - started) / 1_000_000, evidence,
                    DataDirectory.evidence(database), auditRefusal);
        } catch (IOException e) {
            throw new ClaimDeskException("the backup " + file + " was written but cannot be read: " + IoErrors.describe(e), e);
        }
    }

    /** {@link DatabaseCopy#write} into {@code partial}, its size told to {@code progress} as it grows. */
    private void copyWatched(Path partial, Progress progress) throws IOException {
        long about = DatabaseCopy.pagesBytes(database);
        progress.copied(0, about);
        java.util.concurrent.ScheduledExecutorService watch = java.util.concurrent.Executors
                .newSingleThreadScheduledExecutor(runnable -> {
                    Thread thread = new Thread(runnable, "claimdesk-backup-progress");
                    thread.setDaemon(true);
                    return thread;
                });
        // a tick still running once the copy is done (its size read from a stalled share) tells nothing after it
        Object told = new Object();
        boolean[] done = {false};
        try {
            watch.scheduleWithFixedDelay(() -> {
                try {
                    long bytes = Files.size(partial);
                    synchronized (told) {
                        if (!done[0]) {
                            progress.copied(bytes, about);
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    // the copy's size is looked at again at the next tick; a tick that throws would end the ticks
                }
            }, PROGRESS_EVERY_MS, PROGRESS_EVERY_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
            DatabaseCopy.write(database, partial);
        } finally {
            synchronized (told) {
                done[0] = true;
            }
            watch.shutdownNow();
        }
        progress.copied(Files.size(partial), about);
    }

    /**
     * The backup's audit entry, before the copy, which holds it: every claim's tax id whole goes into the file, as
     * in an export with tax ids. Who: the operator the environment names, else the system account. A database that
     * cannot take the entry (a full disk, a file this account may only read) is still backed up: a backup is what
     * IT needs most then; returns why, for the caller to say, or null once written.
     */
    private String audited(Path file) {
        String actor = Operators.commandLineActor();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("file", file.toString());
        details.put("systemUser", Operators.osUser());
        details.put("workstation", Operators.workstation());
        try {
            database.useTransaction(h -> new AuditStore().append(h, database.clock().instant(), Inputs.actor(actor),
                    AuditActions.DATABASE_BACKUP, AuditActions.SUBJECT_DATABASE, "backup",
                    "a whole copy of the database, tax ids included", Json.write(details)));
            return null;
        } catch (RuntimeException e) {
            return e.getMessage() != null ? e.getMessage() : e.toString();
        }
    }

    /**
     * The TLS settings of an address that pg_dump takes under the same names in its connection string (a client
     * certificate's key is in the Java driver's own format, not libpq's, and is left to IT).
     */
    private static final java.util.List<String> TLS = java.util.List.of("sslmode", "sslrootcert");

    /**
     * The pg_dump command that dumps {@code server} into {@code file}, as this system's shell takes it
     * ({@link ShellWords}): with the address's TLS settings (in a connection string as the database, pg_dump's way),
     * each word quoted where it needs to be, and on a POSIX shell in a subshell whose umask makes the file owner-only.
     * No password: pg_dump reads PGPASSWORD or ~/.pgpass as ClaimDesk does.
     */
    static String pgDump(DatabaseLocation.Postgres server, Path file) {
        java.util.Map<String, String> settings = new java.util.HashMap<>(server.parameters());
        if ("true".equalsIgnoreCase(settings.get("ssl"))) {
            // the Java driver's ssl=true without a mode checks the server's certificate and name
            settings.putIfAbsent("sslmode", "verify-full");
        }
        java.util.List<String> tls = TLS.stream().filter(settings::containsKey)
                .map(k -> k + "=" + conninfoValue(settings.get(k))).toList();
        String database = tls.isEmpty() ? server.database()
                : "dbname=" + conninfoValue(server.database()) + " " + String.join(" ", tls);
        String dump = "pg_dump -Fc -h " + ShellWords.word(server.host()) + " -p " + server.port() + " -U "
                + ShellWords.word(server.role()) + " -d " + ShellWords.word(database) + " -f "
                + ShellWords.word(file.toString());
        // pg_dump makes its file as the shell's umask says (readable by everyone, commonly), and the dump holds
        // every tax id whole: owner-only, as a desk's backup is
        return ShellWords.windows() ? dump : "(umask 077; " + dump + ")";
    }

    /** A value in a libpq connection string: quoted when empty or holding a space, quote or backslash. */
    private static String conninfoValue(String value) {
        return value.isEmpty() || value.matches(".*[\\s'\\\\].*")
                ? "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'" : value;
    }

    /**
     * The file's permissions when users other than its owner may read it (a dump made with a shell's usual umask), on
     * a file system that has POSIX permissions; empty otherwise.
     */
    public static java.util.Optional<String> readableByOthers(Path file) {
        try {
            java.util.Set<java.nio.file.attribute.PosixFilePermission> permissions =
                    java.nio.file.Files.getPosixFilePermissions(file);
            boolean others = permissions.contains(java.nio.file.attribute.PosixFilePermission.GROUP_READ)
                    || permissions.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_READ);
            return others ? java.util.Optional.of(java.nio.file.attribute.PosixFilePermissions.toString(permissions))
                    : java.util.Optional.empty();
        } catch (UnsupportedOperationException | java.io.IOException e) {
            return java.util.Optional.empty();
        }
    }

    /** True when {@code file} is a copy {@link #to} writes (an SQLite file), not a dump of a team database. */
    public static boolean isCopy(Path file) {
        return DatabaseCopy.isCopy(file);
    }

    /** Checks a copy {@link #to} wrote: SQLite's quick check; returns how many claims it holds. */
    public static DatabaseCopy.Summary checkCopy(Path file) {
        return DatabaseCopy.check(file);
    }

    /**
     * Checks a dump of a team database (pg_dump -Fc or -Fp): it reads to its end and holds every ClaimDesk table's
     * data; returns what it holds.
     */
    public static PostgresDump.Summary checkDump(Path file) {
        return PostgresDump.check(file);
    }

    /**
     * Where the backup {@code file} is written before it takes its name: beside it, hidden, a name of its own for
     * each backup ({@code .NAME.<16 hex digits>.partial}), so that two backups to one name never write one file.
     */
    static Path partial(Path file) {
        return file.resolveSibling("." + file.getFileName() + "."
                + String.format("%016x", java.util.concurrent.ThreadLocalRandom.current().nextLong()) + ".partial");
    }

    /** Removes the partial files of backups to {@code file}'s name that were cut short ({@link LeftoverFiles}). */
    private static void removeAbandonedPartials(Path file) {
        String partial = java.util.regex.Pattern.quote("." + file.getFileName() + ".") + "[0-9a-f]{16}\\.partial";
        try {
            LeftoverFiles.removeAbandoned(file.getParent(), name -> name.matches(partial), java.time.Instant.now());
        } catch (IOException e) {
            // a partial file left stays: it has a name of its own and blocks nothing
        }
    }

    /** Writes {@code file}'s data to the disk ({@code VACUUM INTO} leaves that to the system). */
    private static void sync(Path file) throws IOException {
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file,
                java.nio.file.StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }

    /** Writes the folder's entries (the backup's new name) to the disk, where the system lets a folder be opened. */
    static void syncFolder(Path folder) {
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(folder,
                java.nio.file.StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // Windows opens no folder this way; its file system writes a rename with the file
        }
    }

    /** An empty owner-only file for VACUUM INTO to fill, so the copy is never readable by others. */
    private static void createPrivate(Path file) {
        try {
            OwnerOnly.create(file, false);
        } catch (IOException e) {
            throw new ClaimDeskException("cannot create the backup file " + file + ": " + IoErrors.describe(e), e);
        }
    }
}
