package org.claimdesk.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A team database's password from the PostgreSQL password file, read as {@code psql} (libpq) reads it: the file
 * {@code PGPASSFILE} names, else {@code ~/.pgpass} ({@code %APPDATA%\postgresql\pgpass.conf} on Windows); lines
 * {@code host:port:database:user:password}, each of the first four a value or {@code *}, {@code \:} and {@code \\}
 * escaped, {@code #} starting a comment; the first line that matches gives the password. A line without its five
 * fields is passed over, and a file that the group or others may read is not read at all (on systems with POSIX
 * permissions), as libpq does. ClaimDesk reads the file itself, and keeps the PostgreSQL driver from reading it
 * (see {@code PostgresDatabase#password}): the driver reads a file of any permissions and fails with an index error on
 * a line that is not whole. The file is read when a connection pool or connection is made.
 */
final class PasswordFile {
    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(
            PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    /**
     * What the file gave.
     *
     * @param password the first matching line's password, if a line matched and its password is not empty
     * @param unread why the file exists but was not read (one sentence naming the file, never a password), or null
     */
    record Lookup(Optional<String> password, String unread) {
    }

    private PasswordFile() {
    }

    /** The password for {@code server}'s role and database, from this process's environment and home folder. */
    static Lookup lookup(DatabaseLocation.Postgres server) {
        String home = System.getenv("HOME");
        return lookup(location(System.getenv(), Path.of(home == null || home.isEmpty() || windows()
                ? System.getProperty("user.home") : home), windows()), server);
    }

    /** The password file's path: {@code PGPASSFILE} when set, else the platform's default place in {@code home}. */
    static Path location(Map<String, String> environment, Path home, boolean windows) {
        String named = environment.get("PGPASSFILE");
        if (named != null && !named.isEmpty()) {
            return Path.of(named);
        }
        String appData = environment.get("APPDATA");
        if (windows && appData != null && !appData.isEmpty()) {
            return Path.of(appData, "postgresql", "pgpass.conf");
        }
        return home.resolve(".pgpass");
    }

    /** The password in {@code file} for {@code server}, or why the file was not read. */
    static Lookup lookup(Path file, DatabaseLocation.Postgres server) {
        if (!Files.exists(file)) {
            return new Lookup(Optional.empty(), null);
        }
        if (!Files.isRegularFile(file)) {
            return new Lookup(Optional.empty(), "the password file " + file + " is not a file, so it was not read");
        }
        PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        try {
            if (posix != null) {
                Set<PosixFilePermission> open = EnumSet.copyOf(posix.readAttributes().permissions());
                open.retainAll(OTHERS);
                if (!open.isEmpty()) {
                    return new Lookup(Optional.empty(), "the password file " + file + " may be read by others than"
                            + " its owner, so it was not read (as psql does not): make it private with chmod 600 "
                            + file);
                }
            }
            // bytes that are not UTF-8 (a comment saved in another encoding) stay in their line, as libpq reads bytes
            return new Lookup(find(new String(Files.readAllBytes(file), StandardCharsets.UTF_8).lines().toList(),
                    server), null);
        } catch (IOException | RuntimeException e) {
            return new Lookup(Optional.empty(), "the password file " + file + " cannot be read ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    /** The password of the first line of {@code lines} that matches {@code server}, if it is not empty. */
    static Optional<String> find(List<String> lines, DatabaseLocation.Postgres server) {
        List<String> wanted = List.of(server.host(), Integer.toString(server.port()), server.database(),
                server.role());
        for (String line : lines) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            List<Field> fields = fields(line);
            if (fields.size() < 5) {
                continue;
            }
            boolean matches = true;
            for (int i = 0; i < 4 && matches; i++) {
                matches = fields.get(i).matches(wanted.get(i));
            }
            if (matches) {
                String password = fields.get(4).value();
                return password.isEmpty() ? Optional.empty() : Optional.of(password);
            }
        }
        return Optional.empty();
    }

    /** One field of a line, unescaped; {@code any} for a field written {@code *} (not {@code \*}). */
    private record Field(String value, boolean any) {
        boolean matches(String wanted) {
            return any || value.equals(wanted);
        }
    }

    /** The line's fields: split at each {@code :} not preceded by {@code \}, the fifth running to the next one. */
    private static List<Field> fields(String line) {
        List<Field> fields = new ArrayList<>(5);
        StringBuilder field = new StringBuilder();
        int start = 0;
        for (int i = 0; i <= line.length() && fields.size() < 5; i++) {
            char c = i < line.length() ? line.charAt(i) : ':';
            if (c == '\\' && i + 1 < line.length()) {
                field.append(line.charAt(++i));
            } else if (c == ':') {
                fields.add(new Field(field.toString(), line.substring(start, i).equals("*")));
                field.setLength(0);
                start = i + 1;
            } else {
                field.append(c);
            }
        }
        return fields;
    }

    private static boolean windows() {
        return System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).startsWith("windows");
    }
}
