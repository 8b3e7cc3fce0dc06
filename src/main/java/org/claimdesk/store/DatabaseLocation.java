package org.claimdesk.store;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a ClaimDesk database is: a local SQLite file (one desk, the default) or a database on a PostgreSQL server
 * (team mode). {@link #parse} reads what staff give to {@code --db} or {@code CLAIMDESK_DB}:
 * {@code postgresql://user@host:port/dbname?sslmode=…} or {@code jdbc:postgresql://…} name a server; an address of
 * another scheme and PostgreSQL's keyword/value form are refused; anything else is a file path. A password never
 * travels in a location: it comes from {@code PGPASSWORD} or {@code ~/.pgpass}, so it is never on a command line, in
 * a log, in the audit trail or on screen.
 */
public sealed interface DatabaseLocation {

    /** How the location is shown to staff and in logs: the file, or server and database (never a password). */
    String describe();

    /** A local SQLite file. */
    record SqliteFile(Path file) implements DatabaseLocation {
        public SqliteFile {
            file = file.toAbsolutePath().normalize();
        }

        @Override
        public String describe() {
            return file.toString();
        }
    }

    /**
     * A database on a PostgreSQL server.
     *
     * @param user the role to log in as; null for the operating-system user's name, as {@code psql} does
     * @param parameters the connection parameters given after {@code ?} (e.g. {@code sslmode}), passed on to the driver
     */
    record Postgres(String host, int port, String database, String user, Map<String, String> parameters)
            implements DatabaseLocation {
        public static final int DEFAULT_PORT = 5432;

        public Postgres {
            parameters = Map.copyOf(parameters);
        }

        /** The driver's URL, without user or password (those go as properties). */
        public String jdbcUrl() {
            return "jdbc:postgresql://" + server();
        }

        /** The address as {@code --db} takes it, logging in as {@code role} (no password: never in an address). */
        public String url(String role) {
            return "postgresql://" + role + "@" + server();
        }

        /** {@code host:port/database} with the address's settings. */
        private String server() {
            StringBuilder url = new StringBuilder(address()).append('/').append(database);
            String separator = "?";
            for (Map.Entry<String, String> p : new java.util.TreeMap<>(parameters).entrySet()) {
                url.append(separator).append(p.getKey()).append('=')
                        .append(java.net.URLEncoder.encode(p.getValue(), StandardCharsets.UTF_8));
                separator = "&";
            }
            return url.toString();
        }

        /** The login role: the one named, else the operating-system user's name. */
        public String role() {
            return user != null ? user : System.getProperty("user.name");
        }

        /** {@code host:port}, an IPv6 address in brackets ({@code [::1]:5432}). */
        public String address() {
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }

        @Override
        public String describe() {
            return "database " + database + " on " + address() + " as " + role();
        }
    }

    /**
     * Reads a {@code --db} value.
     *
     * @throws DatabaseException for a server address that cannot be read or that carries a password, and for an
     *         address ClaimDesk does not read (another scheme, PostgreSQL's keyword/value form), which is not shown:
     *         it may hold a password in a form no mask knows
     */
    static DatabaseLocation parse(String value) {
        String text = value.strip();
        String lower = text.toLowerCase(java.util.Locale.ROOT);
        if (lower.startsWith("jdbc:postgresql:")) {
            text = text.substring("jdbc:".length());
            lower = lower.substring("jdbc:".length());
        }
        if (lower.startsWith("postgresql:") || lower.startsWith("postgres:")) {
            return server(text);
        }
        String other = anotherAddress(text);
        if (other != null) {
            // read as a file path, it would become a file named after the address, password and all
            throw new DatabaseException("the database given is " + other + ", which ClaimDesk does not read: give"
                    + " postgresql://user@host:port/dbname (a password goes in PGPASSWORD or ~/.pgpass), or the path of"
                    + " a .db file");
        }
        return new SqliteFile(Path.of(text));
    }

    /**
     * What kind of address {@code text} is when it is one ClaimDesk does not read, or null: another scheme
     * ({@code jdbc:postgres://…}, {@code mysql://…}; a drive letter is no scheme), or PostgreSQL's keyword/value form
     * ({@code host=db1 dbname=claims}: two of its keywords, or a password, which no file name is given).
     */
    private static String anotherAddress(String text) {
        java.util.regex.Matcher scheme = java.util.regex.Pattern.compile("^(?i)(jdbc:[a-z0-9+.-]*|[a-z][a-z0-9+.-]+://)")
                .matcher(text);
        if (scheme.find()) {
            return "an address of the scheme " + scheme.group(1).replaceFirst("://$", "");
        }
        java.util.regex.Matcher keyword = java.util.regex.Pattern.compile("(?i)(^|\\s)(host|hostaddr|port|dbname|user"
                + "|password|passfile|sslmode|service)\\s*=").matcher(text);
        int keywords = 0;
        boolean password = false;
        while (keyword.find()) {
            keywords++;
            password |= keyword.group(2).equalsIgnoreCase("password");
        }
        return keywords >= 2 || password ? "a connection in PostgreSQL's keyword/value form" : null;
    }

    private static Postgres server(String text) {
        if (carriesPassword(text)) {
            throw passwordRefused();
        }
        URI uri;
        try {
            uri = new URI(text.replaceFirst("(?i)^postgres(ql)?:", "postgresql:"));
        } catch (URISyntaxException e) {
            throw new DatabaseException("cannot read the server address " + withoutPassword(text)
                    + ": write it as postgresql://user@host:5432/dbname", e);
        }
        String host = uri.getHost();
        if (host != null && host.startsWith("[") && host.endsWith("]")) {
            // an IPv6 address: the URI keeps its brackets, the location holds the address itself
            host = host.substring(1, host.length() - 1);
        }
        String path = uri.getRawPath();
        if (host == null || path == null || path.length() <= 1 || path.indexOf('/', 1) >= 0) {
            throw new DatabaseException("the server address " + withoutPassword(text) + " names no server and"
                    + " database: write it as postgresql://user@host:5432/dbname");
        }
        String userInfo = uri.getRawUserInfo();
        String user = null;
        if (userInfo != null) {
            if (userInfo.contains(":")) {
                throw passwordRefused();
            }
            user = decode(userInfo);
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        String query = uri.getRawQuery();
        if (query != null && !query.isEmpty()) {
            for (String pair : query.split("&")) {
                int eq = pair.indexOf('=');
                String key = decode(eq < 0 ? pair : pair.substring(0, eq));
                String val = eq < 0 ? "" : decode(pair.substring(eq + 1));
                if (key.equalsIgnoreCase("password")) {
                    throw passwordRefused();
                }
                if (key.equalsIgnoreCase("sslpassword")) {
                    // the client key's passphrase: on a command line or in CLAIMDESK_DB, and printed by migrate
                    throw new DatabaseException("the client key's passphrase (sslpassword) does not go in the database"
                            + " address: give a key without one, readable by its owner only (docs/operations.md)");
                }
                if (key.equalsIgnoreCase("user")) {
                    user = val;
                } else {
                    parameters.put(key, checkedSetting(key, val));
                }
            }
        }
        int port = uri.getPort() < 0 ? Postgres.DEFAULT_PORT : uri.getPort();
        return new Postgres(host, port, decode(path.substring(1)), user, parameters);
    }

    /**
     * A setting of the address as the PostgreSQL driver takes it, or a refusal: the driver ignores a name it does not
     * know (its names are case-sensitive), so a misspelt {@code sslMode=verify-full} would leave the server's
     * certificate unchecked without a word; and a TLS mode it does not know (in any case) is refused too.
     */
    private static String checkedSetting(String name, String value) {
        org.postgresql.PGProperty known = org.postgresql.PGProperty.forName(name);
        if (known == null) {
            throw new DatabaseException("the database address names a setting the PostgreSQL driver does not know: "
                    + name + " (names are case-sensitive, e.g. sslmode, sslrootcert, connectTimeout;"
                    + " docs/operations.md)");
        }
        if (claimDesksOwn(known)) {
            throw new DatabaseException("the database address gives " + name + ", which ClaimDesk sets itself (a"
                    + " workstation's name among the server's sessions, its lock and idle limits, server detail kept"
                    + " out of messages): leave it out of the address");
        }
        // the TLS mode's value too, as the driver reads it (any case); the driver checks its other settings itself
        if (known == org.postgresql.PGProperty.SSL_MODE && java.util.Arrays.stream(known.getChoices())
                .noneMatch(value::equalsIgnoreCase)) {
            throw new DatabaseException("the database address gives " + name + "=" + value + "; it takes one of "
                    + String.join(", ", known.getChoices()));
        }
        return value;
    }

    /**
     * The driver's settings ClaimDesk gives every connection, which a setting in the address would replace: the
     * session's options (lock timeout, the change feed's session name, the gone-client limits), the workstation's
     * name the server and doctor show, the server's detail of a refusal kept out of messages (it quotes row values).
     */
    private static boolean claimDesksOwn(org.postgresql.PGProperty setting) {
        return setting == org.postgresql.PGProperty.OPTIONS || setting == org.postgresql.PGProperty.APPLICATION_NAME
                || setting == org.postgresql.PGProperty.LOG_SERVER_ERROR_DETAIL;
    }

    private static DatabaseException passwordRefused() {
        return new DatabaseException("a password does not go in the database address: set PGPASSWORD or put it in"
                + " ~/.pgpass (docs/operations.md), and give postgresql://user@host:port/dbname");
    }

    /**
     * Whether the address has {@code user:password@} before its server, before any reading of it as a URI: a
     * password holding {@code /}, {@code @} or {@code :} unencoded (a generated one often does) makes the address no
     * valid URI, and it must be refused as a password, not echoed as an unreadable address.
     */
    private static boolean carriesPassword(String text) {
        // with or without the slashes: postgresql:kim:pw@db1/claims is no URI with a server, which a refusal quotes
        String afterScheme = text.replaceFirst("^(?i)(?:jdbc:)?postgres(?:ql)?:/*", "");
        int at = afterScheme.lastIndexOf('@');
        if (at < 0) {
            return false;
        }
        String userInfo = afterScheme.substring(0, at);
        // a '?' there is a parameter's (user@host/db?application_name=a@b), which the URI reading checks
        return userInfo.indexOf(':') >= 0 && userInfo.indexOf('?') < 0;
    }

    /**
     * The address with anything after {@code user:} up to the last {@code @} blanked, and any password parameter, for
     * messages.
     */
    private static String withoutPassword(String text) {
        return text.replaceAll("^(?i)((?:jdbc:)?postgres(?:ql)?:/*)([^/@:]*):.*@", "$1$2:***@")
                .replaceAll("(?i)(password\\s*=\\s*)[^&]*", "$1***");
    }

    /** Percent-decoding only, as libpq reads an address: a {@code +} stays a plus sign (a role may hold one). */
    private static String decode(String text) {
        return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
