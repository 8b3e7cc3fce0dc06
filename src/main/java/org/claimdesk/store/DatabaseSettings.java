package org.claimdesk.store;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;

/**
 * The settings a team database gives its own sessions ({@code ALTER DATABASE … SET name TO value}), by name in lower
 * case, as PostgreSQL keeps them: the office's rules that IT sets once for every workstation. They are read from the
 * database's settings, not from the session, in one statement as the database opens; a change is taken at each
 * workstation's next start.
 */
final class DatabaseSettings {
    /** The office's decision deadlines for jurisdictions the statute does not fix, as {@code NY=150,*=120}. */
    static final String DEADLINE_DAYS = "claimdesk.deadline_days";
    static final String TIME_ZONE = "timezone";

    private DatabaseSettings() {
    }

    static Map<String, String> of(Jdbi jdbi) {
        return jdbi.withHandle(h -> parsed(h.createQuery("""
                SELECT setting FROM pg_db_role_setting s CROSS JOIN LATERAL unnest(s.setconfig) AS setting
                WHERE s.setrole = 0 AND s.setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())""")
                .mapTo(String.class).list()));
    }

    /** {@code name=value} entries as {@code pg_db_role_setting} holds them; the first of a name counts. */
    static Map<String, String> parsed(Iterable<String> entries) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String entry : entries) {
            int equals = entry.indexOf('=');
            if (equals > 0) {
                settings.putIfAbsent(entry.substring(0, equals).strip().toLowerCase(Locale.ROOT),
                        unquoted(entry.substring(equals + 1).strip()));
            }
        }
        return settings;
    }

    private static String unquoted(String value) {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1) : value;
    }
}
