package org.claimdesk.app;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.EvidenceFiles;
import org.claimdesk.store.OwnerOnly;

/**
 * Where ClaimDesk keeps per-user files (database, evidence files, logs, settings). {@code CLAIMDESK_HOME} overrides
 * the per-system default; {@code CLAIMDESK_DB} or {@code --db} override the database alone.
 */
public final class DataDirectory {
    public static final String HOME_ENV = "CLAIMDESK_HOME";
    public static final String DB_ENV = "CLAIMDESK_DB";
    public static final String DB_FILE = "claimdesk.db";
    public static final String EVIDENCE_DIR = "evidence";
    /** The folder evidence files of a team database are copied to: a folder every workstation reaches. */
    public static final String EVIDENCE_ENV = "CLAIMDESK_EVIDENCE_DIR";

    private DataDirectory() {
    }

    public static Path home() {
        return home(System.getenv(), System.getProperty("os.name", ""), System.getProperty("user.home"));
    }

    static Path home(Map<String, String> env, String osName, String userHome) {
        String override = env.get(HOME_ENV);
        if (override != null && !override.isBlank()) {
            return Path.of(override);
        }
        String os = osName.toLowerCase(Locale.ROOT);
        if (os.contains("win")) {
            String localAppData = env.get("LOCALAPPDATA");
            return localAppData != null ? Path.of(localAppData, "ClaimDesk") : Path.of(userHome, "AppData", "Local", "ClaimDesk");
        }
        if (os.contains("mac")) {
            return Path.of(userHome, "Library", "Application Support", "ClaimDesk");
        }
        return Path.of(userHome, ".claimdesk");
    }

    /** System property naming the log folder; read by {@link LogSetup}. */
    public static final String LOG_DIR_PROPERTY = "claimdesk.logDir";
    /** The log file in the log folder; older days' files are rolled beside it. */
    static final String LOG_FILE = "claimdesk.log";

    /** The log folder: {@code logs} in the data directory. */
    static Path logFolder() {
        return home().resolve("logs");
    }

    /**
     * Creates the log folder owner-only (0700) with an owner-only log file (0600) before logging
     * starts, and points logback at it. Call first thing in {@code main}.
     */
    public static Path prepareLogs() {
        Path dir = logFolder();
        prepareLogs(dir);
        System.setProperty(LOG_DIR_PROPERTY, dir.toString());
        return dir;
    }

    /** Makes {@code dir} and its log file owner-only, saying on stderr what cannot be done. */
    static void prepareLogs(Path dir) {
        try {
            createOwnerOnly(dir.getParent(), true);
            createOwnerOnly(dir, true);
            createOwnerOnly(dir.resolve(LOG_FILE), false);
        } catch (java.io.IOException e) {
            System.err.println("claimdesk: cannot prepare the log folder " + dir + ": " + e.getMessage());
            return;
        }
        try {
            // a folder made before (by IT, by a restore) keeps the mode it was given; the logs' own folder is made
            // owner-only at every start, as the log files rolled in it are written at the user's umask
            org.claimdesk.store.OwnerOnly.restrict(dir);
        } catch (java.io.IOException e) {
            System.err.println("claimdesk: the log folder " + dir + " cannot be made owner-only (" + e.getMessage()
                    + "): ask IT to give it to this user, mode 0700");
        }
    }

    private static void createOwnerOnly(Path path, boolean directory) throws java.io.IOException {
        if (java.nio.file.Files.exists(path)) {
            return;
        }
        OwnerOnly.create(path, directory);
    }

    /**
     * The folder of evidence files that belongs to {@code database}: {@code evidence} beside a file; for a team
     * database the shared folder {@code CLAIMDESK_EVIDENCE_DIR} names (docs/operations.md), else a folder in this
     * workstation's data directory named after the server and database.
     */
    public static Path evidence(Database database) {
        return evidence(database, null);
    }

    /**
     * As {@link #evidence(Database)}, with the team database's shared folder given explicitly ({@code claims evidence
     * add --evidence-dir}): it wins over {@code CLAIMDESK_EVIDENCE_DIR}. A database file keeps its evidence beside it,
     * so a folder given for one is refused.
     */
    public static Path evidence(Database database, String explicit) {
        return evidence(database, explicit, System.getenv());
    }

