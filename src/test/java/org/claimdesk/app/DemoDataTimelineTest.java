package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.claimdesk.delivery.Backoff;
import org.claimdesk.delivery.Drain;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.Database;
import org.claimdesk.store.DeliveryStore;
import org.claimdesk.store.Json;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Timestamps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Demo data lies in the past of its clock, its pending rows are due within the worker's backoff, and it
 * carries the audit trail its histories imply: over several seeds and sizes.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DemoDataTimelineTest {
    private static final Instant NOW = Instant.parse("2026-11-02T15:42:17.123Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final WorkerSettings PACE = WorkerSettings.defaults();
    private static final Map<String, Database> DATABASES = new HashMap<>();

    @TempDir
    static Path dir;

    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path own;

    /**
     * The seeds each size is checked with: five on SQLite; two on PostgreSQL, where the same generator writes through
     * the server's loader (a 20,000-claim demo takes about four times as long to load there).
     */
    Stream<Long> seeds() {
        return LongStream.rangeClosed(1, engine == TestDatabase.Engine.SQLITE ? 5 : 2).boxed();
    }

    Stream<Arguments> seedsAndSizes() {
        List<Arguments> cases = new ArrayList<>();
        for (int size : new int[] {50, 2_000, 20_000}) {
            seeds().forEach(seed -> cases.add(Arguments.of(seed, size)));
        }
        return cases.stream();
    }

    /** One demo database per engine, seed and size, shared by the tests that only read it. */
    private Database demo(long seed, int size) {
        synchronized (DATABASES) {
            return DATABASES.computeIfAbsent(engine + "-" + seed + "-" + size, name -> {
                Database db = Database.open(TestDatabase.location(engine, dir, name));
                new DemoData(db, CLOCK, Deadlines.statutory()).generate(size, seed, n -> { });
                return db;
            });
        }
    }

    /** One engine's databases are closed once its tests are done, before the other engine's are made. */
    @AfterParameterizedClassInvocation
    static void close() {
        DATABASES.values().forEach(Database::close);
        DATABASES.clear();
    }

    @ParameterizedTest(name = "seed {0}, {1} claims")
    @MethodSource("seedsAndSizes")
    void everyTimeTheDemoWritesIsAtOrBeforeNowAndEachClaimsStepsAreInOrder(long seed, int size) {
        Database db = demo(seed, size);
        assertThat(Timestamps.afterNow(db, NOW, ZoneOffset.UTC)).allSatisfy((column, n) ->
                assertThat(n).as("%s after now", column).isZero());
        Map<String, Long> disorder = db.read(h -> {
            Map<String, Long> counts = new HashMap<>();
            counts.put("history steps out of order", h.createQuery("""
                    SELECT count(*) FROM (SELECT at, lag(at) OVER (PARTITION BY claim_id ORDER BY history_id) AS before
                        FROM claim_status_history) WHERE before > at""").mapTo(Long.class).one());
            counts.put("claims whose times differ from their history", h.createQuery("""
                    SELECT count(*) FROM claim c
                    WHERE c.created_at <> (SELECT min(at) FROM claim_status_history h WHERE h.claim_id = c.claim_id)
                       OR c.updated_at <> (SELECT max(at) FROM claim_status_history h WHERE h.claim_id = c.claim_id)
                       OR c.status <> (SELECT to_status FROM claim_status_history h WHERE h.claim_id = c.claim_id
                                       ORDER BY history_id DESC LIMIT 1)""").mapTo(Long.class).one());
            counts.put("attempts before their row was queued", h.createQuery("""
                    SELECT count(*) FROM delivery_attempt a JOIN outbox_event o USING (outbox_event_id)
                    WHERE a.started_at < o.created_at""").mapTo(Long.class).one());
            counts.put("rows queued at another time than their claim's submission", h.createQuery("""
                    SELECT count(*) FROM outbox_event o
                    WHERE o.created_at <> (SELECT max(at) FROM claim_status_history h
                                           WHERE h.claim_id = o.aggregate_id AND h.to_status = 'SUBMITTING')""")
                    .mapTo(Long.class).one());
            counts.put("deliveries recorded at another time than the claim's move", h.createQuery("""
                    SELECT count(*) FROM outbox_event o JOIN claim_status_history h ON h.claim_id = o.aggregate_id
                        AND h.to_status = 'SUBMITTED_TO_STATE'
                    WHERE o.delivery_state <> 'sent' OR h.at <> o.sent_at""").mapTo(Long.class).one());
            return counts;
        });
        assertThat(disorder).allSatisfy((what, n) -> assertThat(n).as(what).isZero());
    }

    @ParameterizedTest(name = "seed {0}, {1} claims")
    @MethodSource("seedsAndSizes")
    void pendingRowsAreDueNowOrWithinTheWorkersBackoff(long seed, int size) {
        Database db = demo(seed, size);
        List<long[]> pending = db.read(h -> h.createQuery("""
                SELECT outbox_event_id, next_attempt_at, retry_count, updated_at FROM outbox_event
                WHERE delivery_state = 'pending'""")
                .map((rs, ctx) -> new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)}).list());
        if (size >= 2_000) {
            assertThat(pending).isNotEmpty();
        }
        for (long[] row : pending) {
            int counted = (int) row[2];
            Instant due = Instant.ofEpochMilli(row[1]);
            Instant latest = counted == 0 ? NOW
                    : Instant.ofEpochMilli(row[3]).plus(Backoff.ceiling(counted, PACE.backoffBase(), PACE.backoffCap()));
            assertThat(due).as("row %d with %d counted attempts", row[0], counted)
                    .isBeforeOrEqualTo(latest)
                    .isBeforeOrEqualTo(NOW.plus(PACE.backoffCap()));
        }
    }

    @ParameterizedTest(name = "seed {0}, {1} claims")
    @MethodSource("seedsAndSizes")
    void everyStaffStepHasItsAuditEntryAndTheWorkersStepsHaveNone(long seed, int size) {
        Database db = demo(seed, size);
        // What each staff step implies, as Workflow writes it: one entry per step, nothing else.
        List<String> implied = db.read(h -> h.createQuery("""
                SELECT s.claim_id, s.from_status, s.to_status, s.actor, s.reason, s.at, c.claim_number,
                    o.outbox_event_id, o.idempotency_key
                FROM claim_status_history s JOIN claim c USING (claim_id)
                LEFT JOIN outbox_event o ON o.aggregate_id = s.claim_id
                WHERE s.from_status IS NOT NULL AND s.actor <> :worker""")
                .bind("worker", DeliveryStore.ACTOR)
                .map((rs, ctx) -> {
                    boolean submit = rs.getString("to_status").equals(ClaimStatus.SUBMITTING.name());
                    String details = submit
                            ? "outboxEventId=" + rs.getLong("outbox_event_id") + " idempotencyKey="
                                    + rs.getString("idempotency_key")
                            : "from=" + rs.getString("from_status") + " to=" + rs.getString("to_status");
                    return String.join("|", AuditActions.SUBJECT_CLAIM, rs.getString("claim_id"),
                            Long.toString(rs.getLong("at")), rs.getString("actor"),
                            submit ? AuditActions.CLAIM_SUBMIT : AuditActions.CLAIM_ADVANCE, rs.getString("reason"),
                            details + " claimNumber=" + rs.getString("claim_number"));
                }).list());
        List<String> written = new ArrayList<>();
        List<AuditEntry> requeues = new ArrayList<>();
        List<String> evidenceEntries = new ArrayList<>();
        for (AuditEntry e : new Queries(db, CLOCK).audit(null, null, null, 0, 0)) {
            if (e.subjectType().equals(AuditActions.SUBJECT_OUTBOX)) {
                requeues.add(e);
                continue;
            }
            if (e.action().equals(AuditActions.EVIDENCE_ADD)) {
                evidenceEntries.add(e.subjectId() + "|" + json(e.details()).path("evidenceId").asLong() + "|" + e.actor()
                        + "|" + e.at().toEpochMilli() + "|" + json(e.details()).path("url").asText());
                continue;
            }
            JsonNode d = json(e.details());
            String details = e.action().equals(AuditActions.CLAIM_SUBMIT)
                    ? "outboxEventId=" + d.path("outboxEventId").asLong() + " idempotencyKey=" + d.path("idempotencyKey").asText()
                    : "from=" + d.path("from").asText() + " to=" + d.path("to").asText();
            written.add(String.join("|", e.subjectType(), e.subjectId(), Long.toString(e.at().toEpochMilli()), e.actor(),
                    e.action(), e.reason(), details + " claimNumber=" + d.path("claimNumber").asText()));
        }
        assertThat(implied).isNotEmpty();
        // sorted and compared whole: AssertJ's any-order comparison is quadratic in the 60,000 entries of 20,000 claims
        assertThat(sorted(written)).isEqualTo(sorted(implied));

        // Each evidence reference carries the entry of the staff member who added it.
        List<String> evidence = db.read(h -> h.createQuery("SELECT claim_id, evidence_id, added_by, added_at, url FROM evidence")
                .map((rs, ctx) -> rs.getLong(1) + "|" + rs.getLong(2) + "|" + rs.getString(3) + "|" + rs.getLong(4) + "|"
                        + rs.getString(5))
                .list());
        assertThat(sorted(evidenceEntries)).isEqualTo(sorted(evidence));

        // Re-queued rows (pending again with attempts behind them and no counted one) carry the staff entry.
        List<String> requeued = db.read(h -> h.createQuery("""
                SELECT outbox_event_id, aggregate_id, updated_at, last_error FROM outbox_event
                WHERE delivery_state = 'pending' AND attempts > 0 AND retry_count = 0""")
                .map((rs, ctx) -> rs.getLong(1) + "|" + rs.getLong(2) + "|" + rs.getLong(3) + "|" + rs.getString(4))
                .list());
        assertThat(requeues).allSatisfy(e -> {
            assertThat(e.action()).isEqualTo(AuditActions.OUTBOX_REQUEUE);
            assertThat(e.reason()).isNotBlank();
        });
        assertThat(sorted(requeues.stream().map(e -> e.subjectId() + "|" + json(e.details()).path("claimId").asLong()
                + "|" + e.at().toEpochMilli() + "|" + json(e.details()).path("previousError").asText()).toList()))
                .isEqualTo(sorted(requeued));

        Map<String, Long> counts = db.read(h -> {
            Map<String, Long> c = new HashMap<>();
            c.put("worker steps", h.createQuery("SELECT count(*) FROM claim_status_history WHERE actor = :worker")
                    .bind("worker", DeliveryStore.ACTOR).mapTo(Long.class).one());
            c.put("worker steps other than the delivery", h.createQuery("""
                    SELECT count(*) FROM claim_status_history WHERE actor = :worker
                    AND NOT (from_status = 'SUBMITTING' AND to_status = 'SUBMITTED_TO_STATE')""")
                    .bind("worker", DeliveryStore.ACTOR).mapTo(Long.class).one());
            c.put("entries numbered out of time order", h.createQuery("""
                    SELECT count(*) FROM (SELECT at, lag(at) OVER (ORDER BY audit_id) AS before FROM audit_log)
                    WHERE before > at""").mapTo(Long.class).one());
            return c;
        });
        assertThat(counts.get("worker steps other than the delivery")).isZero();
        assertThat(counts.get("entries numbered out of time order")).isZero();
        if (size >= 2_000) {
            assertThat(counts.get("worker steps")).isPositive();
        }
        if (size >= 20_000) {
            assertThat(requeued).isNotEmpty();
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void claimsAreFiledOverThePastMonthsAndRecentOnesStopAtAnEarlierStatus(long seed) {
        Database db = demo(seed, 20_000);
        Queries queries = new Queries(db, CLOCK);
        LocalDate today = LocalDate.ofInstant(NOW, ZoneOffset.UTC);
        List<Claim> claims = queries.claims(ClaimQuery.all());
        assertThat(claims.stream().map(Claim::filedOn).min(LocalDate::compareTo).orElseThrow())
                .isBefore(today.minusDays(360));
        assertThat(claims.stream().filter(c -> c.filedOn().equals(today))).isNotEmpty();
        // a claim filed in the last two days has not been paid yet
        assertThat(claims.stream().filter(c -> c.filedOn().isAfter(today.minusDays(2))).map(Claim::status))
                .isNotEmpty().doesNotContain(ClaimStatus.PAID, ClaimStatus.APPROVED, ClaimStatus.SUBMITTED_TO_STATE);
        // and the last steps reach up to now
        long latest = db.read(h -> h.createQuery("SELECT max(at) FROM claim_status_history").mapTo(Long.class).one());
        assertThat(Instant.ofEpochMilli(latest)).isAfter(NOW.minus(Duration.ofHours(6)));
        assertThat(queries.countClaimsByStatus(ClaimQuery.all()).values()).allSatisfy(n -> assertThat(n).isPositive());
    }

    @Test
    void theDemoAuditEntriesHaveTheShapeTheWorkflowWrites() {
        Database db = demo(3, 2_000);
        Map<String, AuditEntry> demoEntries = new HashMap<>();
        for (AuditEntry e : new Queries(db, CLOCK).audit(null, null, null, 0, 0)) {
            demoEntries.putIfAbsent(e.action(), e);
        }
        assertThat(demoEntries).containsOnlyKeys(AuditActions.CLAIM_ADVANCE, AuditActions.CLAIM_SUBMIT,
                AuditActions.OUTBOX_REQUEUE, AuditActions.EVIDENCE_ADD);

        try (Database workflowDb = Database.open(TestDatabase.location(engine, own, "workflow"))) {
            new DemoData(workflowDb, CLOCK, Deadlines.statutory()).generate(200, 3, n -> { });
            Queries queries = new Queries(workflowDb, CLOCK);
            Workflow workflow = new Workflow(workflowDb, CLOCK, Deadlines.statutory());
            Claim evidence = queries.claims(ClaimQuery.all().withStatuses(Set.of(ClaimStatus.EVIDENCE_PENDING))).get(0);
            Claim ready = queries.claims(ClaimQuery.all().withStatuses(Set.of(ClaimStatus.READY_FOR_SUBMISSION))).get(0);
            workflow.advance(evidence.claimId(), ClaimStatus.READY_FOR_SUBMISSION, "m.alvarez", null,
                    "proof of address link and ownership received", null);
            workflow.submit(ready.claimId(), "j.chen", null);
            workflow.evidence().addUrl(evidence.claimId(), "identity", "https://docs.claims-office.example/id",
                    "Passport", "m.alvarez");
            for (AuditEntry real : queries.audit(null, null, null, 0, 3)) {
                AuditEntry demo = demoEntries.get(real.action());
                assertThat(demo).as(real.action()).isNotNull();
                assertThat(demo.subjectType()).isEqualTo(real.subjectType());
                assertThat(fields(demo.details())).as(real.action()).isEqualTo(fields(real.details()));
                assertThat(demo.reason() == null).as("%s reason", real.action()).isEqualTo(real.reason() == null);
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void aDrainUntilIdleOnAFreshDemoFinishesWithoutWaitingOutItsMaxWait(long seed) {
        Clock clock = Clock.systemUTC();
        Duration maxWait = Duration.ofSeconds(60);
        try (Database db = Database.open(TestDatabase.location(engine, own, "drain-" + seed))) {
            new DemoData(db, clock, Deadlines.statutory()).generate(2_000, seed, n -> { });
            long pending = pending(db);
            assertThat(pending).isPositive();

            Drain.Summary drained = Drain.run(db, new SimulatedStateAdapter(new SimulatedState(
                    SimulatedState.Config.reliable())), PACE, Deadlines.statutory(), clock, true, maxWait, null);

            assertThat(drained.ending()).as(drained.toString()).isEqualTo(Drain.Ending.IDLE);
            assertThat(drained.sent()).isEqualTo(pending);
            assertThat(drained.pending()).isZero();
            // the longest wait is the backoff after two counted attempts
            assertThat(drained.seconds()).isLessThan(maxWait.toSeconds());
        }
    }

    @Test
    void asOfKeepsTheClockForTodayEndsAnEarlierDayAndRefusesALaterOne() {
        ZoneId zone = ZoneId.of("America/Los_Angeles");
        Clock clock = Clock.fixed(NOW, zone);
        LocalDate today = LocalDate.ofInstant(NOW, zone);
        assertThat(DemoData.asOf(today, clock)).isSameAs(clock);
        Clock earlier = DemoData.asOf(LocalDate.of(2026, 3, 8), clock);
        assertThat(earlier.instant()).isEqualTo(Instant.parse("2026-03-09T06:59:59.999Z"));
        assertThat(earlier.getZone()).isEqualTo(zone);
        assertThatThrownBy(() -> DemoData.asOf(today.plusDays(1), clock))
                .hasMessageContaining(today.plusDays(1) + " lies in the future");
    }

    private static long pending(Database db) {
        return db.read(h -> h.createQuery("SELECT count(*) FROM outbox_event WHERE delivery_state = 'pending'")
                .mapTo(Long.class).one());
    }

    private static List<String> sorted(List<String> values) {
        List<String> copy = new ArrayList<>(values);
        copy.sort(null);
        return copy;
    }

    private static Set<String> fields(String json) {
        Set<String> names = new TreeSet<>();
        for (Iterator<String> it = json(json).fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }

    private static JsonNode json(String text) {
        try {
            return Json.mapper().readTree(text);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }
}
