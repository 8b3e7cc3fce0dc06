package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.testing.StatementsRun;
import org.claimdesk.testing.TestDatabase;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Claims page's overdue filter (schema version 22): its counts per status, its total and its page by due date
 * read the index of the claims awaiting a decision by due date alone, not every awaiting claim from the table; each
 * read's claims are those the claims hold, with a status chosen, a jurisdiction or a search as well.
 */
class OverdueReadsPlanTest {
    private static final LocalDate TODAY = LocalDate.parse("2026-01-31");

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(TestDatabase.Engine.class)
    void theOverdueClaimsTotalCountsAndPageByDueDateAreReadFromTheirIndex(TestDatabase.Engine engine) {
        boolean server = engine == TestDatabase.Engine.POSTGRESQL;
        try (Database db = TestDatabase.open(engine, dir)) {
            seed(db, server);
            ClaimStore store = new ClaimStore();
            ClaimQuery overdue = ClaimQuery.all().withOverdueOn(TODAY);
            ClaimQuery byDue = overdue.withSort(ClaimQuery.Sort.DECISION_DUE_ON, false).withPage(40, 50);
            List<String> reads = new ArrayList<>();
            db.read(h -> {
                reads.addAll(run(h, "SELECT count(*)", x -> store.count(x, overdue)));
                reads.addAll(run(h, "SELECT status", x -> store.countByStatus(x, overdue)));
                reads.addAll(run(h, "SELECT *", x -> store.list(x, byDue)));
                return null;
            });
            assertThat(reads).hasSize(3);
            for (String statement : reads) {
                List<String> plan = db.read(h -> explain(h, server, statement));
                if (server) {
                    assertThat(plan).as(statement + "\n" + String.join("\n", plan))
                            .anySatisfy(step -> assertThat(step).contains("Index Only Scan using claim_overdue_idx"));
                } else {
                    assertThat(plan).as(statement + "\n" + String.join("\n", plan))
                            .anySatisfy(step -> assertThat(step).contains("USING COVERING INDEX claim_overdue_idx"))
                            .noneSatisfy(step -> assertThat(step).contains("claim_status_idx"));
                }
            }

            List<Claim> all = db.read(h -> store.list(h, ClaimQuery.all()));
            for (ClaimQuery query : List.of(overdue, overdue.withStatuses(Set.of(ClaimStatus.NEEDS_INFO)),
                    overdue.withStatuses(Set.of(ClaimStatus.PAID)), overdue.withJurisdiction("NY"),
                    overdue.withSearch("UPC-2026-1000"))) {
                List<Claim> expected = all.stream().filter(c -> matches(query, c))
                        .sorted(Comparator.comparing(Claim::decisionDueOn).thenComparing(Claim::claimId)).toList();
                // none of the PAID claims awaits a decision: the index's read finds none either
                assertThat(expected.isEmpty()).as(query.toString())
                        .isEqualTo(query.statuses().equals(Set.of(ClaimStatus.PAID)));
                int total = db.read(h -> store.count(h, query));
                assertThat(total).as(query.toString()).isEqualTo(expected.size());
                Map<ClaimStatus, Integer> counts = db.read(h -> store.countByStatus(h, query));
                assertThat(counts).as(query.toString()).isEqualTo(perStatus(all, query.withStatuses(null)));
                for (boolean descending : new boolean[] {false, true}) {
                    List<Claim> ordered = new ArrayList<>(expected);
                    if (descending) {
                        java.util.Collections.reverse(ordered);
                    }
                    ClaimQuery page = query.withSort(ClaimQuery.Sort.DECISION_DUE_ON, descending).withPage(3, 7);
                    List<Claim> shown = db.read(h -> store.list(h, page));
                    assertThat(shown).as(page.toString()).extracting(Claim::claimId).containsExactlyElementsOf(
                            ordered.stream().skip(3).limit(7).map(Claim::claimId).toList());
                }
            }
        }
    }

