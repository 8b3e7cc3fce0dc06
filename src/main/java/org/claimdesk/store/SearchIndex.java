package org.claimdesk.store;

import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;

/**
 * The claims' trigram search index ({@code claim_search}, schema version 3) during a bulk load. Kept up row
 * by row by its insert trigger while other tables are written in between, the index costs a bulk load far
 * more than indexing each batch of claims in one statement does (docs/benchmarks.md, demo data and import).
 */
public final class SearchIndex {
    private static final String INSERT_TRIGGER = "claim_search_insert";

    private SearchIndex() {
    }

    /**
     * Runs {@code load}, which inserts claims and nothing else into {@code claim}, inside the caller's transaction
     * with the insert trigger set aside; then indexes in one statement the claims it inserted (every claim above
     * the highest claim id before it: the ids SQLite gives, or ids set from that highest one up) and puts the
     * trigger back. The cost of a batch is that of its own claims, whatever the size of the table. A failure
     * rolls all of it back with the transaction, trigger included. {@code load} must not update or delete a
     * claim: the other triggers, still in place, would take out of the index what was not yet put in.
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
        String trigger = transaction.createQuery("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = :name")
                .bind("name", INSERT_TRIGGER).mapTo(String.class).one();
        transaction.execute("DROP TRIGGER " + INSERT_TRIGGER);
        R result = load.get();
        transaction.execute("""
                INSERT INTO claim_search (rowid, claim_number, claimant_name, state_property_id)
                SELECT claim_id, claim_number, claimant_name, state_property_id FROM claim WHERE claim_id > ?""",
                before);
        transaction.execute(trigger);
        return result;
    }
}
