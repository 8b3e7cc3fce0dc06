package org.claimdesk.store;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;

/**
 * The claims' trigram search indexes ({@code claim_search}, schema version 3, and {@code claim_case_search},
 * version 9) during a bulk load. Kept up row by row by their insert triggers while other tables are written in
 * between, the indexes cost a bulk load far more than indexing each batch of claims in one statement does
 * (docs/benchmarks.md, demo data and import).
 */
public final class SearchIndex {
    /** Each index's insert trigger, and the statement that indexes the claims above an id in one go. */
    private static final Map<String, String> INDEXES = new LinkedHashMap<>();

    static {
        INDEXES.put("claim_search_insert", """
                INSERT INTO claim_search (rowid, claim_number, claimant_name, state_property_id)
                SELECT claim_id, claim_number, claimant_name, state_property_id FROM claim WHERE claim_id > ?""");
        INDEXES.put("claim_case_search_insert", """
                INSERT INTO claim_case_search (rowid, state_case_id)
                SELECT claim_id, state_case_id FROM claim WHERE claim_id > ?""");
    }

    private SearchIndex() {
    }

    /**
     * Runs {@code load}, which inserts claims and nothing else into {@code claim}, inside the caller's transaction
     * with the insert triggers set aside; then indexes the claims it inserted in one statement per index (every
     * claim above the highest claim id before it: the ids SQLite gives, or ids set from that highest one up) and
     * puts the triggers back. The cost of a batch is that of its own claims, whatever the size of the table. A
     * failure rolls all of it back with the transaction, triggers included. {@code load} must not update or delete
     * a claim: the other triggers, still in place, would take out of the indexes what was not yet put in.
     */
    public static <R> R append(Handle transaction, Supplier<R> load) {
        if (!transaction.isInTransaction()) {
            throw new IllegalStateException("appending claims to the search index must run inside a transaction");
        }
        if (Dialect.of(transaction) != Dialect.SQLITE) {
            // PostgreSQL's trigram indexes are indexes of the claim table, kept by every insert
            return load.get();
        }
        long before = transaction.createQuery("SELECT coalesce(max(claim_id), 0) FROM claim").mapTo(Long.class).one();
        Map<String, String> triggers = new LinkedHashMap<>();
        for (String name : INDEXES.keySet()) {
            triggers.put(name, transaction.createQuery(
                    "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = :name")
                    .bind("name", name).mapTo(String.class).one());
            transaction.execute("DROP TRIGGER " + name);
        }
        R result = load.get();
        for (Map.Entry<String, String> index : INDEXES.entrySet()) {
            transaction.execute(index.getValue(), before);
            transaction.execute(triggers.get(index.getKey()));
        }
        return result;
    }
}
