package org.claimdesk.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.ErrorSignature;
import org.claimdesk.domain.FailureGroup;
import org.claimdesk.domain.OutboxEvent;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/** SQL for {@code outbox_event} and {@code delivery_attempt}. Every method runs on the caller's handle. */
public final class OutboxStore {

    public long insert(Handle handle, long aggregateId, String eventType, String payload, String idempotencyKey,
            Instant now) {
        return handle.createUpdate("""
                INSERT INTO outbox_event (aggregate_id, event_type, payload, delivery_state, attempts,
                    idempotency_key, next_attempt_at, created_at, updated_at)
                VALUES (:aggregateId, :eventType, :payload, 'pending', 0, :key, :now, :now, :now)
                """)
                .bind("aggregateId", aggregateId)
                .bind("eventType", eventType)
                .bind("payload", payload)
                .bind("key", idempotencyKey)
                .bind("now", now.toEpochMilli())
                .executeAndReturnGeneratedKeys("outbox_event_id")
                .mapTo(Long.class)
                .one();
    }

    public Optional<OutboxEvent> find(Handle handle, long outboxEventId) {
        return handle.createQuery("SELECT * FROM outbox_event WHERE outbox_event_id = :id")
                .bind("id", outboxEventId).map(Rows.OUTBOX_EVENT).findOne();
    }

    /** The rows among {@code outboxEventIds} that exist, in the order of the ids: one query for a page. */
    public List<OutboxEvent> findAll(Handle handle, List<Long> outboxEventIds) {
        if (outboxEventIds.isEmpty()) {
            return List.of();
        }
        Map<Long, OutboxEvent> byId = new HashMap<>();
        handle.createQuery("SELECT * FROM outbox_event WHERE outbox_event_id IN (<ids>)")
                .bindList("ids", outboxEventIds)
                .map(Rows.OUTBOX_EVENT).forEach(e -> byId.put(e.outboxEventId(), e));
        List<OutboxEvent> ordered = new ArrayList<>(byId.size());
        for (Long id : outboxEventIds) {
            OutboxEvent e = byId.get(id);
            if (e != null) {
                ordered.add(e);
            }
        }
        return ordered;
    }

    public Optional<OutboxEvent> findByKey(Handle handle, String idempotencyKey) {
        return handle.createQuery("SELECT * FROM outbox_event WHERE idempotency_key = :key")
                .bind("key", idempotencyKey).map(Rows.OUTBOX_EVENT).findOne();
    }

    public List<OutboxEvent> forClaim(Handle handle, long claimId) {
        return handle.createQuery("SELECT * FROM outbox_event WHERE aggregate_id = :id ORDER BY outbox_event_id")
                .bind("id", claimId).map(Rows.OUTBOX_EVENT).list();
    }

    public List<OutboxEvent> list(Handle handle, OutboxQuery query) {
        StringBuilder sql = new StringBuilder("SELECT o.* FROM outbox_event o");
        List<Map.Entry<String, Object>> bindings = where(query, sql);
        sql.append(" ORDER BY o.outbox_event_id");
        if (query.limit() > 0) {
            sql.append(" LIMIT ").append(query.limit()).append(" OFFSET ").append(query.offset());
        }
        Query q = handle.createQuery(sql.toString());
        bindings.forEach(b -> q.bind(b.getKey(), b.getValue()));
        return q.map(Rows.OUTBOX_EVENT).list();
    }

    public int count(Handle handle, OutboxQuery query) {
        StringBuilder sql = new StringBuilder("SELECT count(*) FROM outbox_event o");
        List<Map.Entry<String, Object>> bindings = where(query, sql);
        Query q = handle.createQuery(sql.toString());
        bindings.forEach(b -> q.bind(b.getKey(), b.getValue()));
        return q.mapTo(Integer.class).one();
    }

    public Map<DeliveryState, Integer> countByState(Handle handle) {
        Map<DeliveryState, Integer> counts = new EnumMap<>(DeliveryState.class);
        for (DeliveryState s : DeliveryState.values()) {
            counts.put(s, 0);
        }
        handle.createQuery("SELECT delivery_state, count(*) AS n FROM outbox_event GROUP BY delivery_state")
                .map((rs, ctx) -> Map.entry(DeliveryState.fromDb(rs.getString(1)), rs.getInt(2)))
                .forEach(e -> counts.put(e.getKey(), e.getValue()));
        return counts;
    }

