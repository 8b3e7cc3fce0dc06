package org.claimdesk.store;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;

/**
 * The claims' trigram search indexes ({@code claim_search}, schema version 3, and {@code claim_case_search},
 * version 9) during a bulk load. Kept up row by row by their insert triggers while other tables are written in
 * between, the indexes cost a bulk load far more than indexing its claims in one statement per index does
 * (docs/benchmarks.md, demo data and import). One statement for the whole load also beats one per batch: each
 * statement writes the index segments of its own claims, which the index then merges.
 */
public final class SearchIndex {
    /**
     * The memory, in bytes, each index gathers terms in while it indexes the appended claims, before it writes them
     * out as a segment of the index: 64 MiB against SQLite's default of 1 MiB. At 1,000,000 claims the claim index
     * then takes about 10 s instead of 17 (docs/benchmarks.md), fewer and larger segments being written and merged.
     */
    static final int APPEND_HASH_BYTES = 64 << 20;
    /** SQLite's own size of that memory, put back once the appended claims are indexed. */
    static final int DEFAULT_HASH_BYTES = 1 << 20;

    /**
     * A search index of the claims: its table, the trigger that adds a new claim to it, and the statement that adds
     * the claims above an id in one go.
     */
    private record Index(String table, String insertTrigger, String appendClaimsAbove) {
    }

    private static final List<Index> INDEXES = List.of(
            new Index("claim_search", "claim_search_insert", """
                    INSERT INTO claim_search (rowid, claim_number, claimant_name, state_property_id)
                    SELECT claim_id, claim_number, claimant_name, state_property_id FROM claim WHERE claim_id > ?"""),
            new Index("claim_case_search", "claim_case_search_insert", """
                    INSERT INTO claim_case_search (rowid, state_case_id)
                    SELECT claim_id, state_case_id FROM claim WHERE claim_id > ?"""));

    private final Handle transaction;
    private final long before;
    /** The indexes whose insert triggers are set aside, each with its trigger's statement; empty on PostgreSQL. */
    private final Map<Index, String> triggers = new LinkedHashMap<>();
    private boolean indexed;

    private SearchIndex(Handle transaction, long before) {
        this.transaction = transaction;
        this.before = before;
    }

    /**
     * Runs {@code load}, which inserts claims and nothing else into {@code claim}, inside the caller's transaction
     * with the insert triggers set aside; then indexes the claims it inserted in one statement per index and puts
     * the triggers back ({@link #setAside}, {@link #indexAppended}).
     */
    public static <R> R append(Handle transaction, Supplier<R> load) {
        SearchIndex index = setAside(transaction);
        R result = load.get();
        index.indexAppended();
        return result;
    }

    /**
     * Sets the insert triggers aside inside the caller's transaction, until {@link #indexAppended}. Between the two,
     * the transaction may insert claims, but must not update or delete one: the other triggers, still in place,
     * would take out of the indexes what was not yet put in. A failure rolls all of it back with the transaction,
     * triggers included. On PostgreSQL nothing is set aside: its trigram index is an index of the claim table,
     * kept by every insert.
     */
    public static SearchIndex setAside(Handle transaction) {
        if (!transaction.isInTransaction()) {
            throw new IllegalStateException("appending claims to the search index must run inside a transaction");
        }
        if (Dialect.of(transaction) != Dialect.SQLITE) {
            return new SearchIndex(transaction, 0);
        }
        long before = transaction.createQuery("SELECT coalesce(max(claim_id), 0) FROM claim").mapTo(Long.class).one();
        SearchIndex index = new SearchIndex(transaction, before);
        for (Index searchIndex : INDEXES) {
            index.triggers.put(searchIndex, transaction.createQuery(
                    "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = :name")
                    .bind("name", searchIndex.insertTrigger()).mapTo(String.class).one());
            transaction.execute("DROP TRIGGER " + searchIndex.insertTrigger());
        }
        return index;
    }

    /**
     * Indexes every claim inserted since {@link #setAside} (every claim above the highest claim id before it: the
     * ids SQLite gives, or ids set from that highest one up) in one statement per index, and puts the triggers back.
     * The cost is that of those claims, whatever the size of the table.
     */
    public void indexAppended() {
        if (indexed) {
            throw new IllegalStateException("the appended claims are already indexed");
        }
        indexed = true;
        for (Map.Entry<Index, String> trigger : triggers.entrySet()) {
            Index index = trigger.getKey();
            hashSize(index.table(), APPEND_HASH_BYTES);
            transaction.execute(index.appendClaimsAbove(), before);
            hashSize(index.table(), DEFAULT_HASH_BYTES);
            transaction.execute(trigger.getValue());
        }
    }

    /** Sets the memory {@code table} gathers terms in (FTS5's {@code hashsize}); kept in the index's configuration. */
    private void hashSize(String table, int bytes) {
        transaction.execute("INSERT INTO " + table + " (" + table + ", rank) VALUES ('hashsize', ?)", bytes);
    }
}
