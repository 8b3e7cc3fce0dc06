package org.claimdesk.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.FailureGroup;
import org.claimdesk.domain.OutboxEvent;
import org.jdbi.v3.core.Handle;

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

    /**
     * The row, held until the transaction ends. Whoever changes a row and its claim in one transaction takes the row
     * first, then the claim, so that two of them never wait for each other.
     */
    public Optional<OutboxEvent> findForUpdate(Handle handle, long outboxEventId) {
        return handle.createQuery("SELECT * FROM outbox_event WHERE outbox_event_id = :id"
                + Dialect.of(handle).lockRow()).bind("id", outboxEventId).map(Rows.OUTBOX_EVENT).findOne();
    }

    /** The rows among {@code outboxEventIds} that exist, in the order of the ids: one query for a page. */
    public List<OutboxEvent> findAll(Handle handle, List<Long> outboxEventIds) {
        if (outboxEventIds.isEmpty()) {
            return List.of();
        }
        Map<Long, OutboxEvent> byId = new HashMap<>();
        handle.createQuery("SELECT * FROM outbox_event WHERE "
                        + Dialect.of(handle).inList("outbox_event_id", "ids", true))
                .bind("ids", Json.write(outboxEventIds))
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

    /**
     * Makes the caller's transaction the only one submitting under {@code idempotencyKey} until it ends (on a team
     * database another workstation's submit with the same key waits for it), then returns the row that already
     * carries the key, if any: a replay finds the first submission instead of colliding with it.
     */
    public Optional<OutboxEvent> claimKey(Handle handle, String idempotencyKey) {
        Dialect.of(handle).serialize(handle, "claimdesk.submission-key:" + idempotencyKey);
        return findByKey(handle, idempotencyKey);
    }

    public Optional<OutboxEvent> findByKey(Handle handle, String idempotencyKey) {
        return handle.createQuery("SELECT * FROM outbox_event WHERE idempotency_key = :key")
                .bind("key", idempotencyKey).map(Rows.OUTBOX_EVENT).findOne();
    }

    /**
     * Whether one of the claim's rows is pending: its submission is queued, being sent or waiting to be retried (as
     * {@code OutboxEvent.anyPending} says of rows already read).
     */
    public boolean hasPending(Handle handle, long claimId) {
        return withPending(handle, List.of(claimId)).contains(claimId);
    }

    /**
     * {@link #withPending}'s statement: the listed claims' rows read through the claims' index. Given the delivery
     * state's index as well, SQLite (which keeps no statistics here) read every pending row instead, 0.13 s at 27,000 of
     * them for one claim; {@code || ''} keeps that index out of the choice on both engines.
     */
    static String withPendingSql(Dialect dialect) {
        return "SELECT DISTINCT aggregate_id FROM outbox_event WHERE " + dialect.inList("aggregate_id", "ids", true)
                + " AND delivery_state || '' = :pending";
    }

    /** The claims among {@code claimIds} with a pending row ({@link #hasPending}): one query for a page of claims. */
    public Set<Long> withPending(Handle handle, Collection<Long> claimIds) {
        Set<Long> found = new HashSet<>();
        if (claimIds.isEmpty()) {
            return found;
        }
        handle.createQuery(withPendingSql(Dialect.of(handle)))
                .bind("ids", Json.write(List.copyOf(new LinkedHashSet<>(claimIds))))
                .bind("pending", DeliveryState.PENDING.dbValue())
                .mapTo(Long.class).forEach(found::add);
        return found;
    }

    public List<OutboxEvent> forClaim(Handle handle, long claimId) {
        return handle.createQuery("SELECT * FROM outbox_event WHERE aggregate_id = :id ORDER BY outbox_event_id")
                .bind("id", claimId).map(Rows.OUTBOX_EVENT).list();
    }

    /**
     * How many ids from the outbox's first a page narrowed by state or jurisdiction is first looked for in, on SQLite
     * ({@link #list}).
     */
    static final int PAGE_WINDOW = 20_000;

    /**
     * The rows {@code query} selects (its page), in id order. On SQLite a page narrowed by a state that holds a
     * quarter of the outbox or more (by the tally) is read in id order, each row tested as it comes, the read ending
     * with the page: a page of the sent rows reads a few hundred rows, the last one the outbox once in its own order
     * (0.37 s at 564,000 rows), where the state's index reads every row in the state by its key and sorts them for
     * any page (2.1 s past the first 20,000 sent rows). A page narrowed by jurisdiction as well, or by jurisdiction
     * alone, is first looked for among the outbox's first {@value #PAGE_WINDOW} ids that way; a window that does not
     * hold the whole page (a small jurisdiction's, a page far on) is read again from the indexes, which start from the
     * jurisdiction's claims. Failed and pending rows, few and recent, are read from the indexes at once, their page's
     * ids first ({@link #idsFirstPageStatement}), as are a signature's rows; a claim's and rows named by id, with a
     * dense state, after a window without them. A search of error texts in any state but failed reads the ids of the
     * rows that have a text from their own index first ({@link OutboxWhere#readByErrorText}).
     */
    public List<OutboxEvent> list(Handle handle, OutboxQuery query) {
        return list(handle, query, PAGE_WINDOW);
    }

    List<OutboxEvent> list(Handle handle, OutboxQuery query, int window) {
        if (query.limit() > 0 && Dialect.of(handle) == Dialect.SQLITE && query.signature() == null
                && !OutboxWhere.readByErrorText(handle, query)
                && (query.state() != null || query.jurisdiction() != null) && denseState(handle, query.state())) {
            OutboxWhere w = OutboxWhere.inIdOrder(handle, query);
            if (query.jurisdiction() == null && query.claimId() == null && query.ids().isEmpty()) {
                return w.bind(handle.createQuery(pageStatement(w, query))).map(Rows.OUTBOX_EVENT).list();
            }
            List<OutboxEvent> found = w.bind(handle.createQuery(windowedPageStatement(w, query)))
                    .bind("window", window).map(Rows.OUTBOX_EVENT).list();
            if (found.size() == query.limit()) {
                // the window is the outbox's first ids: the first matches in it are the first there are
                return found;
            }
        }
        OutboxWhere w = OutboxWhere.of(handle, query);
        boolean idsFirst = query.limit() > 0 && Dialect.of(handle) == Dialect.SQLITE
                && (query.state() != null && byStateAlone(query) || w.byErrorText);
        return w.bind(handle.createQuery(idsFirst ? idsFirstPageStatement(w, query) : pageStatement(w, query)))
                .map(Rows.OUTBOX_EVENT).list();
    }

    /**
     * {@link #pageStatement} with the page's ids read first, then its rows by their keys: for rows narrowed by their
     * state alone the ids come from the state's index without a row read, where the page's statement reads every row
     * in the state whole to sort them (on a 1,000,000-claim demo file, 26,682 pending rows: 2-3 ms against 12 ms, and
     * 0.33 s from a cold cache).
     */
    static String idsFirstPageStatement(OutboxWhere w, OutboxQuery query) {
        return "SELECT o.* FROM outbox_event o WHERE o.outbox_event_id IN (SELECT o.outbox_event_id FROM " + w.from
                + w.where + " ORDER BY " + w.idOrder() + page(query) + ") ORDER BY o.outbox_event_id";
    }

    /** Whether {@code state} (null: any) holds a quarter of the outbox's rows or more, by the tally. */
    private boolean denseState(Handle handle, DeliveryState state) {
        if (state == null) {
            return true;
        }
        Map<DeliveryState, Integer> byState = countByState(handle);
        long all = byState.values().stream().mapToLong(Integer::longValue).sum();
        return byState.get(state) * 4L >= all;
    }

    /** {@link #pageStatement} within the outbox's first {@code :window} ids, read in id order ({@link OutboxWhere#inIdOrder}). */
    static String windowedPageStatement(OutboxWhere w, OutboxQuery query) {
        return "SELECT o.* FROM " + w.from
                + w.whereAnd("o.outbox_event_id < (SELECT min(outbox_event_id) FROM outbox_event) + :window")
                + " ORDER BY o.outbox_event_id" + page(query);
    }

    /** The statement of {@code query}'s page, its rows in id order. */
    static String pageStatement(OutboxWhere w, OutboxQuery query) {
        return "SELECT o.* FROM " + w.from + w.where + " ORDER BY " + w.idOrder() + page(query);
    }

    /**
     * The rows {@code query} selects (its page ignored) whose id is above {@code afterId}, by id, at most {@code limit}:
     * pages read one after the other this way, each a short read of its own, neither skip nor repeat a row.
     */
    public List<OutboxEvent> pageAfter(Handle handle, OutboxQuery query, long afterId, int limit) {
        // On SQLite each batch is read in id order from the last row written and ends with its limit, so the batches
        // of an export read the outbox once between them; through the indexes each would gather and sort every match
        // past it (a jurisdiction's, the sent rows)
        OutboxWhere w = Dialect.of(handle) == Dialect.SQLITE && query.signature() == null
                ? OutboxWhere.inIdOrder(handle, query.unpaged()) : OutboxWhere.of(handle, query.unpaged());
        return w.bind(handle.createQuery(pageAfterStatement(w)))
                .bind("after", afterId).bind("limit", limit).map(Rows.OUTBOX_EVENT).list();
    }

    /** {@link #pageAfter}'s statement: the rows {@code w} selects past {@code :after}, at most {@code :limit}. */
    static String pageAfterStatement(OutboxWhere w) {
        return "SELECT o.* FROM " + w.from + w.whereAnd("o.outbox_event_id > :after")
                + " ORDER BY o.outbox_event_id LIMIT :limit";
    }

    /**
     * How many rows {@code query} selects (its page ignored). Rows narrowed by their delivery state alone, or not
     * at all, are counted from the tally ({@link #countByState}), as the Outbox page's total for a state is read at
     * each of its refreshes: a count of the sent rows would read most of a large outbox.
     */
    public int count(Handle handle, OutboxQuery query) {
        if (byStateAlone(query)) {
            Map<DeliveryState, Integer> byState = countByState(handle);
            return query.state() == null ? byState.values().stream().mapToInt(Integer::intValue).sum()
                    : byState.get(query.state());
        }
        OutboxWhere w = OutboxWhere.of(handle, query);
        return w.bind(handle.createQuery(countStatement(w))).mapTo(Integer.class).one();
    }

    /** Whether {@code query} narrows the rows by their delivery state alone (null: not at all), its page aside. */
    private static boolean byStateAlone(OutboxQuery query) {
        return query.unpaged().equals(OutboxQuery.all().withState(query.state()));
    }

    /** The statement counting the rows {@code w} selects, one by one. */
    static String countStatement(OutboxWhere w) {
        return "SELECT count(*) FROM " + w.from + w.where;
    }

    /** Whether {@code query} selects any row: the first one found ends the read, where a count reads them all. */
    public boolean any(Handle handle, OutboxQuery query) {
        OutboxWhere w = OutboxWhere.of(handle, query);
        return w.bind(handle.createQuery("SELECT EXISTS (SELECT 1 FROM " + w.from + w.where + ")"))
                .mapTo(Boolean.class).one();
    }

    /**
     * The rows {@code query} selects (its page), in id order, as a bulk action's preview sees them: without
     * their payloads, with what tells later whether they changed since.
     */
    public List<OutboxStamp> stamps(Handle handle, OutboxQuery query) {
        OutboxWhere w = OutboxWhere.of(handle, query);
        return w.bind(handle.createQuery("""
                SELECT o.outbox_event_id, o.aggregate_id, o.idempotency_key, o.last_error, o.delivery_state, o.updated_at
                FROM\s""" + w.from + w.where + " ORDER BY " + w.idOrder() + page(query)))
                .map((rs, ctx) -> new OutboxStamp(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4),
                        DeliveryState.fromDb(rs.getString(5)), rs.getLong(6)))
                .list();
    }

    private static String page(OutboxQuery query) {
        return query.limit() > 0 ? " LIMIT " + query.limit() + " OFFSET " + query.offset() : "";
    }

    /** The outbox's rows per delivery state, every state present (0 when it has none). */
    public Map<DeliveryState, Integer> countByState(Handle handle) {
        Map<DeliveryState, Integer> counts = new EnumMap<>(DeliveryState.class);
        for (DeliveryState s : DeliveryState.values()) {
            counts.put(s, 0);
        }
        handle.createQuery(Dialect.of(handle).outboxCountsQuery())
                .map((rs, ctx) -> Map.entry(DeliveryState.fromDb(rs.getString(1)), Math.toIntExact(rs.getLong(2))))
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
     * The failed rows among those {@code query} selects (its state and page ignored: the groups are always of
     * failed rows), grouped by {@link ErrorSignature}: count, first and last failure, and the newest full error
     * text of each group; {@link FailureGroup#LARGEST_FIRST}. SQLite groups the distinct texts, {@link
     * FailureGroup#bySignature} merges the texts that share a signature.
     */
    public List<FailureGroup> failureGroups(Handle handle, OutboxQuery query) {
        OutboxWhere w = failedRowsOf(handle, query);
        List<FailureGroup> texts = w.bind(handle.createQuery(failureGroupsStatement(w)))
                .map((rs, ctx) -> FailureGroup.of(rs.getString("last_error"), rs.getInt("n"),
                        Instant.ofEpochMilli(rs.getLong("first_at")), Instant.ofEpochMilli(rs.getLong("last_at"))))
                .list();
        return FailureGroup.bySignature(texts);
    }

    /** The failed rows among those {@code query} selects, whatever its state and page. */
    static OutboxWhere failedRowsOf(Handle handle, OutboxQuery query) {
        return OutboxWhere.of(handle, query.withState(DeliveryState.FAILED).unpaged());
    }

    /**
     * The error groups' statement: one row per distinct error text of the rows {@code failed} selects. On SQLite it
     * reads the failed rows' index in the order of their texts (schema version 14), without sorting them; under a
     * jurisdiction the failed rows' claims, each probed in the jurisdiction's index ({@link
     * Dialect#outboxOfJurisdiction}), their texts then sorted.
     */
    static String failureGroupsStatement(OutboxWhere failed) {
        return "SELECT o.last_error, count(*) AS n, min(o.updated_at) AS first_at, max(o.updated_at) AS last_at FROM "
                + failed.from + failed.where + " GROUP BY o.last_error";
    }

    /**
     * Puts a failed row back to {@code pending}, due now, its backoff restarted from the base (attempt
     * numbering and history go on). Only if it is still as {@code seen}; returns whether it was.
     */
    public boolean requeue(Handle handle, OutboxStamp seen, Instant now) {
        return handle.createUpdate("""
                UPDATE outbox_event SET delivery_state = 'pending', next_attempt_at = :now, retry_count = 0,
                    lease_owner = NULL, lease_expires_at = NULL, updated_at = :now
                WHERE outbox_event_id = :id AND delivery_state = 'failed' AND updated_at = :seen""")
                .bind("now", now.toEpochMilli()).bind("id", seen.outboxEventId()).bind("seen", seen.updatedAt())
                .execute() == 1;
    }

    /**
     * Marks a failed row {@code sent} with the case id under which the state already holds it (reconcile).
     * Only if it is still as {@code seen}; returns whether it was.
     */
    public boolean markReconciled(Handle handle, OutboxStamp seen, String caseId, Instant now) {
        return handle.createUpdate("""
                UPDATE outbox_event SET delivery_state = 'sent', state_case_id = :caseId, sent_at = :now,
                    lease_owner = NULL, lease_expires_at = NULL, updated_at = :now
                WHERE outbox_event_id = :id AND delivery_state = 'failed' AND updated_at = :seen""")
                .bind("caseId", caseId).bind("now", now.toEpochMilli()).bind("id", seen.outboxEventId())
                .bind("seen", seen.updatedAt())
                .execute() == 1;
    }

    /** Gives a failed row up for good ({@code abandoned}). Only if it is still as {@code seen}; returns whether it was. */
    public boolean abandon(Handle handle, OutboxStamp seen, Instant now) {
        return handle.createUpdate("""
                UPDATE outbox_event SET delivery_state = 'abandoned', updated_at = :now
                WHERE outbox_event_id = :id AND delivery_state = 'failed' AND updated_at = :seen""")
                .bind("now", now.toEpochMilli()).bind("id", seen.outboxEventId()).bind("seen", seen.updatedAt())
                .execute() == 1;
    }

    /**
     * Marks a failed row {@code superseded} by {@code newRowId}, the row that resubmits its claim with corrected
     * data. Only if it is still as {@code seen}; returns whether it was.
     */
    public boolean supersede(Handle handle, OutboxStamp seen, long newRowId, Instant now) {
        return handle.createUpdate("""
                UPDATE outbox_event SET delivery_state = 'superseded', superseded_by = :newId,
                    lease_owner = NULL, lease_expires_at = NULL, updated_at = :now
                WHERE outbox_event_id = :id AND delivery_state = 'failed' AND updated_at = :seen""")
                .bind("newId", newRowId).bind("now", now.toEpochMilli()).bind("id", seen.outboxEventId())
                .bind("seen", seen.updatedAt())
                .execute() == 1;
    }

    /** How each row's last attempt ended, for the rows among {@code outboxEventIds} that were tried. */
    public Map<Long, AttemptOutcome> lastOutcomes(Handle handle, List<Long> outboxEventIds) {
        Map<Long, AttemptOutcome> outcomes = new HashMap<>();
        if (outboxEventIds.isEmpty()) {
            return outcomes;
        }
        handle.createQuery("""
                SELECT a.outbox_event_id, a.outcome FROM delivery_attempt a
                WHERE %s
                  AND a.attempt_id = (SELECT max(b.attempt_id) FROM delivery_attempt b
                                      WHERE b.outbox_event_id = a.outbox_event_id)"""
                        .formatted(Dialect.of(handle).inList("a.outbox_event_id", "ids", true)))
                .bind("ids", Json.write(outboxEventIds))
                .map((rs, ctx) -> Map.entry(rs.getLong(1), AttemptOutcome.valueOf(rs.getString(2))))
                .forEach(e -> outcomes.put(e.getKey(), e.getValue()));
        return outcomes;
    }

    /**
     * Whether a worker could lease a pending row at {@code now}: due, and not leased or its lease expired, judged as
     * a lease is ({@link DeliveryStore#dueSql}: on a team database by the server's clock, which leases are kept in).
     * The first one found ends the read.
     */
    public boolean anyLeasable(Handle handle, Instant now) {
        String clock = Dialect.of(handle).leaseClock();
        return handle.createQuery("""
                SELECT EXISTS (SELECT 1 FROM outbox_event WHERE delivery_state = 'pending' AND next_attempt_at <= :now
                  AND (lease_owner IS NULL OR lease_expires_at <= %s))""".formatted(clock == null ? ":now" : clock))
                .bind("now", now.toEpochMilli()).mapTo(Boolean.class).one();
    }
}
