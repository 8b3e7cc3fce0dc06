package org.claimdesk.store;

import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.claimdesk.domain.ClaimKey;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.JdbiException;

/**
 * The claim keys a dry run of an import has already counted, each with a small stand-in for the row's values (a
 * fingerprint), kept in a temporary table of a connection of its own: on disk through SQLite's bounded page cache,
 * not in the heap, so that a dry run of a file of millions of rows runs in bounded memory. Nothing is written to the
 * database itself; the table goes with the connection when this is closed. Not thread-safe.
 */
public final class SeenKeys implements AutoCloseable {
    /** The temporary table, named so that both engines look for it among the connection's temporary tables. */
    private static final String TABLE = "seen_key";

    private final Database database;
    private final Handle handle;

    private SeenKeys(Database database) {
        this.database = database;
        try {
            handle = database.jdbi().open();
            boolean sqlite = Dialect.of(handle) == Dialect.SQLITE;
            handle.execute("DROP TABLE IF EXISTS " + TABLE);
            handle.execute("""
                    CREATE TEMP TABLE seen_key (jurisdiction TEXT NOT NULL, state_property_id TEXT NOT NULL,
                        claimant_name TEXT NOT NULL, fingerprint TEXT NOT NULL,
                        PRIMARY KEY (state_property_id, jurisdiction, claimant_name))""" + (sqlite ? " WITHOUT ROWID" : ""));
        } catch (JdbiException e) {
            throw database.translated(e);
        }
    }

    public static SeenKeys open(Database database) {
        return new SeenKeys(database);
    }

    /** The fingerprints of those of {@code keys} already added, in one query. */
    public Map<ClaimKey, long[]> find(Collection<ClaimKey> keys) {
        Map<ClaimKey, long[]> found = new HashMap<>();
        if (keys.isEmpty()) {
            return found;
        }
        HashSet<ClaimKey> wanted = new HashSet<>(keys);
        try {
            handle.createQuery("""
                    SELECT * FROM %s
                    WHERE %s""".formatted(TABLE, Dialect.of(handle).inList("state_property_id", "ids", false)))
                    .bind("ids", Json.write(wanted.stream().map(ClaimKey::statePropertyId).distinct().toList()))
                    .map((rs, ctx) -> Map.entry(new ClaimKey(rs.getString("jurisdiction"),
                            rs.getString("state_property_id"), rs.getString("claimant_name")),
                            fingerprint(rs.getString("fingerprint"))))
                    .forEach(e -> {
                        if (wanted.contains(e.getKey())) {
                            found.put(e.getKey(), e.getValue());
                        }
                    });
        } catch (JdbiException e) {
            throw database.translated(e);
        }
        return found;
    }

    /** Remembers {@code keys} with their fingerprints; none of them may be present already. */
    public void add(Map<ClaimKey, long[]> keys) {
        if (keys.isEmpty()) {
            return;
        }
        // no transaction: one of this connection would take the database's write lock, which a dry run must not;
        // each multi-row statement writes the temporary table alone
        try (MultiRowStatement insert = new MultiRowStatement(handle.getConnection(), """
                INSERT INTO seen_key (jurisdiction, state_property_id, claimant_name, fingerprint)
                VALUES %s""", 0, 4)) {
            insert.run(List.copyOf(keys.entrySet()), null, (ps, p, e) -> {
                ps.setString(p, e.getKey().jurisdiction());
                ps.setString(p + 1, e.getKey().statePropertyId());
                ps.setString(p + 2, e.getKey().claimant());
                ps.setString(p + 3, text(e.getValue()));
            }, null);
        } catch (SQLException e) {
            throw new DatabaseException("cannot remember the rows a dry run counted: " + e.getMessage(), e);
        }
    }

    private static String text(long[] fingerprint) {
        StringBuilder text = new StringBuilder(fingerprint.length * 17);
        for (int i = 0; i < fingerprint.length; i++) {
            text.append(i == 0 ? "" : ",").append(fingerprint[i]);
        }
        return text.toString();
    }

    private static long[] fingerprint(String text) {
        String[] parts = text.split(",");
        long[] fingerprint = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            fingerprint[i] = Long.parseLong(parts[i]);
        }
        return fingerprint;
    }

    @Override
    public void close() {
        try {
            handle.execute("DROP TABLE IF EXISTS " + TABLE);
        } catch (RuntimeException e) {
            // the table goes with the connection's temporary database anyway
        }
        handle.close();
    }
}
