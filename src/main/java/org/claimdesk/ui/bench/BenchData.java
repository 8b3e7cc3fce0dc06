package org.claimdesk.ui.bench;

import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import org.claimdesk.app.DemoData;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.SubmissionPayload;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.claimdesk.store.Rows;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * The benchmark's database: demo claims, outbox rows topped up to the wanted number (extra rows are sent
 * submissions of claims that had none), and {@code drain} rows made pending and due with their claims in
 * SUBMITTING, one row per claim, so the worker has real work while the console refreshes.
 */
final class BenchData {
    static final long SEED = 424_242L;

    record Summary(int claims, int outboxRows, int drainRows, long millis) {
    }

    private BenchData() {
    }

    static Summary prepare(Path file, int claims, int outbox, int drain) {
        long started = System.nanoTime();
        try (Database db = Database.open(file)) {
            LocalDate today = LocalDate.now(ZoneId.systemDefault());
            new DemoData(db, today, Deadlines.statutory()).generate(claims, SEED, n -> { });
            int existing = count(db, "SELECT count(*) FROM outbox_event");
            if (outbox > existing) {
                addSentRows(db, outbox - existing);
            }
            int due = makeDue(db, drain);
            return new Summary(count(db, "SELECT count(*) FROM claim"), count(db, "SELECT count(*) FROM outbox_event"),
                    due, (System.nanoTime() - started) / 1_000_000);
        }
    }

    private static int count(Database db, String sql) {
        return db.read(h -> h.createQuery(sql).mapTo(Integer.class).one());
    }

    private static void addSentRows(Database db, int extra) {
        db.useTransaction(h -> {
            List<Claim> without = h.createQuery("""
                    SELECT * FROM claim c WHERE NOT EXISTS (SELECT 1 FROM outbox_event o WHERE o.aggregate_id = c.claim_id)
                    ORDER BY claim_id""").map(Rows.CLAIM).list();
            List<Claim> any = without.isEmpty() ? h.createQuery("SELECT * FROM claim ORDER BY claim_id LIMIT 10000")
                    .map(Rows.CLAIM).list() : without;
            PreparedBatch batch = h.prepareBatch("""
                    INSERT INTO outbox_event (aggregate_id, event_type, payload, delivery_state, attempts, idempotency_key,
                        next_attempt_at, created_at, sent_at, state_case_id, updated_at)
                    VALUES (:claim, :type, :payload, 'sent', 1, :key, :at, :at, :sent, :caseId, :sent)""");
            long at = Instant.now().minusSeconds(86_400L * 30).toEpochMilli();
            for (int i = 0; i < extra; i++) {
                Claim c = any.get(i % any.size());
                String key = "bench-sub-" + i;
                batch.bind("claim", c.claimId()).bind("type", OutboxEvent.SUBMISSION_REQUESTED)
                        .bind("payload", Json.write(SubmissionPayload.of(c, key))).bind("key", key)
                        .bind("at", at + i).bind("sent", at + i + 400).bind("caseId", c.jurisdiction() + "-B-" + i)
                        .add();
                if (batch.size() >= 2_000) {
                    batch.execute();
                }
            }
            if (batch.size() > 0) {
                batch.execute();
            }
        });
    }

    /** The newest row of each of {@code drain} claims becomes pending and due; its claim goes to SUBMITTING. */
    private static int makeDue(Database db, int drain) {
        if (drain <= 0) {
            return 0;
        }
        return db.inTransaction(h -> {
            h.execute("CREATE TEMP TABLE bench_due AS SELECT max(outbox_event_id) AS id FROM outbox_event"
                    + " GROUP BY aggregate_id ORDER BY 1 DESC LIMIT " + drain);
            int rows = h.execute("""
                    UPDATE outbox_event SET delivery_state = 'pending', next_attempt_at = 0, sent_at = NULL,
                        state_case_id = NULL, last_error = NULL, lease_owner = NULL, lease_expires_at = NULL,
                        retry_count = 0
                    WHERE outbox_event_id IN (SELECT id FROM bench_due)""");
            h.execute("""
                    UPDATE claim SET status = 'SUBMITTING', state_case_id = NULL, decision_due_on = NULL,
                        version = version + 1
                    WHERE claim_id IN (SELECT aggregate_id FROM outbox_event WHERE outbox_event_id IN (SELECT id FROM bench_due))""");
            h.execute("DROP TABLE bench_due");
            return rows;
        });
    }
}
