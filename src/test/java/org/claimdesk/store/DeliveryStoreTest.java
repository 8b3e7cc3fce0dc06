package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.Sql;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** The worker's set-wise writes: every row of a batch gets exactly the outcome it would get alone. */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class DeliveryStoreTest {
    @Parameter
    TestDatabase.Engine engine;

    private static final String OWNER = "worker-a";
    private static final LocalDate DUE = LocalDate.of(2027, 5, 1);

    @TempDir
    Path dir;

    Database db;
    Handle handle;
    DeliveryStore.Session session;

    @BeforeEach
    void open() {
        db = TestDatabase.open(engine, dir);
    }

    @AfterEach
    void close() {
        if (session != null) {
            session.close();
        }
        if (handle != null) {
            handle.close();
        }
        try {
            // whatever a test's batches wrote, the counts staff see agree with the rows (the tallies, on either engine)
            assertThat(db.read(new HealthStore()::tallyDifferences)).matches(HealthStore.Tallies::agree);
        } finally {
            db.close();
        }
    }

    @Test
    void aBatchLargerThanEveryChunkIsWrittenRowByRow() {
        int count = MultiRowStatement.CHUNKS[0] + MultiRowStatement.CHUNKS[1] + 6;
        Outbox.submitted(db, count);
        List<LeasedRow> rows = lease(count);
        assertThat(rows).hasSize(count);
        assertThat(rows).allSatisfy(r -> assertThat(r.jurisdiction()).isEqualTo("CA"));

        boolean[] applied = complete(sentEach(rows));

        assertThat(applied).hasSize(count).containsOnly(true);
        for (LeasedRow row : rows) {
            assertThat(Sql.scalar(db, "SELECT delivery_state || ' ' || state_case_id || ' ' || attempts || ' '"
                    + " || coalesce(lease_owner, 'free') FROM outbox_event WHERE outbox_event_id = "
                    + row.outboxEventId(), String.class)).isEqualTo("sent CASE-" + row.outboxEventId() + " 1 free");
            assertThat(Sql.scalar(db, "SELECT status || ' ' || state_case_id || ' ' || decision_due_on FROM claim"
                    + " WHERE claim_id = " + row.claimId(), String.class))
                    .isEqualTo("SUBMITTED_TO_STATE CASE-" + row.outboxEventId() + " " + DUE);
            assertThat(Sql.scalar(db, "SELECT count(*) FROM claim_status_history WHERE to_status = 'SUBMITTED_TO_STATE'"
                    + " AND actor = 'delivery-worker' AND reason = 'state case id CASE-" + row.outboxEventId()
                    + "' AND claim_id = " + row.claimId(), Long.class)).isOne();
            assertThat(Sql.scalar(db, "SELECT attempt_no || ' ' || outcome || ' ' || http_status || ' ' || worker_id"
                    + " FROM delivery_attempt WHERE outbox_event_id = " + row.outboxEventId(), String.class))
                    .isEqualTo("1 DELIVERED 201 " + OWNER);
        }
        assertThat(Sql.count(db, "delivery_attempt")).isEqualTo(count);
        assertThat(Sql.scalar(db, "SELECT count(*) FROM audit_log WHERE actor = '" + DeliveryStore.ACTOR + "'",
                Long.class)).as("the audit trail is for staff actions").isZero();
    }

    @Test
    void theCountsTellRowsDueFromRowsWaitingOutABackoff() {
        Outbox.submitted(db, 6);
        db.useTransaction(h -> {
            h.execute("UPDATE outbox_event SET next_attempt_at = 1000");
            h.execute("UPDATE outbox_event SET next_attempt_at = 5000 WHERE outbox_event_id IN"
                    + " (SELECT outbox_event_id FROM outbox_event ORDER BY outbox_event_id LIMIT 2)");
            h.execute("UPDATE outbox_event SET delivery_state = 'failed', last_error = 'gave up' WHERE outbox_event_id ="
                    + " (SELECT max(outbox_event_id) FROM outbox_event)");
        });
        java.util.function.LongFunction<DeliveryStore.Counts> countsAt =
                ms -> db.read(h -> new DeliveryStore().counts(h, Instant.ofEpochMilli(ms)));

        assertThat(countsAt.apply(999)).isEqualTo(new DeliveryStore.Counts(5, 0, 1));
        assertThat(countsAt.apply(1000)).isEqualTo(new DeliveryStore.Counts(5, 3, 1));
        assertThat(countsAt.apply(4999)).isEqualTo(new DeliveryStore.Counts(5, 3, 1));
        assertThat(countsAt.apply(5000)).isEqualTo(new DeliveryStore.Counts(5, 5, 1));
    }

    @Test
    void aRowWhoseLeaseWasTakenOverIsLeftAloneAndItsAttemptSaysSo() {
        Outbox.submitted(db, 3);
        List<LeasedRow> rows = lease(3);
        LeasedRow taken = rows.get(1);
        takenOverByAnotherWorker(taken);

        boolean[] applied = complete(sentEach(rows));

        assertThat(applied).containsExactly(true, false, true);
        assertThat(Sql.scalar(db, "SELECT delivery_state || ' ' || lease_owner FROM outbox_event WHERE outbox_event_id = "
                + taken.outboxEventId(), String.class)).isEqualTo("pending worker-b");
        assertThat(Sql.scalar(db, "SELECT status FROM claim WHERE claim_id = " + taken.claimId(), String.class))
                .isEqualTo("SUBMITTING");
        assertThat(Sql.scalar(db, "SELECT count(*) FROM claim_status_history WHERE to_status = 'SUBMITTED_TO_STATE'"
                + " AND claim_id = " + taken.claimId(), Long.class)).isZero();
        assertThat(Sql.scalar(db, "SELECT detail FROM delivery_attempt WHERE outbox_event_id = "
                + taken.outboxEventId(), String.class)).startsWith("[lease lost");
        assertThat(Sql.scalar(db, "SELECT count(*) FROM claim WHERE status = 'SUBMITTED_TO_STATE'", Long.class))
                .isEqualTo(2);
    }

    /**
     * The connection lost the answer to a commit the server made: the worker records the same outcomes again, which
     * finds its leases gone. They went with the first try, not to another worker: nothing is recorded twice.
     */
    @Test
    void outcomesRecordedAgainAfterACommitWhoseAnswerWasLostAreNotRecordedTwice() {
        Outbox.submitted(db, 3);
        List<LeasedRow> rows = lease(3);
        Instant later = Instant.parse("2030-01-01T00:00:00Z");
        List<DeliveryRecord> records = List.of(sent(rows.get(0), "CASE-1"),
                DeliveryRecord.retry(rows.get(1), rows.get(1).retryCount() + 1, "503 state portal busy", later,
                        attempt(AttemptOutcome.TRANSIENT, 503, "503 state portal busy")),
                DeliveryRecord.released(rows.get(2)));
        assertThat(complete(records)).containsExactly(true, true, true);
        answerLost();

        boolean[] again = complete(records);

        assertThat(again).as("the sent and retried rows' outcomes are in; the released row was released")
                .containsExactly(true, true, false);
        assertThat(strings("SELECT outbox_event_id || ' ' || outcome || ' ' || detail FROM delivery_attempt"
                + " ORDER BY attempt_id")).containsExactly(
                rows.get(0).outboxEventId() + " DELIVERED 201 accepted: case id CASE-1",
                rows.get(1).outboxEventId() + " TRANSIENT 503 state portal busy");
        assertThat(Sql.scalar(db, "SELECT count(*) FROM claim_status_history WHERE to_status = 'SUBMITTED_TO_STATE'",
                Long.class)).isEqualTo(1);
    }

    @Test
    void aLostLeaseRecordedByTheTryWhoseAnswerWasLostStaysNotApplied() {
        Outbox.submitted(db, 2);
        List<LeasedRow> rows = lease(2);
        LeasedRow taken = rows.get(1);
        takenOverByAnotherWorker(taken);
        List<DeliveryRecord> records = sentEach(rows);
        assertThat(complete(records)).containsExactly(true, false);
        answerLost();

        assertThat(complete(records)).containsExactly(true, false);
        assertThat(strings("SELECT outbox_event_id || ' ' || substr(detail, 1, 11) FROM delivery_attempt"
                + " ORDER BY attempt_id")).containsExactly(rows.get(0).outboxEventId() + " 201 accepte",
                taken.outboxEventId() + " [lease lost");
    }

    /**
     * A worker whose lease ran out while its call was under way can lease the row again and call again: the second
     * call has the same attempt number and is another call, recorded as such.
     */
    @Test
    void anotherCallWithTheSameAttemptNumberIsRecordedNotTakenForTheFirst() {
        Outbox.submitted(db, 1);
        LeasedRow row = lease(1).get(0);
        Instant first = Instant.parse("2026-12-05T10:00:00Z");
        assertThat(complete(List.of(DeliveryRecord.retry(row, row.retryCount() + 1, "503 state portal busy",
                Instant.parse("2030-01-01T00:00:00Z"), new DeliveryRecord.Attempt(first, 3, AttemptOutcome.TRANSIENT,
                        503, "503 state portal busy"))))).containsExactly(true);
        answerLost();

        boolean[] second = complete(List.of(DeliveryRecord.delivered(row, "CASE-1", DUE, new DeliveryRecord.Attempt(
                first.plusSeconds(1), 3, AttemptOutcome.DELIVERED, 201, "201 accepted: case id CASE-1"))));

        assertThat(second).containsExactly(false);
        assertThat(strings("SELECT attempt_no || ' ' || outcome || ' ' || substr(detail, 1, 11) FROM delivery_attempt"
                + " ORDER BY attempt_id")).containsExactly("1 TRANSIENT 503 state p", "1 DELIVERED [lease lost");
    }

    @Test
    void aClaimAlreadyPastSubmittingKeepsItsCaseIdAndGetsNoSecondHistoryEntry() {
        Outbox.submitted(db, 1);
        LeasedRow row = lease(1).get(0);
        db.useTransaction(h -> h.execute("UPDATE claim SET status = 'SUBMITTED_TO_STATE', state_case_id = 'CASE-FIRST'"
                + " WHERE claim_id = ?", row.claimId()));

        boolean[] applied = complete(List.of(sent(row, "CASE-AGAIN")));

        assertThat(applied).containsExactly(true);
        assertThat(Sql.scalar(db, "SELECT delivery_state FROM outbox_event", String.class)).isEqualTo("sent");
        assertThat(Sql.scalar(db, "SELECT state_case_id FROM claim", String.class)).isEqualTo("CASE-FIRST");
        assertThat(Sql.scalar(db, "SELECT count(*) FROM claim_status_history WHERE to_status = 'SUBMITTED_TO_STATE'",
                Long.class)).isZero();
    }

    @Test
    void sentRetriedFailedAndReleasedRowsInOneBatch() {
        Outbox.submitted(db, 4);
        List<LeasedRow> rows = lease(4);
        Instant later = Instant.parse("2030-01-01T00:00:00Z");
        List<DeliveryRecord> records = List.of(
                sent(rows.get(0), "CASE-1"),
                DeliveryRecord.retry(rows.get(1), rows.get(1).retryCount() + 1, "503 state portal busy", later,
                        attempt(AttemptOutcome.TRANSIENT, 503, "503 state portal busy")),
                DeliveryRecord.failed(rows.get(2), rows.get(2).retryCount() + 1, "422 invalid_claim",
                        attempt(AttemptOutcome.PERMANENT, 422, "422 invalid_claim")),
                DeliveryRecord.released(rows.get(3)));

        boolean[] applied = complete(records);

        assertThat(applied).containsExactly(true, true, true, true);
        assertThat(strings("SELECT delivery_state || ' ' || attempts || ' ' || coalesce(last_error, '-')"
                + " || ' ' || coalesce(lease_owner, 'free') FROM outbox_event ORDER BY outbox_event_id")).containsExactly(
                "sent 1 - free", "pending 1 503 state portal busy free", "failed 1 422 invalid_claim free",
                "pending 0 - free");
        assertThat(Sql.scalar(db, "SELECT next_attempt_at FROM outbox_event WHERE outbox_event_id = "
                + rows.get(1).outboxEventId(), Long.class)).isEqualTo(later.toEpochMilli());
        assertThat(strings("SELECT outbox_event_id || ' ' || outcome FROM delivery_attempt"
                + " ORDER BY attempt_id")).containsExactly(
                rows.get(0).outboxEventId() + " DELIVERED", rows.get(1).outboxEventId() + " TRANSIENT",
                rows.get(2).outboxEventId() + " PERMANENT");
        assertThat(strings("SELECT status FROM claim ORDER BY claim_id"))
                .containsExactly("SUBMITTED_TO_STATE", "SUBMITTING", "SUBMITTING", "SUBMITTING");
    }

    @Test
    void aLeaseReturnsIdsAndReadingThemSkipsRowsTheOwnerNoLongerHolds() {
        Outbox.submitted(db, 4);
        Instant now = Instant.now();
        DeliveryStore.Session.Taken taken = db.inTransaction(h -> {
            try (DeliveryStore.Session leasing = new DeliveryStore().session(h)) {
                return leasing.lease(OWNER, now, Duration.ofSeconds(60), 10);
            }
        });
        List<Long> ids = taken.ids();
        assertThat(ids).hasSize(4).isSorted();
        db.useTransaction(h -> {
            h.execute("UPDATE outbox_event SET lease_owner = 'worker-b' WHERE outbox_event_id = ?", ids.get(1));
            h.execute("UPDATE outbox_event SET delivery_state = 'abandoned' WHERE outbox_event_id = ?", ids.get(2));
        });

        List<LeasedRow> rows = db.read(h -> new DeliveryStore().leased(h, OWNER, ids));

        assertThat(rows).extracting(LeasedRow::outboxEventId).containsExactly(ids.get(0), ids.get(3));
        LeasedRow first = rows.get(0);
        assertThat(first.payload()).contains("\"claimId\"");
        assertThat(first.idempotencyKey()).isNotBlank();
        assertThat(first.jurisdiction()).isEqualTo("CA");
        assertThat(first.attempts()).isZero();
        assertThat(first.leaseExpiresAt()).as("the lease's end, as the lease said").isEqualTo(taken.leaseEnd());
        if (engine == TestDatabase.Engine.SQLITE) {
            // a file's workers share one machine's clock: the lease ends by the clock given
            assertThat(first.leaseExpiresAt()).isEqualTo(Instant.ofEpochMilli(now.plusSeconds(60).toEpochMilli()));
        } else {
            // a team database keeps leases in the server's time (here the same machine's clock)
            assertThat(first.leaseExpiresAt()).isBetween(now.plusSeconds(59), now.plusSeconds(61));
        }
        List<LeasedRow> none = db.read(h -> new DeliveryStore().leased(h, OWNER, List.of()));
        assertThat(none).isEmpty();
    }

    @Test
    void leasingAgainTakesOnlyTheRowsTheOwnerStillHoldsAndRenewsTheirLease() {
        Outbox.submitted(db, 6);
        List<LeasedRow> rows = lease(5);
        takenOverByAnotherWorker(rows.get(1));
        complete(List.of(sent(rows.get(2), "CASE-1")));
        List<Long> notLeased = strings("SELECT outbox_event_id FROM outbox_event WHERE lease_owner IS NULL"
                + " AND delivery_state = 'pending'").stream().map(Long::valueOf).toList();
        assertThat(notLeased).hasSize(1);
        List<Long> asked = new ArrayList<>(rows.stream().map(LeasedRow::outboxEventId).toList());
        asked.addAll(notLeased);
        long locked = rows.get(4).outboxEventId();
        Instant later = Instant.now().plusSeconds(30);

        DeliveryStore.Session.Regained again;
        if (engine == TestDatabase.Engine.POSTGRESQL) {
            // on a team database another transaction may hold a row locked (the failed commit still under way on the
            // server, another worker leasing it): it is neither taken nor left, but asked about again
            try (Handle other = db.jdbi().open()) {
                other.begin();
                other.createQuery("SELECT outbox_event_id FROM outbox_event WHERE outbox_event_id = :id FOR UPDATE")
                        .bind("id", locked).mapTo(Long.class).one();
                again = leaseAgain(asked, later);
                other.rollback();
            }
            assertThat(again.taken().ids()).containsExactly(rows.get(0).outboxEventId(), rows.get(3).outboxEventId());
            assertThat(again.undecided()).containsExactly(locked);
            assertThat(leaseAgain(again.undecided(), later).taken().ids()).containsExactly(locked);
        } else {
            // a file's writer holds the whole database: every row is looked at
            again = leaseAgain(asked, later);
            assertThat(again.taken().ids()).containsExactly(rows.get(0).outboxEventId(), rows.get(3).outboxEventId(),
                    locked);
            assertThat(again.undecided()).isEmpty();
        }

        List<Long> held = List.of(rows.get(0).outboxEventId(), rows.get(3).outboxEventId(), locked);
        List<LeasedRow> read = db.read(h -> new DeliveryStore().leased(h, OWNER, held));
        assertThat(read).hasSize(3);
        for (LeasedRow row : read) {
            if (engine == TestDatabase.Engine.SQLITE) {
                assertThat(row.leaseExpiresAt()).isEqualTo(Instant.ofEpochMilli(later.plusSeconds(60).toEpochMilli()));
            } else {
                // the server's now, not the time given, starts the lease on a team database
                assertThat(row.leaseExpiresAt()).isBetween(Instant.now().plusSeconds(55), Instant.now().plusSeconds(61));
            }
        }
        assertThat(Sql.scalar(db, "SELECT lease_owner FROM outbox_event WHERE outbox_event_id = "
                + rows.get(1).outboxEventId(), String.class)).isEqualTo("worker-b");
        assertThat(Sql.scalar(db, "SELECT count(*) FROM outbox_event WHERE lease_owner IS NULL AND outbox_event_id = "
                + notLeased.get(0), Long.class)).isEqualTo(1);
        assertThat(leaseAgain(List.of(), later)).isEqualTo(new DeliveryStore.Session.Regained(
                new DeliveryStore.Session.Taken(List.of(), null), List.of()));
    }

    /**
     * A row this worker leased, then leased again (a lease whose commit's answer was lost, taken back): an outcome
     * made under the first lease, a release or an attempt's, is not written over the second, which sends the row
     * itself; only the attempt is kept, marked. The second lease's outcome is written.
     */
    @Test
    void anOutcomeOfAnEarlierLeaseIsNotWrittenOverALaterLeaseOfTheSameWorker() {
        Outbox.submitted(db, 1);
        LeasedRow first = lease(1).get(0);
        // the second lease a millisecond later at least, as the server's clock counts too
        org.awaitility.Awaitility.await()
                .until(() -> Instant.now().plusSeconds(60).isAfter(first.leaseExpiresAt().plusMillis(1)));
        DeliveryStore.Session.Regained again = leaseAgain(List.of(first.outboxEventId()), Instant.now().plusSeconds(5));
        assertThat(again.taken().ids()).containsExactly(first.outboxEventId());
        assertThat(again.taken().leaseEnd()).isAfter(first.leaseExpiresAt());
        LeasedRow second = db.read(h -> new DeliveryStore().leased(h, OWNER, List.of(first.outboxEventId()))).get(0);
        assertThat(second.leaseExpiresAt()).isEqualTo(again.taken().leaseEnd());

        assertThat(complete(List.of(DeliveryRecord.released(first)))).containsExactly(false);
        assertThat(complete(List.of(DeliveryRecord.retry(first, first.retryCount() + 1, "503 state portal busy",
                Instant.now(), new DeliveryRecord.Attempt(Instant.now(), 40, AttemptOutcome.TRANSIENT, 503,
                        "503 state portal busy"))))).containsExactly(false);
        assertThat(strings("SELECT lease_owner || ' ' || lease_expires_at || ' ' || delivery_state || ' ' || attempts"
                + " FROM outbox_event")).containsExactly(OWNER + " " + second.leaseExpiresAt().toEpochMilli()
                        + " pending 0");

        assertThat(complete(List.of(sent(second, "CASE-2")))).containsExactly(true);
        assertThat(strings("SELECT delivery_state || ' ' || coalesce(lease_owner, '-') FROM outbox_event"))
                .containsExactly("sent -");
        assertThat(strings("SELECT outcome || ' ' || substr(detail, 1, 11) FROM delivery_attempt ORDER BY attempt_id"))
                .containsExactly("TRANSIENT [lease lost", "DELIVERED 201 accepte");
    }

    private DeliveryStore.Session.Regained leaseAgain(List<Long> ids, Instant now) {
        return db.inTransaction(h -> {
            try (DeliveryStore.Session leasing = new DeliveryStore().session(h)) {
                return leasing.leaseAgain(OWNER, ids, now, Duration.ofSeconds(60));
            }
        });
    }

    /** Another worker's lease on {@code row}, as when this one's ran out and that one took the row. */
    private void takenOverByAnotherWorker(LeasedRow row) {
        db.useTransaction(h -> h.execute("UPDATE outbox_event SET lease_owner = 'worker-b' WHERE outbox_event_id = ?",
                row.outboxEventId()));
    }

    /** The last {@link #complete} committed, its answer lost: the next one runs on a new connection, as a retry. */
    private void answerLost() {
        session.close();
        handle.close();
    }

    private List<String> strings(String sql) {
        return db.read(h -> h.createQuery(sql).mapTo(String.class).list());
    }

    private List<LeasedRow> lease(int limit) {
        Instant now = Instant.now();
        List<Long> ids = db.inTransaction(h -> {
            try (DeliveryStore.Session leasing = new DeliveryStore().session(h)) {
                return leasing.lease(OWNER, now, Duration.ofSeconds(60), limit).ids();
            }
        });
        return db.read(h -> new DeliveryStore().leased(h, OWNER, ids));
    }

    private boolean[] complete(List<DeliveryRecord> records) {
        handle = db.jdbi().open();
        session = new DeliveryStore().session(handle);
        return handle.inTransaction(h -> session.complete(OWNER, records, Instant.now()));
    }

    /** Each row accepted by the state under the case id CASE-{its id}. */
    private static List<DeliveryRecord> sentEach(List<LeasedRow> rows) {
        return rows.stream().map(r -> sent(r, "CASE-" + r.outboxEventId())).toList();
    }

    private static DeliveryRecord sent(LeasedRow row, String caseId) {
        return DeliveryRecord.delivered(row, caseId, DUE,
                new DeliveryRecord.Attempt(Instant.now(), 3, AttemptOutcome.DELIVERED, 201, "201 accepted: case id " + caseId));
    }

    private static DeliveryRecord.Attempt attempt(AttemptOutcome outcome, int status, String detail) {
        return new DeliveryRecord.Attempt(Instant.now(), 3, outcome, status, detail);
    }
}
