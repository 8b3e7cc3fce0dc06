package org.claimdesk.store;

import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/**
 * The reads behind {@code doctor}'s findings about a team database's server (PostgreSQL only): its version, the
 * trigram extension search needs, whether this connection is encrypted, what the login role may do to the audit
 * trail, and who else is connected. Reads only.
 */
public final class ServerHealthStore {
    /** The longest application name PostgreSQL keeps (NAMEDATALEN - 1). */
    private static final int NAME_LIMIT = 63;
    private static final String APPLICATION_NAME = name();

    /**
     * What the server says about itself and this connection.
     *
     * @param versionNumber e.g. 170006 for 17.6
     * @param encrypted whether this connection uses TLS
     * @param tlsVersion the TLS version in use, null when not encrypted
     * @param superuser whether the login role is a superuser
     * @param ownsAuditTrail whether the login role owns {@code audit_log} (or is a member of its owner): it could drop
     *     the triggers that keep the audit trail append-only
     * @param others the other sessions on this database, this process's own pool left out
     * @param recordsOpen what the login role may do to the records kept whole beyond what staff's work needs
     *     ({@link #RECORDS_KEPT_WHOLE}), as "UPDATE claim_status_history"; empty for the owner and a superuser, who
     *     may do everything anyway
     * @param definers how many functions of the schema run as their owner (SECURITY DEFINER: the tallies')
     * @param definersUnpinned those among them that do not fix their search path, by signature: a session's temporary
     *     table or function of the same name would be found first, and run with the owner's rights
     */
    public record ServerFacts(int versionNumber, String version, boolean trigramSearch, boolean encrypted,
            String tlsVersion, String role, boolean superuser, boolean ownsAuditTrail, List<Session> others,
            List<String> recordsOpen, int definers, List<String> definersUnpinned) {
    }

    /**
     * What staff's work changes in each ClaimDesk table, as docs/operations.md grants it to the staff role: every
     * other UPDATE, and any DELETE or TRUNCATE, would let a workstation rewrite or remove what was done (a status
     * move, a delivery attempt, an evidence reference, a request key, an audit entry). Table → the changes it needs.
     */
    static final Map<String, java.util.Set<String>> RECORDS_KEPT_WHOLE = Map.of(
            "claim", java.util.Set.of("UPDATE"),
            "outbox_event", java.util.Set.of("UPDATE"),
            "evidence", java.util.Set.of("UPDATE"),
            "claim_number_sequence", java.util.Set.of("UPDATE"),
            "worker_pause", java.util.Set.of("UPDATE", "DELETE"),
            "claim_status_history", java.util.Set.of(),
            "delivery_attempt", java.util.Set.of(),
            "request_key", java.util.Set.of(),
            "audit_log", java.util.Set.of());

    /** Sessions of one program (its application name) as one role. */
    public record Session(String applicationName, String role, int connections) {
    }

