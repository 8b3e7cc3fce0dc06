package org.claimdesk.store;

import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.SqlStatements;

/**
 * What differs between the two engines a ClaimDesk database lives on, in SQL the stores write: SQLite (a file per
 * desk) and PostgreSQL (team mode). Everything else is written once, in SQL both accept. A store finds the dialect
 * of the database it works on through its handle ({@link #of}); {@link Database} defines it when it opens.
 */
enum Dialect {
    SQLITE {
        @Override
        String like(String column, String parameter) {
            // SQLite's LIKE ignores the case of ASCII letters
            return column + " LIKE :" + parameter + " ESCAPE '!'";
        }

        @Override
        String inListAt(String column, String placeholder, boolean numbers) {
            return column + " IN (SELECT value FROM json_each(" + placeholder + "))";
        }

        @Override
        String greatest(String a, String b) {
            return "max(" + a + ", " + b + ")";
        }

        @Override
        String outboxOfJurisdiction(boolean failedOnly) {
            // without statistics SQLite starts from the delivery state's index when a state is asked for too, and
            // reads every row in that state from the table to find its claim. The failed rows, few, are read from
            // their claims' index (schema version 19) and each claim probed in the jurisdiction's; the hints keep
            // SQLite from reading each claim's row by its key instead
            return failedOnly ? "outbox_event o INDEXED BY outbox_failed_claim_idx CROSS JOIN claim c INDEXED BY"
                    + " claim_jurisdiction_idx ON c.claim_id = o.aggregate_id"
                    : "claim c CROSS JOIN outbox_event o ON o.aggregate_id = c.claim_id";
        }

        @Override
        String lockRows() {
            return "";
        }

        @Override
        String leaseClock() {
            return null;
        }

        @Override
        String lockRow() {
            return "";
        }

        @Override
        String claimantOrder() {
            return "claimant_name COLLATE NOCASE";
        }

        @Override
        String nullsAsSqlite(boolean descending) {
            return "";
        }

        @Override
        String overdueClaims() {
            // without statistics SQLite reads every awaiting claim through the status index (a lookup of each of the
            // two statuses rates better than the due date's range) and each from the table to test its due date
            return "claim INDEXED BY claim_overdue_idx";
        }

        @Override
        String statusGroup(boolean searching) {
            // With a text search, "+status" keeps SQLite from walking the status index and testing every row
            // against the search: the search's own matches are counted (found in the trigram index, or for a
            // short text in one pass over the table). Without a search the status index alone answers.
            return searching ? "+status" : "status";
        }

        @Override
        void search(String text, List<String> clauses, List<Object[]> bindings) {
            if (Trigrams.indexable(text)) {
                // the trigram indexes: number, claimant and property id in one, case ids in the other
                clauses.add("claim_id IN (SELECT rowid FROM claim_search WHERE claim_search MATCH :phrase"
                        + " UNION ALL SELECT rowid FROM claim_case_search WHERE claim_case_search MATCH :phrase)");
                bindings.add(new Object[] {"phrase", Trigrams.phrase(text)});
            } else {
                clauses.add(anyColumnLike());
            }
        }

        @Override
        List<Long> searchedPage(Handle handle, String text, String otherClauses, Map<String, Object> bindings,
                boolean descending, int offset, int limit) {
            org.jdbi.v3.core.statement.Query query = handle.createQuery(
                    sqliteSearchedPageIds(otherClauses, descending, offset, limit)).bind("phrase", Trigrams.phrase(text));
            bindings.forEach(query::bind);
            return query.mapTo(Long.class).list();
        }

        @Override
        void afterExplicitIds(Handle handle, String table, String idColumn) {
            // an INTEGER PRIMARY KEY takes the next id above the largest by itself
        }

        @Override
        List<Long> newIds(Handle handle, String table, String idColumn, int count) {
            // the ids SQLite would give, from the highest present up: one writer at a time holds the file
            long first = handle.createQuery("SELECT coalesce(max(" + idColumn + "), 0) + 1 FROM " + table)
                    .mapTo(Long.class).one();
            return java.util.stream.LongStream.range(first, first + count).boxed().toList();
        }
    },

