package org.claimdesk.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits a migration script into statements: one statement ends at a line ending in {@code ;},
 * except inside a {@code CREATE TRIGGER} body, which ends at {@code END;}. Comment lines are dropped.
 */
final class SqlScript {
    private SqlScript() {
    }

    static List<String> statements(String script) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean inTrigger = false;
        for (String rawLine : script.split("\\R")) {
            String line = rawLine.strip();
            if (line.isEmpty() || line.startsWith("--")) {
                continue;
            }
            String upper = line.toUpperCase(Locale.ROOT);
            if (current.length() == 0 && upper.startsWith("CREATE TRIGGER")) {
                inTrigger = true;
            }
            current.append(rawLine).append('\n');
            boolean ends = inTrigger ? upper.equals("END;") : line.endsWith(";");
            if (ends) {
                statements.add(current.toString().strip());
                current.setLength(0);
                inTrigger = false;
            }
        }
        if (current.toString().strip().length() > 0) {
            throw new IllegalArgumentException("script ends inside a statement: " + current);
        }
        return statements;
    }
}
