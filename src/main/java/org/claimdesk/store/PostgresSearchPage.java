package org.claimdesk.store;

import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/**
 * PostgreSQL's read of one page of a text search in id order ({@code search}: {@link PostgresSearchText}). The
 * planner cannot tell how many claims contain a text (pg_trgm guesses thousands for "48213", which 83 claims
 * contain), so left to itself it either walks the claims in id order testing each one (every claim for a rare
 * text) or collects every match from the trigram index (about 0.3 s for a text 100,000 claims contain). This read
 * does both, each where it is cheap:
 * <ol>
 * <li>the claims in id order, up to a window of {@value #WINDOW} claims past the page's reach: a text found in
 * one claim in a hundred fills its page there (about 20 ms for the whole window at 1,000,000 claims);</li>
 * <li>when the window does not hold the page's reach of matches, the matches from the trigram index (a rarer
 * text, so fewer of them), sorted.</li>
 * </ol>
 * Each step fixes its plan for its own statements (planner settings local to the transaction, reset after).
 */
final class PostgresSearchPage {
    /** Claims the first step tests at most beyond the page's reach. */
    static final int WINDOW = 20_000;

    private PostgresSearchPage() {
    }

    /**
     * @param search the search clause (its bindings in {@code bindings})
     * @param others the other filters joined by AND, or empty
     */
    static List<Long> ids(Handle handle, String search, String others, Map<String, Object> bindings,
            boolean descending, int offset, int limit, int window) {
        return handle.inTransaction(h -> {
            int reach = offset + limit;
            String direction = descending ? " DESC" : " ASC";
            Long bound = h.createQuery("SELECT claim_id FROM claim ORDER BY claim_id" + direction
                    + " OFFSET :skip LIMIT 1").bind("skip", (long) window + reach - 1).mapTo(Long.class)
                    .findOne().orElse(null);
            String filters = search + (others.isEmpty() ? "" : " AND " + others);
            List<Long> inWindow;
            try {
                h.execute("SET LOCAL enable_bitmapscan = off");
                String range = bound == null ? "" : " AND claim_id " + (descending ? ">=" : "<=") + " :bound";
                Query q = h.createQuery("SELECT claim_id FROM claim WHERE " + filters + range + " ORDER BY claim_id"
                        + direction + " LIMIT :reach").bind("reach", reach);
                if (bound != null) {
                    q.bind("bound", bound);
                }
                bindings.forEach(q::bind);
                inWindow = q.mapTo(Long.class).list();
            } finally {
                h.execute("RESET enable_bitmapscan");
            }
            if (bound == null || inWindow.size() == reach) {
                // every claim up to the page's end was tested: the page is exact
                return inWindow.subList(Math.min(offset, inWindow.size()), inWindow.size());
            }
            try {
                h.execute("SET LOCAL enable_indexscan = off");
                h.execute("SET LOCAL enable_seqscan = off");
                Query q = h.createQuery("SELECT claim_id FROM claim WHERE " + filters + " ORDER BY claim_id" + direction
                        + " LIMIT :limit OFFSET :offset").bind("limit", limit).bind("offset", offset);
                bindings.forEach(q::bind);
                return q.mapTo(Long.class).list();
            } finally {
                h.execute("RESET enable_indexscan");
                h.execute("RESET enable_seqscan");
            }
        });
    }
}