    POSTGRESQL {
        @Override
        String like(String column, String parameter) {
            return column + " ILIKE :" + parameter + " ESCAPE '!'";
        }

        @Override
        String inListAt(String column, String placeholder, boolean numbers) {
            String values = "SELECT jsonb_array_elements_text(CAST(" + placeholder + " AS jsonb))";
            // ids as an array, not a sub-select: the planner counts an unknown array as 10 values, a set-returning
            // function as 100, and with 100 it read a table of a few thousand rows whole rather than each listed row by
            // its key. Texts stay a sub-select, which the server can hash: an array it did not get as a constant is
            // searched value by value for each row, and a list of error texts is matched against rows no index serves
            return numbers ? column + " = ANY(ARRAY(" + values + "::bigint))" : column + " IN (" + values + ")";
        }

        @Override
        String greatest(String a, String b) {
            return "greatest(" + a + ", " + b + ")";
        }

        @Override
        String outboxOfJurisdiction(boolean failedOnly) {
            return "outbox_event o JOIN claim c ON c.claim_id = o.aggregate_id";
        }

        @Override
        String lockRows() {
            return " FOR UPDATE SKIP LOCKED";
        }

        @Override
        String leaseClock() {
            return "CAST(extract(epoch FROM statement_timestamp()) * 1000 AS bigint)";
        }

        @Override
        String lockRow() {
            return " FOR UPDATE";
        }

        @Override
        String claimantOrder() {
            return "lower(claimant_name)";
        }

        @Override
        String nullsAsSqlite(boolean descending) {
            return descending ? " NULLS LAST" : " NULLS FIRST";
        }

        @Override
        String overdueClaims() {
            return "claim";
        }

        @Override
        String statusGroup(boolean searching) {
            return "status";
        }

        @Override
        void search(String text, List<String> clauses, List<Object[]> bindings) {
            // three characters or more are looked up in the trigram index; shorter texts scan, as on SQLite
            clauses.add(PostgresSearchText.clause(text, bindings, anyColumnLike()));
        }

        @Override
        List<Long> searchedPage(Handle handle, String text, String otherClauses, Map<String, Object> bindings,
                boolean descending, int offset, int limit) {
            Map<String, Object> all = new java.util.LinkedHashMap<>(bindings);
            List<Object[]> words = new java.util.ArrayList<>();
            String clause = PostgresSearchText.clause(text, words, anyColumnLike());
            words.forEach(w -> all.put((String) w[0], w[1]));
            all.put("search", Like.contains(text));
            return PostgresSearchPage.ids(handle, clause, otherClauses, all, descending, offset, limit,
                    PostgresSearchPage.WINDOW);
        }

        @Override
        List<Long> newIds(Handle handle, String table, String idColumn, int count) {
            // taken from the table's identity sequence: another workstation inserting at the same time gets others
            return handle.createQuery("SELECT nextval(pg_get_serial_sequence('" + table + "', '" + idColumn + "'))"
                    + " FROM generate_series(1, :count)").bind("count", count).mapTo(Long.class).list();
        }

        @Override
        void requireExplicitIds(Handle handle, String table, String idColumn, String doing) {
            boolean may = handle.createQuery("SELECT has_sequence_privilege(pg_get_serial_sequence('" + table + "', '"
                    + idColumn + "'), 'UPDATE')").mapTo(Boolean.class).one();
            if (!may) {
                String role = handle.createQuery("SELECT current_user").mapTo(String.class).one();
                throw new DatabaseException("the role " + role + " may not " + doing + " on this team database: it"
                        + " writes rows with their ids and sets the id sequences after them, which the owner role"
                        + " does; run it as the owner role (docs/operations.md: server and database); nothing was"
                        + " written");
            }
        }

        @Override
        void afterExplicitIds(Handle handle, String table, String idColumn) {
            handle.createQuery("SELECT setval(pg_get_serial_sequence('" + table + "', '" + idColumn + "'),"
                    + " greatest((SELECT max(" + idColumn + ") FROM " + table + "), 1))").mapTo(Long.class).one();
        }
    };

    /** The handle attribute under which a database's dialect is defined. */
    static final String ATTRIBUTE = "claimdesk.dialect";