    public List<DeliveryAttempt> attempts(Handle handle, long outboxEventId) {
        return handle.createQuery("SELECT * FROM delivery_attempt WHERE outbox_event_id = :id ORDER BY attempt_no, attempt_id")
                .bind("id", outboxEventId).map(Rows.DELIVERY_ATTEMPT).list();
    }

    public void insertAttempt(Handle handle, long outboxEventId, int attemptNo, Instant startedAt, long durationMs,
            AttemptOutcome outcome, Integer httpStatus, String detail, String workerId) {
        handle.createUpdate("""
                INSERT INTO delivery_attempt (outbox_event_id, attempt_no, started_at, duration_ms, outcome,
                    http_status, detail, worker_id)
                VALUES (:id, :no, :started, :duration, :outcome, :http, :detail, :worker)
                """)
                .bind("id", outboxEventId)
                .bind("no", attemptNo)
                .bind("started", startedAt.toEpochMilli())
                .bind("duration", durationMs)
                .bind("outcome", outcome.name())
                .bind("http", httpStatus)
                .bind("detail", DeliveryAttempt.truncate(detail))
                .bind("worker", workerId)
                .execute();
    }

    /**
     * Failed rows grouped by {@link ErrorSignature}: count, first and last failure, and the newest full
     * error text of each group; largest group first. SQLite groups the distinct texts, Java merges
     * texts that share a signature.
     */
    public List<FailureGroup> failureGroups(Handle handle) {
        Map<String, FailureGroup> groups = new HashMap<>();
        handle.createQuery("""
                SELECT last_error, count(*) AS n, min(updated_at) AS first_at, max(updated_at) AS last_at
                FROM outbox_event WHERE delivery_state = 'failed' GROUP BY last_error""")
                .map((rs, ctx) -> new FailureGroup(ErrorSignature.of(rs.getString("last_error")), rs.getInt("n"),
                        Instant.ofEpochMilli(rs.getLong("first_at")), Instant.ofEpochMilli(rs.getLong("last_at")),
                        rs.getString("last_error")))
                .forEach(g -> groups.merge(g.signature(), g, (a, b) -> new FailureGroup(a.signature(),
                        a.count() + b.count(),
                        a.firstSeen().isBefore(b.firstSeen()) ? a.firstSeen() : b.firstSeen(),
                        a.lastSeen().isAfter(b.lastSeen()) ? a.lastSeen() : b.lastSeen(),
                        a.lastSeen().isAfter(b.lastSeen()) ? a.sampleError() : b.sampleError())));
        List<FailureGroup> sorted = new ArrayList<>(groups.values());
        sorted.sort(Comparator.comparingInt(FailureGroup::count).reversed()
                .thenComparing(FailureGroup::lastSeen, Comparator.reverseOrder()));
        return sorted;
    }

    private static List<Map.Entry<String, Object>> where(OutboxQuery query, StringBuilder sql) {
        List<String> clauses = new ArrayList<>();
        List<Map.Entry<String, Object>> bindings = new ArrayList<>();
        if (query.jurisdiction() != null && !query.jurisdiction().isBlank()) {
            sql.append(" JOIN claim c ON c.claim_id = o.aggregate_id");
            clauses.add("c.jurisdiction = :jurisdiction");
            bindings.add(Map.entry("jurisdiction", query.jurisdiction().trim().toUpperCase(Locale.ROOT)));
        }
        if (query.state() != null) {
            clauses.add("o.delivery_state = :state");
            bindings.add(Map.entry("state", query.state().dbValue()));
        }
        if (query.errorText() != null && !query.errorText().isBlank()) {
            clauses.add("o.last_error LIKE :error ESCAPE '!'");
            bindings.add(Map.entry("error", Like.contains(query.errorText().trim())));
        }
        if (query.createdBefore() != null) {
            clauses.add("o.created_at < :before");
            bindings.add(Map.entry("before", query.createdBefore().toEpochMilli()));
        }
        if (query.claimId() != null) {
            clauses.add("o.aggregate_id = :claimId");
            bindings.add(Map.entry("claimId", query.claimId()));
        }
        if (!clauses.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", clauses));
        }
        return bindings;
    }
}
