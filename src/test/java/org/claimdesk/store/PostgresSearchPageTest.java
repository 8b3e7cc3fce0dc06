package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL's read of a searched page in id order ({@link PostgresSearchPage}): whether the page is found in the
 * window of claims in id order or from the trigram index, it is the slice of every match that a page is.
 */
class PostgresSearchPageTest {
    @TempDir
    Path dir;

    private final ClaimStore claims = new ClaimStore();

    @Test
    void onPostgresqlAPageReadInTheWindowOrFromTheIndexIsTheSliceOfEveryMatch() {
        Random random = new Random(20261202);
        try (Database db = TestDatabase.open(TestDatabase.Engine.POSTGRESQL, dir)) {
            db.useTransaction(h -> {
                for (int i = 0; i < 300; i++) {
                    // "heir" in about a third of the claims, "rare" in a few, late ones
                    String claimant = (random.nextInt(3) == 0 ? "Heir of " : "Estate ") + (i > 250 && i % 7 == 0
                            ? "Rare" : ClaimSearchTest.text(random, 3, 6));
                    long id = claims.insert(h, ClaimSearchTest.claim("UPC-2026-" + (300_000 + i), claimant, "P" + i, null),
                            Instant.EPOCH);
                    h.execute("UPDATE claim SET status = ? WHERE claim_id = ?",
                            (i % 2 == 0 ? ClaimStatus.SUBMITTED_TO_STATE : ClaimStatus.IDENTITY_PENDING).name(), id);
                }
            });
            for (String search : new String[] {"heir", "rare", "Estate", "no claim has this", "Heir of Rare",
                    "UPC-2026-300259", "2026-3002"}) {
                for (boolean descending : new boolean[] {false, true}) {
                    for (String others : new String[] {"", "status IN ('SUBMITTED_TO_STATE')"}) {
                        ClaimQuery query = ClaimQuery.all().withSearch(search).withSort(ClaimQuery.Sort.CLAIM_ID,
                                descending).withStatuses(others.isEmpty() ? java.util.Set.of()
                                        : java.util.Set.of(ClaimStatus.SUBMITTED_TO_STATE));
                        // every match, found here from the claims' fields rather than by the store's search
                        String lower = search.toLowerCase(java.util.Locale.ROOT);
                        List<Long> every = db.read(h -> claims.list(h, query.withSearch(null))).stream()
                                .filter(c -> java.util.stream.Stream.of(c.claimNumber(), c.claimantName(),
                                        c.statePropertyId(), c.stateCaseId()).anyMatch(f -> f != null
                                                && f.toLowerCase(java.util.Locale.ROOT).contains(lower)))
                                .map(Claim::claimId).toList();
                        for (int window : new int[] {0, 7, 60, 100_000}) {
                            for (int offset : new int[] {0, 5, 40, 120}) {
                                int limit = 1 + random.nextInt(30);
                                java.util.Map<String, Object> bindings = new java.util.HashMap<>();
                                bindings.put("search", Like.contains(search));
                                List<Object[]> words = new java.util.ArrayList<>();
                                String clause = PostgresSearchText.clause(search, words, "");
                                words.forEach(w -> bindings.put((String) w[0], w[1]));
                                List<Long> page = db.read(h -> PostgresSearchPage.ids(h, clause, others, bindings,
                                        descending, offset, limit, window));
                                assertThat(page).as("[%s] %s %s window %d, %d from %d", search, others,
                                        descending ? "desc" : "asc", window, limit, offset)
                                        .isEqualTo(every.subList(Math.min(offset, every.size()),
                                                Math.min(offset + limit, every.size())));
                            }
                        }
                    }
                }
            }
            String setting = db.read(h -> h.createQuery("SHOW enable_bitmapscan").mapTo(String.class).one());
            assertThat(setting).as("the planner settings are the session's again").isEqualTo("on");
        }
    }
}