    /** The dialect of the database {@code handle} works on. */
    static Dialect of(Handle handle) {
        Object dialect = handle.getConfig(SqlStatements.class).getAttribute(ATTRIBUTE);
        return dialect instanceof Dialect d ? d : SQLITE;
    }

    /** {@code column} contains the pattern bound to {@code parameter} (a {@link Like} pattern), ignoring case. */
    abstract String like(String column, String parameter);

    /**
     * {@code column} is one of the values of the JSON array bound to {@code parameter} (numbers, or strings when
     * {@code numbers} is false).
     */
    final String inList(String column, String parameter, boolean numbers) {
        return inListAt(column, ":" + parameter, numbers);
    }

    /** The same for a JDBC statement's next positional parameter. */
    final String inList(String column, boolean numbers) {
        return inListAt(column, "?", numbers);
    }

    /** {@code column} is one of the values of the JSON array bound at {@code placeholder}. */
    abstract String inListAt(String column, String placeholder, boolean numbers);

    /** The larger of two values. */
    abstract String greatest(String a, String b);

    /**
     * The {@code FROM} of outbox rows {@code o} with their claims {@code c}, for rows narrowed to a jurisdiction: read
     * from the jurisdiction's claims ({@code claim_jurisdiction_idx}) and each claim's rows with their delivery state
     * ({@code outbox_aggregate_idx}), both indexes alone, whatever else narrows the rows; the failed rows only, when
     * they are few ({@code failedOnly}, asked on SQLite only: the statement names the state as the literal {@code
     * 'failed'}, which the failed rows' own index needs when the statement is prepared), from that index ({@code
     * outbox_failed_claim_idx}).
     */
    abstract String outboxOfJurisdiction(boolean failedOnly);

    /** What a lease's sub-select of due rows ends with: rows another worker is leasing now are skipped. */
    abstract String lockRows();

    /**
     * The clock leases are kept in, as an expression in epoch milliseconds: on a team database the server's, which
     * every workstation's worker reads alike whatever its own clock says; null on a file, whose workers share one
     * machine's clock and give it as a parameter.
     */
    abstract String leaseClock();

    /**
     * What a read of a row about to be written ends with: the row stays as read until the transaction ends (on
     * SQLite the transaction already holds the database's one write lock).
     */
    abstract String lockRow();

    /** The expression the claimant sort orders by: the name ignoring case. */
    abstract String claimantOrder();

    /** What an {@code ORDER BY} term needs so that nulls come where SQLite puts them (first ascending). */
    abstract String nullsAsSqlite(boolean descending);

    /**
     * The claims' table in a read of the overdue claims narrowed by nothing else but their status (their total, their
     * counts per status, a page by due date): one that reads them from the index of the claims awaiting a decision by
     * due date (schema version 22) alone. PostgreSQL's planner picks that index itself.
     */
    abstract String overdueClaims();

    /** The {@code GROUP BY} term of the per-status counts. */
    abstract String statusGroup(boolean searching);

    /**
     * The query of the outbox's rows per delivery state (columns: the state, its rows) from the tally the outbox's
     * triggers keep, a few rows whatever the outbox holds: on a team database summed from the rows its writers added
     * (schema version 12), on a file one row per state (version 16).
     */
    String outboxCountsQuery() {
        return this == POSTGRESQL ? "SELECT delivery_state, n FROM claimdesk_outbox_counts()"
                : "SELECT delivery_state, n FROM outbox_state_tally WHERE n <> 0";
    }

    /**
     * The query of the database's own triggers (columns: the name, whether it fires), not the engine's internal ones:
     * on a server a trigger disabled ('D') or firing only for replication ('R') does not fire for staff's writes.
     */
    String triggersQuery() {
        return this == POSTGRESQL
                ? "SELECT t.tgname AS name, t.tgenabled IN ('O', 'A') AS fires FROM pg_trigger t"
                        + " JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace"
                        + " WHERE NOT t.tgisinternal AND n.nspname = current_schema()"
                : "SELECT name, 1 AS fires FROM sqlite_master WHERE type = 'trigger'";
    }

