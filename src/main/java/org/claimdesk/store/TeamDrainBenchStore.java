package org.claimdesk.store;

import java.util.HashMap;
import java.util.Map;
import org.claimdesk.domain.ClaimStatus;

/**
 * The SQL of {@code bench drain --db URL} beyond the seeding it shares with the other benchmarks
 * ({@link BenchmarkStore#seedSubmitting}): emptying the team database it was given between and after its runs, and
 * reading back what the workers left, so that the bench can check it. Nothing in the product calls it.
 */
public final class TeamDrainBenchStore {
    /** The tables the bench writes (seeding and draining), children first. */
    private static final String[] WRITTEN = {"delivery_attempt", "outbox_event", "claim_status_history", "claim"};

    private TeamDrainBenchStore() {
    }

    /**
     * Deletes what a bench run wrote: attempts, outbox rows, status history and claims. The bench runs only on a
     * database that held none of these (and no audit entry) when it started.
     */
    public static void clear(Database db) {
        db.useTransaction(h -> {
            for (String table : WRITTEN) {
                h.execute("DELETE FROM " + table);
            }
        });
    }

    /**
     * What a drain left in the database.
     *
     * @param claimByKey every outbox row's idempotency key and the claim it belongs to
     * @param caseIdBySentClaim the case id recorded on each sent row, by claim
     * @param rowsPerClaimMax the most outbox rows any one claim has (1: one key per claim)
     * @param submittedClaims claims in SUBMITTED_TO_STATE
     * @param historyEntries status history entries into SUBMITTED_TO_STATE
     * @param attempts delivery attempts recorded
     * @param attemptWorkers distinct workers named on the attempts
     * @param attemptEndsMs when each attempt's call ended (its start plus its duration), in ms since the epoch, in
     *        ascending order
     * @param callMs each attempt's call duration in ms, in ascending order
     */
    public record Tally(long pending, long sent, long failed, Map<String, Long> claimByKey,
            Map<Long, String> caseIdBySentClaim, long rowsPerClaimMax, long submittedClaims, long historyEntries,
            long attempts, long attemptWorkers, long[] attemptEndsMs, long[] callMs) {
    }

    public static Tally tally(Database db) {
        return db.read(h -> {
            Map<String, Long> claimByKey = new HashMap<>();
            Map<Long, String> caseIds = new HashMap<>();
            long[] byState = new long[3];
            h.createQuery("SELECT idempotency_key, aggregate_id, delivery_state, state_case_id FROM outbox_event")
                    .map((rs, ctx) -> {
                        claimByKey.put(rs.getString(1), rs.getLong(2));
                        switch (rs.getString(3)) {
                            case "pending" -> byState[0]++;
                            case "sent" -> {
                                byState[1]++;
                                caseIds.put(rs.getLong(2), rs.getString(4));
                            }
                            case "failed" -> byState[2]++;
                            default -> {
                                // abandoned or superseded: the bench seeds neither
                            }
                        }
                        return 1;
                    }).list();
            long rowsPerClaimMax = h.createQuery("""
                    SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM outbox_event GROUP BY aggregate_id) AS c""")
                    .mapTo(Long.class).one();
            String submitted = ClaimStatus.SUBMITTED_TO_STATE.name();
            long submittedClaims = h.createQuery("SELECT count(*) FROM claim WHERE status = :s").bind("s", submitted)
                    .mapTo(Long.class).one();
            long history = h.createQuery("SELECT count(*) FROM claim_status_history WHERE to_status = :s")
                    .bind("s", submitted).mapTo(Long.class).one();
            long attempts = h.createQuery("SELECT count(*) FROM delivery_attempt").mapTo(Long.class).one();
            long workers = h.createQuery("SELECT count(DISTINCT worker_id) FROM delivery_attempt").mapTo(Long.class)
                    .one();
            long[] ends = h.createQuery("SELECT started_at + duration_ms FROM delivery_attempt ORDER BY 1")
                    .mapTo(Long.class).stream().mapToLong(Long::longValue).toArray();
            long[] calls = h.createQuery("SELECT duration_ms FROM delivery_attempt ORDER BY 1")
                    .mapTo(Long.class).stream().mapToLong(Long::longValue).toArray();
            return new Tally(byState[0], byState[1], byState[2], claimByKey, caseIds, rowsPerClaimMax, submittedClaims,
                    history, attempts, workers, ends, calls);
        });
    }
}
