package org.claimdesk.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/**
 * The secondary indexes of some tables, set aside inside a transaction that writes many rows into them and built
 * again before it commits. SQLite builds an index over rows already written by sorting its keys, where keeping it
 * up row by row inserts keys that arrive in no order (claimant names, property ids, audit subjects) into a tree
 * larger than the page cache, reading and writing a page for almost every one. The indexes SQLite makes for
 * primary keys and {@code UNIQUE} constraints stay in place: they check each row as it comes.
 *
 * <p>Everything happens inside the caller's transaction: other connections go on reading the indexes as they were
 * committed, and a load that fails rolls back with its transaction, the indexes as they were. On PostgreSQL nothing
 * is set aside: dropping an index there locks its table against the other workstations' reads for the whole load.
 */
final class DeferredIndexes {
    private final Handle transaction;
    /** The indexes set aside, each with the statement that creates it, in the schema's order. */
    private final List<Map.Entry<String, String>> indexes;
    private boolean built;

    private DeferredIndexes(Handle transaction, List<Map.Entry<String, String>> indexes) {
        this.transaction = transaction;
        this.indexes = indexes;
    }

    /** Drops the secondary indexes of {@code tables} inside the caller's transaction, until {@link #build}. */
    static DeferredIndexes setAside(Handle transaction, List<String> tables) {
        if (!transaction.isInTransaction()) {
            throw new IllegalStateException("indexes are set aside only inside a transaction");
        }
        List<Map.Entry<String, String>> indexes = new ArrayList<>();
        if (Dialect.of(transaction) == Dialect.SQLITE) {
            for (String table : tables) {
                transaction.createQuery("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = :table"
                        + " AND sql IS NOT NULL ORDER BY rowid")
                        .bind("table", table)
                        .map((rs, ctx) -> Map.entry(rs.getString("name"), rs.getString("sql")))
                        .forEach(indexes::add);
            }
            for (Map.Entry<String, String> index : indexes) {
                transaction.execute("DROP INDEX \"" + index.getKey() + "\"");
            }
        }
        return new DeferredIndexes(transaction, List.copyOf(indexes));
    }

    /** The names of the indexes set aside. */
    List<String> names() {
        return indexes.stream().map(Map.Entry::getKey).toList();
    }

    /** Creates the indexes set aside again, as the schema defines them, over the rows written since. */
    void build() {
        if (built) {
            throw new IllegalStateException("the deferred indexes are already built");
        }
        built = true;
        for (Map.Entry<String, String> index : indexes) {
            transaction.execute(index.getValue());
        }
    }
}