    /**
     * The query of the claims per status (columns: the status, its claims) when no filter narrows them, from the
     * tally the claim table's triggers keep: on a team database schema version 13's, on a file version 16's.
     */
    String claimCountsQuery() {
        return this == POSTGRESQL ? "SELECT status, n FROM claimdesk_claim_counts()"
                : "SELECT status, n FROM claim_status_tally WHERE n <> 0";
    }

    /** The claims per status, counted claim by claim (either engine). */
    static final String CLAIMS_PER_STATUS = "SELECT status, count(*) AS n FROM claim GROUP BY status";

    /** The outbox's rows per delivery state, counted row by row (either engine). */
    static final String OUTBOX_ROWS_PER_STATE =
            "SELECT delivery_state, count(*) AS n FROM outbox_event GROUP BY delivery_state";

    /** Adds the clause (and its bindings besides {@code :search}) of a text search for {@code text}. */
    abstract void search(String text, List<String> clauses, List<Object[]> bindings);

    /**
     * The ids of one page of claims in id order that contain {@code text} (indexable: {@link Trigrams#indexable})
     * and match {@code otherClauses} (the page's other filters joined by AND, possibly empty, naming the claim's
     * columns unqualified, with their {@code bindings}), read this engine's own way rather than by collecting
     * every match first; in id order, {@code descending} or not.
     */
    abstract List<Long> searchedPage(Handle handle, String text, String otherClauses, Map<String, Object> bindings,
            boolean descending, int offset, int limit);

    /**
     * SQLite's query of such a page ({@code :phrase} the text as {@link Trigrams#phrase}): each trigram index hands
     * its matches in id order and is read only as far as the page's end, so a text that 100,000 claims contain
     * reads a few hundred of them, not all. CROSS JOIN keeps the index the outer loop, so the claims' other
     * filters are tested on its matches as they come.
     */
    static String sqliteSearchedPageIds(String otherClauses, boolean descending, int offset, int limit) {
        String direction = descending ? " DESC" : " ASC";
        int reach = offset + limit;
        StringBuilder ids = new StringBuilder();
        for (String index : new String[] {"claim_search", "claim_case_search"}) {
            ids.append(ids.isEmpty() ? "" : " UNION ")
                    .append("SELECT claim_id FROM (SELECT claim.claim_id FROM ").append(index)
                    .append(" CROSS JOIN claim ON claim.claim_id = ").append(index).append(".rowid WHERE ")
                    .append(index).append(" MATCH :phrase")
                    .append(otherClauses.isEmpty() ? "" : " AND " + otherClauses)
                    .append(" ORDER BY ").append(index).append(".rowid").append(direction)
                    .append(" LIMIT ").append(reach).append(')');
        }
        return ids.append(" ORDER BY claim_id").append(direction).append(" LIMIT ").append(limit)
                .append(" OFFSET ").append(offset).toString();
    }

    /**
     * Makes the caller's transaction the only one doing {@code what} until it ends: a no-op on SQLite, where one
     * writer at a time holds the file; on PostgreSQL a transaction-scoped advisory lock.
     */
    void serialize(Handle handle, String what) {
        if (this == POSTGRESQL) {
            handle.createQuery("SELECT pg_advisory_xact_lock(hashtext(:what))").bind("what", what)
                    .mapTo(String.class).one();
        }
    }

    /** {@code count} ids for new rows of {@code table}, which no other transaction will use. */
    abstract List<Long> newIds(Handle handle, String table, String idColumn, int count);

    /** After rows were written with their ids given, makes the next id the database assigns come after them. */
    abstract void afterExplicitIds(Handle handle, String table, String idColumn);

    /**
     * Refuses, before anything is written, a role that may not do {@link #afterExplicitIds} on {@code table} ({@code
     * doing}: "load demo data"): on a team database only the owner role may set an id sequence, and a load refused
     * only there would have written every row first, to roll them all back.
     */
    void requireExplicitIds(Handle handle, String table, String idColumn, String doing) {
    }

    String anyColumnLike() {
        return "(" + like("claim_number", "search") + " OR " + like("claimant_name", "search") + " OR "
                + like("state_property_id", "search") + " OR " + like("state_case_id", "search") + ")";
    }
}