    public ServerFacts facts(Handle handle) {
        int versionNumber = Integer.parseInt(handle.createQuery("SHOW server_version_num").mapTo(String.class).one());
        String version = handle.createQuery("SHOW server_version").mapTo(String.class).one();
        boolean trigram = handle.createQuery("SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm')")
                .mapTo(Boolean.class).one();
        String tls = handle.createQuery("SELECT CASE WHEN ssl THEN coalesce(version, 'TLS') END FROM pg_stat_ssl"
                + " WHERE pid = pg_backend_pid()").mapTo(String.class).findOne().orElse(null);
        String role = handle.createQuery("SELECT current_user").mapTo(String.class).one();
        boolean superuser = handle.createQuery("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
                .mapTo(Boolean.class).one();
        boolean owns = handle.createQuery("SELECT coalesce((SELECT pg_has_role(current_user, relowner, 'MEMBER')"
                + " FROM pg_class WHERE oid = to_regclass('audit_log')), false)").mapTo(Boolean.class).one();
        List<Session> others = handle.createQuery("""
                SELECT coalesce(nullif(application_name, ''), '(unnamed)') AS name, coalesce(usename, '?') AS role,
                       count(*) AS connections
                FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid()
                  -- another role's session shows no backend type to a role without statistics rights (staff): a
                  -- program's session has an application name, the server's own workers none
                  AND (backend_type = 'client backend' OR (backend_type IS NULL AND application_name <> ''))
                  AND application_name <> :mine
                GROUP BY 1, 2 ORDER BY 1, 2""")
                .bind("mine", APPLICATION_NAME)
                .map((rs, ctx) -> new Session(rs.getString("name"), rs.getString("role"), rs.getInt("connections")))
                .list();
        List<String> open = superuser || owns ? List.of() : recordsOpen(handle);
        Map<String, Boolean> definers = new java.util.TreeMap<>();
        handle.createQuery("""
                SELECT p.oid::regprocedure::text AS signature,
                       (SELECT substr(c, length('search_path=') + 1) FROM unnest(coalesce(p.proconfig, '{}'::text[])) c
                        WHERE c LIKE 'search_path=%') AS path
                FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                WHERE n.nspname = current_schema() AND p.prosecdef AND p.proname LIKE 'claimdesk\\_%'""")
                .map((rs, ctx) -> Map.entry(rs.getString("signature"), pinned(rs.getString("path"))))
                .forEach(e -> definers.put(e.getKey(), e.getValue()));
        List<String> unpinned = definers.entrySet().stream().filter(e -> !e.getValue()).map(Map.Entry::getKey).toList();
        return new ServerFacts(versionNumber, version, trigram, tls != null, tls, role, superuser, owns, others, open,
                definers.size(), unpinned);
    }

    /**
     * Whether a function's search path {@code path} (as {@code proconfig} keeps it: {@code public, pg_temp}) keeps a
     * session's temporary objects out: they are searched first unless {@code pg_temp} is named, and last.
     */
    static boolean pinned(String path) {
        if (path == null) {
            return false;
        }
        List<String> schemas = java.util.Arrays.stream(path.split(",")).map(s -> s.strip().replace("\"", ""))
                .filter(s -> !s.isEmpty()).toList();
        return !schemas.isEmpty() && schemas.indexOf("pg_temp") == schemas.size() - 1;
    }

    /** The changes the login role may make to {@link #RECORDS_KEPT_WHOLE} beyond those staff's work needs. */
    private static List<String> recordsOpen(Handle handle) {
        // every change staff's work does not need, asked of the server in one statement, in the tables' order
        List<String> tables = new java.util.ArrayList<>();
        List<String> changes = new java.util.ArrayList<>();
        new java.util.TreeMap<>(RECORDS_KEPT_WHOLE).forEach((table, needed) -> {
            for (String change : List.of("UPDATE", "DELETE", "TRUNCATE")) {
                if (!needed.contains(change)) {
                    tables.add(table);
                    changes.add(change);
                }
            }
        });
        return handle.createQuery("""
                SELECT t.change || ' ' || t.name FROM unnest(:tables, :changes) WITH ORDINALITY AS t(name, change, n)
                WHERE has_table_privilege(current_user, to_regclass(t.name), t.change) ORDER BY t.n""")
                .bindArray("tables", String.class, tables)
                .bindArray("changes", String.class, changes)
                .mapTo(String.class).list();
    }

    /**
     * The name this process's connections carry on the server ({@code pg_stat_activity.application_name}):
     * "ClaimDesk", the version, the workstation and the process id, so that staff and IT see who is connected.
     */
    public static String applicationName() {
        return APPLICATION_NAME;
    }

    private static String name() {
        String version = ServerHealthStore.class.getPackage().getImplementationVersion();
        String prefix = "ClaimDesk " + (version == null ? "development" : version) + " ";
        String suffix = " pid " + ProcessHandle.current().pid();
        // the server keeps printable ASCII only; the host name gives way when the whole is too long
        String host = host().replaceAll("[^\\x21-\\x7E]", "?");
        return prefix + host.substring(0, Math.max(0, Math.min(host.length(),
                NAME_LIMIT - prefix.length() - suffix.length()))) + suffix;
    }

    private static String host() {
        return HostName.orElse("unknown-host");
    }
}
