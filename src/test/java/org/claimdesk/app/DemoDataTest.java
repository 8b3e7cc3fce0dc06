package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.claimdesk.delivery.StateRules;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.StatusChange;
import org.claimdesk.domain.SubmissionPayload;
import org.claimdesk.domain.Transitions;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class DemoDataTest {
    private static final LocalDate TODAY = LocalDate.of(2026, 11, 2);
    /** Each table a dump reads, by its key: the order rows were written in, on either engine. */
    private static final Map<String, String> KEYS = new LinkedHashMap<>();

    static {
        KEYS.put("claim", "claim_id");
        KEYS.put("claim_status_history", "history_id");
        KEYS.put("outbox_event", "outbox_event_id");
        KEYS.put("delivery_attempt", "attempt_id");
    }

    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    @Test
    void theSameSeedGivesTheSameDataAndAnotherSeedOtherData() {
        List<String> a = dump(generate("a", 500, 42));
        List<String> b = dump(generate("b", 500, 42));
        List<String> c = dump(generate("c", 500, 43));
        assertThat(a).hasSizeGreaterThan(500).isEqualTo(b);
        assertThat(c).isNotEqualTo(a);
    }

    @Test
    void numbersAreWrittenInTheirWidthZerosFirst() {
        assertThat(DemoData.digits(7, 4)).isEqualTo("0007");
        assertThat(DemoData.digits(9_999, 4)).isEqualTo("9999");
        assertThat(DemoData.digits(0, 3)).isEqualTo("000");
        assertThat(DemoData.digits(665, 3)).isEqualTo("665");
    }

    @Test
    void dataFollowsTheDomainBrief() {
        Database db = generate("brief", 5_000, 7);
        try (db) {
            Queries queries = new Queries(db, Clock.fixed(TODAY.atStartOfDay().toInstant(ZoneOffset.UTC), ZoneOffset.UTC));
            List<Claim> claims = queries.claims(ClaimQuery.all());
            assertThat(claims).hasSize(5_000);

            // Log-normal amounts: median about $100, mean about $1,600, clamped to $5..$250,000.
            List<Long> amounts = new ArrayList<>(claims.stream().map(Claim::amountCents).toList());
            Collections.sort(amounts);
            long median = amounts.get(amounts.size() / 2);
            assertThat(median).isBetween(8_000L, 12_500L);
            assertThat(amounts.get(0)).isGreaterThanOrEqualTo(500L);
            assertThat(amounts.get(amounts.size() - 1)).isLessThanOrEqualTo(25_000_000L);

            // Every step the workflow asks a reason for has one, as staff would have written it.
            List<String> unexplained = db.read(h -> h.createQuery("SELECT from_status, to_status, reason"
                    + " FROM claim_status_history WHERE from_status IS NOT NULL").map((rs, ctx) ->
                    org.claimdesk.domain.Transitions.needsReason(ClaimStatus.valueOf(rs.getString(1)),
                            ClaimStatus.valueOf(rs.getString(2))) && (rs.getString(3) == null || rs.getString(3).isBlank())
                            ? rs.getString(1) + " -> " + rs.getString(2) : null).list())
                    .stream().filter(java.util.Objects::nonNull).toList();
            assertThat(unexplained).isEmpty();
            List<String> payments = db.read(h -> h.createQuery("SELECT reason FROM claim_status_history"
                    + " WHERE to_status = 'PAID'").mapTo(String.class).list());
            assertThat(payments).isNotEmpty()
                    .allSatisfy(r -> assertThat(r).matches("warrant W-\\d+, \\$[0-9,.]+ paid, no offset"));

            // Non-issuable demo SSNs (group 00) and a mix of jurisdictions and claim types.
            assertThat(claims).allSatisfy(c -> assertThat(c.taxId()).matches("\\d{3}-00-\\d{4}"));
            assertThat(queries.outbox(OutboxQuery.all())).isNotEmpty()
                    .allSatisfy(o -> assertThat(o.idempotencyKey()).matches("sub-demo-7-[0-9a-f]{8}"));
            assertThat(claims.stream().map(Claim::jurisdiction).distinct().count()).isGreaterThanOrEqualTo(8);
            assertThat(claims.stream().filter(c -> c.claimType() == ClaimType.OWNER).count()).isBetween(3_600L, 4_200L);
            assertThat(claims.stream().map(Claim::claimType).distinct()).hasSize(ClaimType.values().length);

            // Every status is present.
            Map<ClaimStatus, Integer> perStatus = queries.countClaimsByStatus(ClaimQuery.all());
            assertThat(perStatus.values()).allSatisfy(n -> assertThat(n).isPositive());

            // SUBMITTING claims have a pending or failed row; failed rows carry attempts and an error.
            List<OutboxEvent> failed = queries.outbox(OutboxQuery.all().withState(DeliveryState.FAILED));
            List<OutboxEvent> pending = queries.outbox(OutboxQuery.all().withState(DeliveryState.PENDING));
            assertThat(failed).isNotEmpty();
            assertThat(pending).isNotEmpty();
            assertThat(queries.countClaimsByStatus(ClaimQuery.all()).get(ClaimStatus.SUBMITTING))
                    .isEqualTo(failed.size() + pending.size());
            for (OutboxEvent row : failed) {
                List<DeliveryAttempt> attempts = queries.attempts(row.outboxEventId());
                assertThat(row.lastError()).isNotBlank();
                assertThat(attempts).hasSize(row.attempts());
                assertThat(attempts.get(attempts.size() - 1).detail()).startsWith(row.lastError());
                assertThat(queries.claim(row.aggregateId()).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTING);
            }
            assertThat(failed.stream().map(OutboxEvent::lastError).map(e -> e.substring(0, 12)).distinct().count())
                    .isGreaterThanOrEqualTo(4);

            // Histories only take steps the workflow allows and end at the claim's status.
            for (Claim claim : claims.subList(0, 500)) {
                List<StatusChange> history = queries.history(claim.claimId());
                assertThat(history).isNotEmpty();
                for (StatusChange step : history.subList(1, history.size())) {
                    assertThat(Transitions.isAllowed(step.fromStatus(), step.toStatus()))
                            .as("%s: %s -> %s", claim.claimNumber(), step.fromStatus(), step.toStatus()).isTrue();
                }
                assertThat(history.get(history.size() - 1).toStatus()).isEqualTo(claim.status());
                if (claim.status() == ClaimStatus.SUBMITTED_TO_STATE) {
                    assertThat(claim.stateCaseId()).isNotBlank();
                    assertThat(claim.decisionDueOn()).isNotNull();
                }
            }
            assertThat(claims.stream().filter(c -> c.isOverdue(TODAY)).count()).isPositive();
        }
    }

    @Test
    void amountsReproduceTheNaupaMedianAndMean() {
        SplittableRandom random = new SplittableRandom(1);
        int n = 200_000;
        long[] cents = new long[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            cents[i] = DemoData.amountCents(random);
            sum += cents[i];
        }
        java.util.Arrays.sort(cents);
        assertThat(cents[n / 2] / 100.0).isBetween(95.0, 105.0);
        assertThat(sum / n / 100.0).isBetween(1_300.0, 1_900.0);
    }

    @Test
    void theSearchIndexIsBuiltOnceForTheDemoClaimsAndKeptForNewOnes() {
        try (Database db = generate("search", 2_000, 5)) {
            Queries queries = new Queries(db, Clock.fixed(TODAY.atStartOfDay().toInstant(ZoneOffset.UTC), ZoneOffset.UTC));
            List<Claim> all = queries.claims(ClaimQuery.all());
            for (Claim c : List.of(all.get(0), all.get(777), all.get(1_999))) {
                String part = c.claimantName().substring(1, Math.min(c.claimantName().length(), 7));
                long expected = all.stream().filter(x -> x.claimNumber().toLowerCase().contains(part.toLowerCase())
                        || x.claimantName().toLowerCase().contains(part.toLowerCase())
                        || x.statePropertyId().toLowerCase().contains(part.toLowerCase())
                        || (x.stateCaseId() != null && x.stateCaseId().toLowerCase().contains(part.toLowerCase()))).count();
                assertThat(queries.claims(ClaimQuery.all().withSearch(part))).as(part)
                        .contains(c).hasSize((int) expected);
            }
            // the insert trigger is back: a claim added after the demo is found too
            long id = org.claimdesk.testing.TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
            String number = queries.claim(id).orElseThrow().claimNumber();
            assertThat(queries.claims(ClaimQuery.all().withSearch(number))).extracting(Claim::claimId).containsExactly(id);
        }
    }

    @Test
    void theCountsStaffSeeAgreeWithTheRowsTheBulkLoadWrote() {
        try (Database db = generate("tallies", 2_000, 9)) {
            org.claimdesk.store.HealthStore.Tallies tallies = db.read(new org.claimdesk.store.HealthStore()::tallyDifferences);
            assertThat(tallies.agree()).as("%s", tallies).isTrue();
            Queries queries = new Queries(db, Clock.fixed(TODAY.atStartOfDay().toInstant(ZoneOffset.UTC), ZoneOffset.UTC));
            assertThat(queries.countOutboxByState().values().stream().mapToInt(Integer::intValue).sum())
                    .isEqualTo(queries.outbox(OutboxQuery.all()).size()).isPositive();
        }
    }

    @Test
    void demoDataGoesOnlyIntoAnEmptyDatabase() {
        try (Database db = generate("twice", 10, 1)) {
            assertThatThrownBy(() -> new DemoData(db, TODAY, Deadlines.statutory()).generate(10, 1, n -> { }))
                    .hasMessageContaining("already holds 10 claims");
        }
    }

    @Test
    void rowsRefusedForGoodBreakTheStatesRulesAndEveryOtherRowPassesThem() throws Exception {
        try (Database db = generate("rules", 5_000, 11)) {
            Queries queries = new Queries(db, Clock.systemUTC());
            StateRules rules = StateRules.standard();
            Set<String> fields = new TreeSet<>();
            int refused = 0;
            for (OutboxEvent row : queries.outbox(OutboxQuery.all())) {
                List<DeliveryAttempt> attempts = queries.attempts(row.outboxEventId());
                DeliveryAttempt last = attempts.isEmpty() ? null : attempts.get(attempts.size() - 1);
                Optional<StateRules.Refusal> judged = rules.judge(Json.mapper().readTree(row.payload()));
                boolean refusedForGood = row.deliveryState() == DeliveryState.FAILED && last != null
                        && last.outcome() == AttemptOutcome.PERMANENT;
                if (!refusedForGood) {
                    assertThat(judged).as("row %d (%s) passes the rules", row.outboxEventId(), row.deliveryState())
                            .isEmpty();
                    continue;
                }
                refused++;
                assertThat(judged).as("row %d breaks a rule", row.outboxEventId()).isPresent();
                StateRules.Refusal refusal = judged.orElseThrow();
                assertThat(row.lastError()).isEqualTo(refusal.status() + " " + refusal.error() + ": " + refusal.message());
                assertThat(last.field()).isEqualTo(refusal.field());
                assertThat(last.httpStatus()).isEqualTo(refusal.status());
                fields.add(refusal.field());
                // the claim as stored is the claim that was sent: correcting it is what makes it pass
                SubmissionPayload now = SubmissionPayload.of(queries.claim(row.aggregateId()).orElseThrow(),
                        new ClaimEvidence(db, Clock.systemUTC()).list(row.aggregateId()), row.idempotencyKey());
                assertThat(Json.write(now)).isEqualTo(row.payload());
            }
            assertThat(refused).isPositive();
            assertThat(fields).containsExactly("evidence.address", "holderId", "statePropertyId", "taxIdLast4");
        }
    }

    @Test
    void rowsGiveUpOnlyOnAnswersTheWorkerCounts() {
        try (Database db = generate("gave-up", 5_000, 5)) {
            Queries queries = new Queries(db, Clock.systemUTC());
            int gaveUp = 0;
            for (OutboxEvent row : queries.outbox(OutboxQuery.all())) {
                String error = row.lastError();
                if (error == null || !error.contains("(gave up after ")) {
                    continue;
                }
                gaveUp++;
                // a 429 holds the worker and is not counted toward the attempts: no row gives up on one
                assertThat(error).as("row %d", row.outboxEventId()).doesNotStartWith("429");
                List<DeliveryAttempt> attempts = queries.attempts(row.outboxEventId());
                assertThat(attempts).as("row %d's attempts", row.outboxEventId())
                        .noneMatch(a -> Integer.valueOf(429).equals(a.httpStatus()));
            }
            assertThat(gaveUp).isPositive();
        }
    }

    private Database generate(String name, int claims, long seed) {
        Database db = Database.open(TestDatabase.location(engine, dir, name));
        List<Integer> progress = new ArrayList<>();
        new DemoData(db, TODAY, Deadlines.statutory()).generate(claims, seed, progress::add);
        assertThat(progress).isSorted().last().isEqualTo(claims);
        return db;
    }

    private static List<String> dump(Database db) {
        try (db) {
            return db.read(h -> {
                List<String> rows = new ArrayList<>();
                for (Map.Entry<String, String> t : KEYS.entrySet()) {
                    String table = t.getKey();
                    rows.addAll(h.createQuery("SELECT * FROM " + table + " ORDER BY " + t.getValue())
                            .map((rs, ctx) -> {
                                StringBuilder row = new StringBuilder(table);
                                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                                    row.append('|').append(rs.getString(i));
                                }
                                return row.toString();
                            }).list());
                }
                return rows;
            });
        }
    }
}