    /**
     * The index the overdue filter reads holds the claims the domain says await a decision
     * ({@link Deadlines#awaitsDecision}), named in the index's condition as the statements name them: should the rule
     * change without a migration indexing them anew, SQLite would read every claim for the filter (its partial index
     * unused) and the server would read the wrong claims' index.
     */
    @ParameterizedTest
    @EnumSource(TestDatabase.Engine.class)
    void theIndexedClaimsAreThoseTheDomainSaysAwaitADecision(TestDatabase.Engine engine) {
        try (Database db = TestDatabase.open(engine, dir)) {
            if (engine == TestDatabase.Engine.POSTGRESQL) {
                String definition = db.read(h -> h.createQuery(
                        "SELECT indexdef FROM pg_indexes WHERE indexname = 'claim_overdue_idx'").mapTo(String.class).one());
                for (ClaimStatus status : ClaimStatus.values()) {
                    assertThat(definition.contains("'" + status.name() + "'")).as(status + " in " + definition)
                            .isEqualTo(Deadlines.awaitsDecision(status));
                }
            } else {
                String definition = db.read(h -> h.createQuery(
                        "SELECT sql FROM sqlite_master WHERE name = 'claim_overdue_idx'").mapTo(String.class).one());
                assertThat(definition).endsWith("WHERE " + ClaimStore.AWAITING_DECISION);
                for (ClaimStatus status : ClaimStatus.values()) {
                    assertThat(ClaimStore.AWAITING_DECISION.contains("'" + status.name() + "'")).as(status.name())
                            .isEqualTo(Deadlines.awaitsDecision(status));
                }
            }
        }
    }

    /**
     * 6,000 claims: a third awaiting a decision (submitted, or asked for information), due on one of 60 days from
     * 2026-01-01, every seventh without a due date; every tenth in NY.
     */
    private static void seed(Database db, boolean server) {
        String numbers = server ? "SELECT i FROM generate_series(1, 6000) AS i"
                : "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 6000) SELECT i FROM n";
        String due = server ? "to_char(date '2026-01-01' + i % 60, 'YYYY-MM-DD')"
                : "date('2026-01-01', '+' || (i % 60) || ' days')";
        db.useTransaction(h -> h.execute("INSERT INTO claim (claim_number, jurisdiction, state_property_id, holder_name,"
                + " property_type, claim_type, claimant_name, tax_id, amount_cents, status, filed_on, decision_due_on,"
                + " created_at, updated_at)"
                + " SELECT 'UPC-2026-' || (100000 + i), CASE WHEN i % 10 = 0 THEN 'NY' ELSE 'CA' END, 'P-' || i,"
                + " 'Holder', 'AC01', 'OWNER', 'Ann Lee', '123-45-6789', 100,"
                + " CASE i % 6 WHEN 0 THEN 'SUBMITTED_TO_STATE' WHEN 1 THEN 'NEEDS_INFO' WHEN 2 THEN 'PAID'"
                + " WHEN 3 THEN 'APPROVED' WHEN 4 THEN 'IDENTITY_PENDING' ELSE 'REJECTED' END, '2025-12-01',"
                + " CASE WHEN i % 7 = 0 THEN NULL ELSE " + due + " END, 0, 0 FROM (" + numbers + ") AS s"));
        if (server) {
            // the server's statistics and the pages' visibility, as its autovacuum keeps them; a file has neither
            db.jdbi().useHandle(h -> h.execute("VACUUM ANALYZE claim"));
        }
    }

    private static List<String> run(Handle h, String beginning, Function<Handle, ?> read) {
        return StatementsRun.of(h, beginning, read::apply).statements();
    }

    private static List<String> explain(Handle h, boolean server, String statement) {
        if (server) {
            // the plan that reads the fewest pages at the size it is for: a few thousand claims read as fast whole, where
            // at 1,000,000 the planner picks this index by itself (docs/benchmarks.md)
            h.execute("SET enable_seqscan = off");
            h.execute("SET enable_bitmapscan = off");
        }
        try {
            return h.createQuery((server ? "EXPLAIN " : "EXPLAIN QUERY PLAN ") + statement)
                    .bind("overdueOn", TODAY.toString())
                    .map((rs, ctx) -> rs.getString(server ? 1 : 4)).list();
        } finally {
            if (server) {
                h.execute("RESET enable_seqscan");
                h.execute("RESET enable_bitmapscan");
            }
        }
    }

    private static boolean matches(ClaimQuery query, Claim c) {
        return Deadlines.awaitsDecision(c.status()) && c.decisionDueOn() != null && c.decisionDueOn().isBefore(TODAY)
                && (query.statuses().isEmpty() || query.statuses().contains(c.status()))
                && (query.jurisdiction() == null || query.jurisdiction().equals(c.jurisdiction()))
                && (query.search() == null || c.claimNumber().contains(query.search()));
    }

    private static Map<ClaimStatus, Integer> perStatus(List<Claim> all, ClaimQuery query) {
        Map<ClaimStatus, Integer> counts = new EnumMap<>(ClaimStatus.class);
        for (ClaimStatus s : ClaimStatus.values()) {
            counts.put(s, 0);
        }
        all.stream().filter(c -> matches(query, c)).forEach(c -> counts.merge(c.status(), 1, Integer::sum));
        return counts;
    }
}
