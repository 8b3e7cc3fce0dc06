package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.Database;
import org.claimdesk.store.OutboxQuery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.testing.Sql;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class QueriesTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;
    Database db;
    Queries queries;

    @BeforeEach
    void setUp() {
        db = TestDatabase.open(engine, dir);
        new DemoData(db, LocalDate.of(2026, 11, 30), Deadlines.statutory()).generate(300, 11L, n -> { });
        queries = new Queries(db, Clock.systemUTC());
    }

    @AfterEach
    void tearDown() {
        db.close();
    }

    @Test
    void aClaimIsFoundByItsIdOrItsNumberInAnyCase() {
        Claim claim = queries.claim(17L).orElseThrow();
        assertThat(queries.claim("17")).contains(claim);
        assertThat(queries.claim(claim.claimNumber())).contains(claim);
        assertThat(queries.claim(" " + claim.claimNumber().toLowerCase(java.util.Locale.ROOT) + " ")).contains(claim);
        assertThat(queries.claim("UPC-1999-000001")).isEmpty();
    }

    @Test
    void claimsByIdReadsAPageOfClaimsInOneQueryAsOneByOneWould() {
        List<Long> ids = new ArrayList<>(List.of(5L, 17L, 17L, 250L, 99_999L, 1L));
        Map<Long, Claim> found = queries.claims(ids);
        assertThat(found).containsOnlyKeys(5L, 17L, 250L, 1L);
        for (long id : found.keySet()) {
            assertThat(found.get(id)).isEqualTo(queries.claim(id).orElseThrow());
        }
        assertThat(queries.claims(List.of())).isEmpty();
    }

    @Test
    void outboxEventsByIdKeepTheOrderAskedForAndSkipMissingRows() {
        List<Long> ids = new ArrayList<>(queries.outbox(OutboxQuery.all().withPage(0, 40)).stream()
                .map(OutboxEvent::outboxEventId).toList());
        assertThat(ids).hasSizeGreaterThan(10);
        Collections.shuffle(ids, new Random(3));
        List<Long> asked = new ArrayList<>(ids);
        asked.add(3, 987_654L);
        List<OutboxEvent> events = queries.outboxEvents(asked);
        assertThat(events).extracting(OutboxEvent::outboxEventId).containsExactlyElementsOf(ids);
        assertThat(events).allSatisfy(e -> assertThat(e).isEqualTo(queries.outboxEvent(e.outboxEventId()).orElseThrow()));
        assertThat(queries.outboxEvents(List.of())).isEmpty();
    }

    @Test
    void anOutboxQueryHasRowsExactlyWhenItsCountIsPositive() {
        List<OutboxQuery> queried = new ArrayList<>();
        for (DeliveryState state : DeliveryState.values()) {
            queried.add(OutboxQuery.all().withState(state));
            queried.add(OutboxQuery.all().withState(state).withJurisdiction("CA"));
        }
        queried.add(OutboxQuery.all().withErrorText("no such error text anywhere"));
        queried.add(OutboxQuery.all());
        assertThat(queried.stream().map(queries::countOutbox)).contains(0).anyMatch(n -> n > 0);
        for (OutboxQuery q : queried) {
            assertThat(queries.anyOutbox(q)).as(q.toString()).isEqualTo(queries.countOutbox(q) > 0);
        }
    }

    /**
     * A search of error texts finds the page and the total the rows hold, in any state, in one state and in a
     * jurisdiction: each engine reads them its own way (on SQLite from the index of the rows with a text, on PostgreSQL
     * as its planner chooses), and rows marked sent may keep a text (a reconciled row's).
     */
    @Test
    void aSearchOfErrorTextsFindsThePageAndTheTotalTheRowsHold() {
        db.useTransaction(h -> h.execute("UPDATE outbox_event SET last_error = 'reconciled after a 503'"
                + " WHERE delivery_state = 'sent' AND outbox_event_id % 5 = 0"));
        int found = 0;
        for (String text : List.of("503", "TIMEOUT", "Reconciled", "no such text")) {
            for (DeliveryState state : new DeliveryState[] {null, DeliveryState.SENT, DeliveryState.PENDING,
                    DeliveryState.FAILED}) {
                for (String jurisdiction : new String[] {null, "CA"}) {
                    OutboxQuery query = OutboxQuery.all().withErrorText(text).withState(state)
                            .withJurisdiction(jurisdiction);
                    List<Long> expected = db.read(h -> h.createQuery("SELECT o.outbox_event_id FROM outbox_event o"
                            + " JOIN claim c ON c.claim_id = o.aggregate_id WHERE lower(o.last_error) LIKE '%"
                            + text.toLowerCase(java.util.Locale.ROOT) + "%'"
                            + (state == null ? "" : " AND o.delivery_state = '" + state.dbValue() + "'")
                            + (jurisdiction == null ? "" : " AND c.jurisdiction = '" + jurisdiction + "'")
                            + " ORDER BY 1").mapTo(Long.class).list());
                    List<Long> page = queries.outbox(query.withPage(2, 5)).stream()
                            .map(OutboxEvent::outboxEventId).toList();
                    assertThat(page).as(query.toString()).isEqualTo(
                            expected.subList(Math.min(2, expected.size()), Math.min(7, expected.size())));
                    assertThat(queries.countOutbox(query)).as(query.toString()).isEqualTo(expected.size());
                    found += expected.size();
                }
            }
        }
        assertThat(found).as("rows found by some search").isPositive();
    }

    @Test
    void aCountByDeliveryStateAloneFromTheTallyAgreesWithTheRows() {
        List<OutboxQuery> queried = new ArrayList<>();
        queried.add(OutboxQuery.all());
        queried.add(OutboxQuery.all().withPage(200, 200));
        for (DeliveryState state : DeliveryState.values()) {
            queried.add(OutboxQuery.all().withState(state));
        }
        for (OutboxQuery q : queried) {
            String where = q.state() == null ? "" : " WHERE delivery_state = '" + q.state().dbValue() + "'";
            assertThat(queries.countOutbox(q)).as(q.toString())
                    .isEqualTo(Sql.scalar(db, "SELECT count(*) FROM outbox_event" + where, Long.class).intValue());
        }
        for (DeliveryState state : List.of(DeliveryState.PENDING, DeliveryState.SENT, DeliveryState.FAILED)) {
            assertThat(queries.countOutbox(OutboxQuery.all().withState(state))).as(state.toString()).isPositive();
            // with another criterion the rows are counted, not the state's tally
            int inCa = queries.countOutbox(OutboxQuery.all().withState(state).withJurisdiction("CA"));
            assertThat(inCa).isEqualTo(Sql.scalar(db, "SELECT count(*) FROM outbox_event o JOIN claim c"
                    + " ON c.claim_id = o.aggregate_id WHERE c.jurisdiction = 'CA' AND o.delivery_state = '"
                    + state.dbValue() + "'", Long.class).intValue());
            assertThat(inCa).isLessThan(queries.countOutbox(OutboxQuery.all().withState(state)));
        }
    }

    /** The Audit page's and {@code audit list --subject}'s subject as staff type it, on each engine. */
    @Test
    void anAuditSubjectIsAClaimByItsNumberOrIdOrAnOutboxRowByName() {
        Claim claim = queries.claim(4L).orElseThrow();
        db.useTransaction(h -> new org.claimdesk.store.AuditStore().append(h, java.time.Instant.now(), "kim",
                AuditActions.OUTBOX_REQUEUE, AuditActions.SUBJECT_OUTBOX, "4", "portal back", null));
        List<org.claimdesk.domain.AuditEntry> claimEntries =
                queries.audit("claim 4", null, null, 0, 500);
        assertThat(claimEntries).isNotEmpty().allSatisfy(e -> {
            assertThat(e.subjectType()).isEqualTo(AuditActions.SUBJECT_CLAIM);
            assertThat(e.subjectId()).isEqualTo("4");
        });
        String lower = claim.claimNumber().toLowerCase(java.util.Locale.ROOT);
        for (String typed : List.of(lower, " " + claim.claimNumber() + " ", "Claim " + lower, "CLAIM 004")) {
            assertThat(queries.audit(typed, null, null, 0, 500)).as(typed).isEqualTo(claimEntries);
        }
        assertThat(queries.audit("outbox row 4", null, null, 0, 500)).singleElement()
                .satisfies(e -> assertThat(e.reason()).isEqualTo("portal back"));
        assertThat(queries.audit("row 004", null, null, 0, 500)).extracting(org.claimdesk.domain.AuditEntry::reason)
                .containsExactly("portal back");
        assertThat(queries.audit("4", null, null, 0, 500)).extracting(org.claimdesk.domain.AuditEntry::subjectType)
                .contains(AuditActions.SUBJECT_CLAIM, AuditActions.SUBJECT_OUTBOX);
        assertThat(queries.audit("UPC-1999-999999", null, null, 0, 500)).as("a number no claim has").isEmpty();

        List<org.claimdesk.domain.AuditEntry> streamed = new ArrayList<>();
        queries.eachAudit(lower, null, null, 0, streamed::add);
        assertThat(streamed).isEqualTo(claimEntries);
        assertThat(queries.claimNumbers(List.of(4L, 999_999L))).isEqualTo(Map.of(4L, claim.claimNumber()));
    }

    /** Pages read past the last id of the one before: every row once, in id order, across the pages' edges. */
    @Test
    void theOutboxIsReadAPageAtATimeEachRowOnceInIdOrder() throws Exception {
        java.nio.file.Path other = java.nio.file.Files.createDirectories(dir.resolve("many"));
        try (Database many = TestDatabase.open(engine, other)) {
            org.claimdesk.store.BenchmarkStore.seedSubmitting(many, Queries.PAGE * 2 + 7);
            List<Integer> sizes = new ArrayList<>();
            List<Long> ids = new ArrayList<>();
            new Queries(many, Clock.systemUTC()).eachOutboxPage(OutboxQuery.all(), page -> {
                sizes.add(page.size());
                page.forEach(e -> ids.add(e.outboxEventId()));
            });
            assertThat(sizes).containsExactly(Queries.PAGE, Queries.PAGE, 7);
            assertThat(ids).doesNotHaveDuplicates().isSorted().hasSize(Queries.PAGE * 2 + 7);
        }
    }
}
