package org.claimdesk.testing;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.claimdesk.app.SubmitResult;
import org.claimdesk.app.Workflow;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.store.Database;

/** Queues submissions the way staff do (READY_FOR_SUBMISSION, then submit) and reads the outcome back. */
public final class Outbox {
    private Outbox() {
    }

    public static List<SubmitResult> submitted(Database db, int count) {
        return submitted(db, count, "CA");
    }

    public static List<SubmitResult> submitted(Database db, int count, String jurisdiction) {
        Workflow workflow = new Workflow(db, Clock.systemUTC(), Deadlines.statutory());
        List<SubmitResult> results = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long claimId = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION, jurisdiction);
            results.add(workflow.submit(claimId, "s.patel", null));
        }
        return results;
    }

    public static long count(Database db, DeliveryState state) {
        return db.read(h -> h.createQuery("SELECT count(*) FROM outbox_event WHERE delivery_state = :s")
                .bind("s", state.dbValue()).mapTo(Long.class).one());
    }

    /** The outbox's rows per delivery state, counted row by row, every state present (0 when it has none). */
    public static Map<DeliveryState, Integer> countsByState(Database db) {
        Map<DeliveryState, Integer> rows = new java.util.EnumMap<>(DeliveryState.class);
        for (DeliveryState s : DeliveryState.values()) {
            rows.put(s, (int) count(db, s));
        }
        return rows;
    }

    /** claim id to state case id, for every claim that has one. */
    public static Map<Long, String> caseIds(Database db) {
        return db.read(h -> h.createQuery("SELECT claim_id, state_case_id FROM claim WHERE state_case_id IS NOT NULL")
                .reduceRows(new java.util.HashMap<Long, String>(), (map, row) -> {
                    map.put(row.getColumn("claim_id", Long.class), row.getColumn("state_case_id", String.class));
                    return map;
                }));
    }

    public static void setPayload(Database db, long outboxEventId, String eventType, String payload) {
        db.useTransaction(h -> h.createUpdate(
                "UPDATE outbox_event SET event_type = :t, payload = :p WHERE outbox_event_id = :id")
                .bind("t", eventType).bind("p", payload).bind("id", outboxEventId).execute());
    }

    /** When the row falls due, in epoch milliseconds. */
    public static long nextAttemptAt(Database db, long outboxEventId) {
        return db.read(h -> h.createQuery("SELECT next_attempt_at FROM outbox_event WHERE outbox_event_id = :id")
                .bind("id", outboxEventId).mapTo(Long.class).one());
    }

    public static int retryCount(Database db, long outboxEventId) {
        return db.read(h -> h.createQuery("SELECT retry_count FROM outbox_event WHERE outbox_event_id = :id")
                .bind("id", outboxEventId).mapTo(Integer.class).one());
    }
}
