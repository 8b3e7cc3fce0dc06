package org.claimdesk.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdbi.v3.core.Handle;

/**
 * The triggers a database's schema relies on (the audit trail kept append-only, the tallies, the search indexes,
 * a team database's change feed) against those it has. What it should have is read from this build's migration
 * scripts that the database says were applied, in their order: each trigger a script creates and no later script
 * drops. Reads only.
 */
final class SchemaTriggers {
    /** A trigger's statement: created (or replaced) or dropped, and its name. */
    private static final Pattern STATEMENT = Pattern.compile("(?i)\\b(CREATE\\s+(?:OR\\s+REPLACE\\s+)?(?:CONSTRAINT\\s+)?"
            + "|DROP\\s+)TRIGGER\\s+(?:IF\\s+(?:NOT\\s+)?EXISTS\\s+)?(?:\"?[A-Za-z_][A-Za-z0-9_]*\"?\\.)?"
            + "\"?([A-Za-z_][A-Za-z0-9_]*)");
    private static final Pattern COMMENTS = Pattern.compile("--[^\\n]*|/\\*.*?\\*/", Pattern.DOTALL);

    private SchemaTriggers() {
    }

    /**
     * The triggers {@code scripts} (script name → its text, in the order they ran) leave in place, each with the
     * script that last created it, by name.
     */
    static SortedMap<String, String> created(Map<String, String> scripts) {
        Map<String, String> triggers = new HashMap<>();
        scripts.forEach((name, text) -> {
            Matcher m = STATEMENT.matcher(COMMENTS.matcher(text).replaceAll(" "));
            while (m.find()) {
                if (m.group(1).regionMatches(true, 0, "DROP", 0, 4)) {
                    triggers.remove(m.group(2).toLowerCase(Locale.ROOT));
                } else {
                    triggers.put(m.group(2).toLowerCase(Locale.ROOT), name);
                }
            }
        });
        return new TreeMap<>(triggers);
    }

    /** The migration scripts {@code h}'s database says it ran, with their text in this build, in the order they ran. */
    static Map<String, String> applied(Handle h) {
        Map<String, String> scripts = new LinkedHashMap<>();
        if (Dialect.of(h) == Dialect.SQLITE) {
            List<String> names = Migrations.scripts();
            int version = Math.min(Migrations.pragmaInt(h, "user_version"), names.size());
            for (String name : names.subList(0, version)) {
                scripts.put(name, Migrations.script(name));
            }
            return scripts;
        }
        // a repeatable script ran again when it changed: its last run is what the database holds
        List<String> ran = h.createQuery("SELECT script FROM flyway_schema_history WHERE success"
                + " AND script LIKE '%.sql' ORDER BY installed_rank").mapTo(String.class).list();
        for (String name : ran) {
            scripts.remove(name);
            // a script a later build removed (its history kept) has no triggers this build relies on
            PostgresDatabase.scriptIfPresent(name).ifPresent(text -> scripts.put(name, text));
        }
        return scripts;
    }

    /** The database's own triggers (not the engine's internal ones), each with whether it fires. */
    static Map<String, Boolean> present(Handle h) {
        Map<String, Boolean> present = new HashMap<>();
        h.createQuery(Dialect.of(h).triggersQuery())
                .map((rs, ctx) -> Map.entry(rs.getString("name").toLowerCase(Locale.ROOT), rs.getBoolean("fires")))
                .forEach(e -> present.merge(e.getKey(), e.getValue(), Boolean::logicalAnd));
        return present;
    }

    /** The triggers the schema relies on that {@code present} lacks, or has without them firing. */
    static HealthStore.Triggers compare(SortedMap<String, String> expected, Map<String, Boolean> present) {
        List<HealthStore.Trigger> missing = new ArrayList<>();
        List<HealthStore.Trigger> idle = new ArrayList<>();
        expected.forEach((name, script) -> {
            Boolean fires = present.get(name);
            if (fires == null) {
                missing.add(new HealthStore.Trigger(name, script));
            } else if (!fires) {
                idle.add(new HealthStore.Trigger(name, script));
            }
        });
        return new HealthStore.Triggers(expected.size(), missing, idle);
    }
}
