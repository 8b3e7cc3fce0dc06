package org.claimdesk.testing;

import org.claimdesk.store.Database;

/** One-value queries for assertions. */
public final class Sql {
    private Sql() {
    }

    public static <T> T scalar(Database db, String sql, Class<T> type) {
        return db.read(h -> h.createQuery(sql).mapTo(type).one());
    }

    public static int count(Database db, String table) {
        return scalar(db, "SELECT count(*) FROM " + table, Integer.class);
    }
}
