package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.PropertyType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The claims search finds a text inside claim number, claimant, state property id or case id, ignoring ASCII
 * case, whether it is looked up in the trigram index (three or more characters) or matched with LIKE.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class ClaimSearchTest {
    @Parameter
    TestDatabase.Engine engine;

    /** Few letters, so that random texts often occur; quotes, wildcards and the escape character included. */
    private static final String ALPHABET = "abcAB -'\"%_!é1";

    @TempDir
    Path dir;

    private final ClaimStore claims = new ClaimStore();

    @Test
    void theIndexedSearchFindsExactlyTheClaimsThatContainTheText() {
        Random random = new Random(20261130);
        try (Database db = TestDatabase.open(engine, dir)) {
            List<String[]> fields = new ArrayList<>();
            db.useTransaction(h -> {
                for (int i = 0; i < 1500; i++) {
                    String caseId = random.nextInt(3) == 0 ? null : text(random, 4, 10);
                    String[] f = {"N" + i + text(random, 2, 8), text(random, 3, 14), text(random, 2, 9), caseId};
                    fields.add(f);
                    claims.insert(h, claim(f[0], f[1], f[2], caseId), Instant.EPOCH);
                }
            });
            int indexed = 0;
            for (int i = 0; i < 400; i++) {
                String search;
                if (random.nextBoolean()) {
                    String[] f = fields.get(random.nextInt(fields.size()));
                    String source = f[random.nextInt(f[3] == null ? 3 : 4)];
                    int from = random.nextInt(source.length());
                    search = source.substring(from, Math.min(source.length(), from + 1 + random.nextInt(5)));
                } else {
                    search = text(random, 1, 5);
                }
                if (search.isBlank() || !search.equals(search.strip())) {
                    continue;
                }
                String s = search;
                indexed += Trigrams.indexable(s) ? 1 : 0;
                List<Long> expected = new ArrayList<>();
                for (int id = 0; id < fields.size(); id++) {
                    if (contains(fields.get(id), s)) {
                        expected.add(id + 1L);
                    }
                }
                List<Long> found = db.read(h -> claims.list(h, ClaimQuery.all().withSearch(s)))
                        .stream().map(Claim::claimId).toList();
                assertThat(found).as("search [%s]", s).isEqualTo(expected);
                int count = db.read(h -> claims.count(h, ClaimQuery.all().withSearch(s)));
                assertThat(count).as("count [%s]", s).isEqualTo(expected.size());
            }
            assertThat(indexed).as("searches that used the trigram index").isGreaterThan(100);
        }
    }

    @Test
    void theIndexFollowsAChangedClaimantAndACaseIdIsFoundOnceTheStateGivesIt() {
        try (Database db = TestDatabase.open(engine, dir)) {
            long id = db.inTransaction(h -> claims.insert(h, claim("UPC-2026-000001", "Maria Garcia", "4000001", null),
                    Instant.EPOCH));
            assertThat(ids(db, "Garcia")).containsExactly(id);
            db.useTransaction(h -> h.execute("UPDATE claim SET claimant_name = 'Maria Okafor' WHERE claim_id = ?", id));
            assertThat(ids(db, "Garcia")).isEmpty();
            assertThat(ids(db, "Okafor")).containsExactly(id);
            assertThat(ids(db, "CA-2026-77")).isEmpty();
            db.useTransaction(h -> h.execute(
                    "UPDATE claim SET status = 'SUBMITTED_TO_STATE', state_case_id = 'CA-2026-771234' WHERE claim_id = ?", id));
            assertThat(ids(db, "CA-2026-77")).containsExactly(id);
            assertThat(ids(db, "ca-2026-771234")).containsExactly(id);
            java.util.Map<ClaimStatus, Integer> perStatus =
                    db.read(h -> claims.countByStatus(h, ClaimQuery.all().withSearch("771234")));
            assertThat(perStatus).containsEntry(ClaimStatus.SUBMITTED_TO_STATE, 1).containsEntry(ClaimStatus.SUBMITTING, 0);
        }
    }

    @Test
    void caseIsIgnoredInEveryAlphabetFromThreeCharactersOn() {
        try (Database db = TestDatabase.open(engine, dir)) {
            long id = db.inTransaction(h -> claims.insert(h, claim("UPC-2026-000001", "Lars Ångström", "4000001", null),
                    Instant.EPOCH));
            assertThat(ids(db, "ångström")).containsExactly(id);
            assertThat(ids(db, "ÅNGSTRÖM")).containsExactly(id);
            assertThat(ids(db, "Ån")).containsExactly(id);
            if (engine == TestDatabase.Engine.SQLITE) {
                assertThat(ids(db, "ån")).as("two characters: SQLite's LIKE, ASCII case only").isEmpty();
            } else {
                assertThat(ids(db, "ån")).as("two characters: PostgreSQL's ILIKE folds every script").containsExactly(id);
            }
        }
    }

    @Test
    void aSearchIsCombinedWithTheOtherFiltersAndTheSortOrder() {
        try (Database db = TestDatabase.open(engine, dir)) {
            db.useTransaction(h -> {
                claims.insert(h, claim("UPC-2026-000001", "Zoe Heir", "4000001", null), Instant.EPOCH);
                claims.insert(h, claim("UPC-2026-000002", "Anna Heir", "4000002", null), Instant.EPOCH);
                claims.insert(h, claim("UPC-2026-000003", "Anna Other", "4000003", null), Instant.EPOCH);
            });
            db.useTransaction(h -> h.execute("UPDATE claim SET status = 'READY_FOR_SUBMISSION' WHERE claim_id = 1"));
            List<Claim> byClaimant = db.read(h -> claims.list(h, ClaimQuery.all().withSearch("heir")
                    .withSort(ClaimQuery.Sort.CLAIMANT, false)));
            assertThat(byClaimant).extracting(Claim::claimantName).containsExactly("Anna Heir", "Zoe Heir");
            List<Claim> ready = db.read(h -> claims.list(h, ClaimQuery.all().withSearch("heir")
                    .withStatuses(java.util.Set.of(ClaimStatus.READY_FOR_SUBMISSION))));
            assertThat(ready).extracting(Claim::claimId).containsExactly(1L);
        }
    }

    @Test
    void pagesInEverySortOrderFollowEachOtherAsTheWholeList() {
        Random random = new Random(7);
        try (Database db = TestDatabase.open(engine, dir)) {
            db.useTransaction(h -> {
                for (int i = 0; i < 230; i++) {
                    // few distinct values, so that sorting leans on the claim id to break ties
                    String claimant = (random.nextBoolean() ? "Heir " : "Other ") + (char) ('a' + random.nextInt(4));
                    String caseId = random.nextBoolean() ? null : "CA-" + random.nextInt(5);
                    claims.insert(h, claim("UPC-2026-" + (100_000 + i), claimant, Integer.toString(random.nextInt(9)),
                            caseId), Instant.EPOCH);
                }
            });
            for (String search : new String[] {null, "heir", "e"}) {
                for (ClaimQuery.Sort sort : ClaimQuery.Sort.values()) {
                    for (boolean descending : new boolean[] {false, true}) {
                        ClaimQuery query = ClaimQuery.all().withSearch(search).withSort(sort, descending);
                        List<Long> whole = db.read(h -> claims.list(h, query)).stream().map(Claim::claimId).toList();
                        List<Long> paged = new ArrayList<>();
                        for (int offset = 0; offset < whole.size() + 37; offset += 37) {
                            int from = offset;
                            db.read(h -> claims.list(h, query.withPage(from, 37))).forEach(c -> paged.add(c.claimId()));
                        }
                        assertThat(paged).as("%s %s search %s", sort, descending ? "desc" : "asc", search)
                                .isEqualTo(whole);
                    }
                }
            }
        }
    }

    @Test
    void aSearchedPageInIdOrderIsTheSliceOfEveryMatchWhateverTheOtherFilters() {
        Random random = new Random(20261201);
        ClaimStatus[] statuses = {ClaimStatus.IDENTITY_PENDING, ClaimStatus.READY_FOR_SUBMISSION,
                ClaimStatus.SUBMITTED_TO_STATE};
        try (Database db = TestDatabase.open(engine, dir)) {
            db.useTransaction(h -> {
                for (int i = 0; i < 600; i++) {
                    String claimant = (random.nextInt(3) == 0 ? "Heir of " : "Estate ") + text(random, 3, 6);
                    String caseId = random.nextBoolean() ? null : (random.nextInt(4) == 0 ? "HEIR-" : "CA-") + i;
                    long id = claims.insert(h, claim("UPC-2026-" + (200_000 + i), claimant, "P" + i, caseId),
                            Instant.EPOCH);
                    h.execute("UPDATE claim SET status = ? WHERE claim_id = ?",
                            statuses[random.nextInt(statuses.length)].name(), id);
                }
            });
            for (String search : new String[] {"heir", "HEIR-", "Estate", "no claim has this"}) {
                for (int round = 0; round < 12; round++) {
                    java.util.Set<ClaimStatus> chosen = new java.util.HashSet<>();
                    for (ClaimStatus status : statuses) {
                        if (random.nextInt(3) == 0) {
                            chosen.add(status);
                        }
                    }
                    boolean descending = random.nextBoolean();
                    ClaimQuery query = ClaimQuery.all().withSearch(search).withStatuses(chosen)
                            .withSort(ClaimQuery.Sort.CLAIM_ID, descending);
                    List<Long> every = db.read(h -> claims.list(h, query)).stream().map(Claim::claimId).toList();
                    int size = 1 + random.nextInt(60);
                    int offset = random.nextInt(every.size() + 10);
                    List<Long> page = db.read(h -> claims.list(h, query.withPage(offset, size))).stream()
                            .map(Claim::claimId).toList();
                    assertThat(page).as("[%s] %s %s, %d from %d", search, chosen, descending ? "desc" : "asc", size,
                            offset).isEqualTo(every.subList(Math.min(offset, every.size()),
                            Math.min(offset + size, every.size())));
                }
            }
        }
    }

    @Test
    void theJurisdictionFilterListsEachJurisdictionOnceInOrder() {
        try (Database db = TestDatabase.open(engine, dir)) {
            assertThat(db.read(claims::jurisdictions)).as("no claims, no jurisdictions").isEmpty();
            db.useTransaction(h -> {
                String[] jurisdictions = {"NY", "CA", "TX", "CA", "NY", "WA", "CA"};
                for (int i = 0; i < jurisdictions.length; i++) {
                    claims.insert(h, new NewClaim("UPC-2026-" + (400_000 + i), jurisdictions[i], "P" + i, "Holder",
                            null, PropertyType.AC01, ClaimType.OWNER, "Claimant " + i, "123-00-4567", 1_000,
                            ClaimStatus.IDENTITY_PENDING, null, LocalDate.of(2026, 3, 1), null), Instant.EPOCH);
                }
            });
            assertThat(db.read(claims::jurisdictions)).containsExactly("CA", "NY", "TX", "WA");
        }
    }

    private List<Long> ids(Database db, String search) {
        return db.read(h -> claims.list(h, ClaimQuery.all().withSearch(search))).stream().map(Claim::claimId).toList();
    }

    private static boolean contains(String[] fields, String search) {
        String s = search.toLowerCase(Locale.ROOT);
        for (String f : fields) {
            if (f != null && f.toLowerCase(Locale.ROOT).contains(s)) {
                return true;
            }
        }
        return false;
    }

    static String text(Random random, int min, int max) {
        StringBuilder b = new StringBuilder();
        int n = min + random.nextInt(max - min + 1);
        for (int i = 0; i < n; i++) {
            b.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return b.toString();
    }

    static NewClaim claim(String number, String claimant, String propertyId, String caseId) {
        return new NewClaim(number, "CA", propertyId, "Holder", null, PropertyType.AC01, ClaimType.OWNER, claimant,
                "123-00-4567", 1_000, ClaimStatus.IDENTITY_PENDING, caseId, LocalDate.of(2026, 3, 1), null);
    }
}