    static Path evidence(Database database, String explicit, Map<String, String> env) {
        boolean given = explicit != null && !explicit.isBlank();
        if (!database.onServer()) {
            if (given) {
                throw new IllegalArgumentException("an evidence folder is given for a team database only; the"
                        + " database file " + database.path() + " keeps its evidence beside it, in "
                        + evidence(database.path()));
            }
            return evidence(database.path());
        }
        if (given) {
            return Path.of(explicit);
        }
        Optional<Path> shared = sharedEvidence(env);
        if (shared.isPresent()) {
            return shared.get();
        }
        DatabaseLocation.Postgres server = (DatabaseLocation.Postgres) database.location();
        return home(env, System.getProperty("os.name", ""), System.getProperty("user.home")).resolve(EVIDENCE_DIR)
                .resolve(server.database() + "@" + server.host() + "_" + server.port());
    }

    /**
     * The evidence folder of {@code database} as {@link #evidence(Database, String)} finds it: the office's
     * {@linkplain EvidenceFiles#shared shared} folder where a team database names one, else a folder of this desk's
     * or workstation's {@linkplain EvidenceFiles#own own}.
     */
    public static EvidenceFiles evidenceFiles(Database database, String explicit) {
        return evidenceFiles(database, explicit, System.getenv());
    }

    static EvidenceFiles evidenceFiles(Database database, String explicit, Map<String, String> env) {
        Path folder = evidence(database, explicit, env);
        boolean shared = database.onServer()
                && (explicit != null && !explicit.isBlank() || sharedEvidence(env).isPresent());
        return shared ? EvidenceFiles.shared(folder) : EvidenceFiles.own(folder);
    }

    /** The office's shared folder of evidence files, when {@value #EVIDENCE_ENV} names one. */
    static Optional<Path> sharedEvidence(Map<String, String> env) {
        String shared = env.get(EVIDENCE_ENV);
        return shared == null || shared.isBlank() ? Optional.empty() : Optional.of(Path.of(shared));
    }

    /** The folder of evidence files that belongs to a database file: {@code evidence} beside it. */
    public static Path evidence(Path databaseFile) {
        return databaseFile.toAbsolutePath().normalize().resolveSibling(EVIDENCE_DIR);
    }

    /**
     * The database: the explicit one if given, else {@code CLAIMDESK_DB}, else the data directory's file. A
     * {@code postgresql://} (or {@code jdbc:postgresql:}) address names a team database; anything else is a file.
     */
    public static DatabaseLocation database(String explicit) {
        return database(explicit, System.getenv());
    }

    /**
     * Refuses a desk's file named with {@code --db} or {@code CLAIMDESK_DB} whose folder is not there, before the
     * console makes it: a share not mounted or a mistyped folder would otherwise get a new, empty desk (filled with demo
     * data) that no one else sees. A new desk's file in a folder that is there is made; the default file's folder is.
     */
    public static void refuseMissingFolder(String explicit) {
        refuseMissingFolder(explicit, System.getenv());
    }

    /** As {@link #refuseMissingFolder(String)}, {@code env} the environment. */
    public static void refuseMissingFolder(String explicit, Map<String, String> env) {
        String named = explicit != null && !explicit.isBlank() ? explicit : env.get(DB_ENV);
        if (named == null || named.isBlank()) {
            return;
        }
        if (database(explicit, env) instanceof DatabaseLocation.SqliteFile desk) {
            Path file = desk.file().toAbsolutePath();
            Path folder = file.getParent();
            if (!java.nio.file.Files.exists(file) && folder != null && !java.nio.file.Files.isDirectory(folder)) {
                throw new ClaimDeskException("no folder " + folder + " for the desk's file " + file.getFileName()
                        + " (nothing was created): check --db or " + DB_ENV + " (a share not mounted, a mistyped"
                        + " folder); a new desk's file is made in a folder that is there");
            }
        }
    }

    static DatabaseLocation database(String explicit, Map<String, String> env) {
        if (explicit != null && !explicit.isBlank()) {
            return DatabaseLocation.parse(explicit);
        }
        String fromEnv = env.get(DB_ENV);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return DatabaseLocation.parse(fromEnv);
        }
        return new DatabaseLocation.SqliteFile(
                home(env, System.getProperty("os.name", ""), System.getProperty("user.home")).resolve(DB_FILE));
    }
}
