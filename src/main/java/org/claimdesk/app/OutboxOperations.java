package org.claimdesk.app;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntConsumer;
import org.claimdesk.delivery.StateAdapter;
import org.claimdesk.delivery.StateAnswer;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.ErrorSignature;
import org.claimdesk.domain.NotFoundException;
import org.claimdesk.store.AuditStore;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/**
 * What staff do with failed deliveries: re-queue them (by id or by filter, previewed first, optionally
 * reconciled with the state first) and abandon them. Every change is audited with actor and reason.
 * A row whose state changed between the preview and the action is skipped and counted, never forced.
 */
public final class OutboxOperations {
    /** Rows changed per transaction in bulk actions, so other writers are never held up for long. */
    public static final int CHUNK = 200;

    private final Database database;
    private final Clock clock;
    private final Deadlines deadlines;
    private final ClaimStore claims = new ClaimStore();
    private final AuditStore audit = new AuditStore();

    public OutboxOperations(Database database, Clock clock, Deadlines deadlines) {
        this.database = database;
        this.clock = clock;
        this.deadlines = deadlines;
    }

    /**
     * Which failed rows to act on: the given ids, or every failed row matching all the given criteria.
     *
     * @param signature an {@link ErrorSignature} (exact), or null
     * @param errorText text found in the last error, or null
     * @param jurisdiction the claim's jurisdiction, or null
     * @param failedBefore only rows whose failure was recorded before this instant (age), or null
     */
    public record RequeueFilter(List<Long> ids, String signature, String errorText, String jurisdiction,
            Instant failedBefore) {
        public RequeueFilter {
            ids = ids == null ? List.of() : List.copyOf(new LinkedHashSet<>(ids));
        }

        public static RequeueFilter byIds(Collection<Long> ids) {
            if (ids == null || ids.isEmpty()) {
                throw new ClaimDeskException("name at least one outbox row to re-queue");
            }
            return new RequeueFilter(List.copyOf(ids), null, null, null, null);
        }

        public static RequeueFilter allFailed() {
            return new RequeueFilter(List.of(), null, null, null, null);
        }

        public RequeueFilter withSignature(String value) {
            return new RequeueFilter(ids, value, errorText, jurisdiction, failedBefore);
        }

        public RequeueFilter withErrorText(String value) {
            return new RequeueFilter(ids, signature, value, jurisdiction, failedBefore);
        }

        public RequeueFilter withJurisdiction(String value) {
            return new RequeueFilter(ids, signature, errorText, value, failedBefore);
        }

        public RequeueFilter withFailedBefore(Instant value) {
            return new RequeueFilter(ids, signature, errorText, jurisdiction, value);
        }
    }

    /** One row as the preview saw it; {@code updatedAt} tells later whether it changed since. */
    public record Target(long outboxEventId, long claimId, String idempotencyKey, String lastError, long updatedAt) {
    }

    /**
     * What an action would touch.
     *
     * @param notFailed ids that were asked for but are not failed (and will not be touched), with their state
     */
    public record Preview(List<Target> targets, Map<Long, String> notFailed) {
        public int count() {
            return targets.size();
        }
    }

    /**
     * @param reconciled rows the state already had: completed with its case id, not sent again
     * @param unconfirmed rows re-queued because the state could not be asked (resending is safe: same key)
     * @param skipped rows whose state changed since the preview
     */
    public record RequeueResult(int requeued, int reconciled, int unconfirmed, int skipped, List<Long> requeuedIds,
            List<Long> reconciledIds, List<Long> skippedIds) {
    }

    public record AbandonResult(int abandoned, int skipped, List<Long> abandonedIds, Map<Long, String> skippedReasons) {
    }

    /** The rows a re-queue or abandon with {@code filter} would touch; nothing is changed. */
    public Preview preview(RequeueFilter filter) {
        Objects.requireNonNull(filter, "filter");
        return database.read(h -> filter.ids().isEmpty() ? previewByFilter(h, filter) : previewByIds(h, filter.ids()));
    }

    private Preview previewByIds(Handle h, List<Long> ids) {
        Map<Long, Row> rows = rows(h, ids);
        List<Target> targets = new ArrayList<>();
        Map<Long, String> notFailed = new LinkedHashMap<>();
        for (long id : ids) {
            Row row = rows.get(id);
            if (row == null) {
                throw new NotFoundException("no outbox row with id " + id);
            }
            if (!row.state.equals("failed")) {
                notFailed.put(id, row.state);
            } else {
                targets.add(row.target());
            }
        }
        return new Preview(List.copyOf(targets), notFailed);
    }

    private Preview previewByFilter(Handle h, RequeueFilter filter) {
        StringBuilder sql = new StringBuilder("""
                SELECT o.outbox_event_id, o.aggregate_id, o.idempotency_key, o.last_error, o.updated_at, o.delivery_state
                FROM outbox_event o JOIN claim c ON c.claim_id = o.aggregate_id
                WHERE o.delivery_state = 'failed'""");
        if (filter.jurisdiction() != null && !filter.jurisdiction().isBlank()) {
            sql.append(" AND c.jurisdiction = :jurisdiction");
        }
        if (filter.errorText() != null && !filter.errorText().isBlank()) {
            sql.append(" AND instr(lower(coalesce(o.last_error, '')), :error) > 0");
        }
        if (filter.failedBefore() != null) {
            sql.append(" AND o.updated_at < :before");
        }
        sql.append(" ORDER BY o.outbox_event_id");
        Query q = h.createQuery(sql.toString());
        if (filter.jurisdiction() != null && !filter.jurisdiction().isBlank()) {
            q.bind("jurisdiction", filter.jurisdiction().strip().toUpperCase(Locale.ROOT));
        }
        if (filter.errorText() != null && !filter.errorText().isBlank()) {
            q.bind("error", filter.errorText().strip().toLowerCase(Locale.ROOT));
        }
        if (filter.failedBefore() != null) {
            q.bind("before", filter.failedBefore().toEpochMilli());
        }
        String signature = filter.signature() == null || filter.signature().isBlank() ? null : filter.signature().strip();
        List<Target> targets = q.map((rs, ctx) -> new Row(rs.getLong(1), rs.getLong(2), rs.getString(3),
                        rs.getString(4), rs.getLong(5), rs.getString(6)).target())
                .filter(t -> signature == null || ErrorSignature.of(t.lastError()).equals(signature))
                .list();
        return new Preview(targets, Map.of());
    }

    private record Row(long id, long claimId, String key, String lastError, long updatedAt, String state) {
        Target target() {
            return new Target(id, claimId, key, lastError, updatedAt);
        }
    }

    private static Map<Long, Row> rows(Handle h, Collection<Long> ids) {
        Map<Long, Row> rows = new LinkedHashMap<>();
        List<Long> all = new ArrayList<>(ids);
        for (int from = 0; from < all.size(); from += 500) {
            List<Long> part = all.subList(from, Math.min(all.size(), from + 500));
            h.createQuery("""
                    SELECT outbox_event_id, aggregate_id, idempotency_key, last_error, updated_at, delivery_state
                    FROM outbox_event WHERE outbox_event_id IN (<ids>)""")
                    .bindList("ids", part)
                    .map((rs, ctx) -> new Row(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4),
                            rs.getLong(5), rs.getString(6)))
                    .forEach(r -> rows.put(r.id(), r));
        }
        return rows;
    }

    /**
     * Puts the previewed rows back to {@code pending}, due now, with their backoff restarted from the
     * base; attempt numbering and history go on. With {@code reconcileWith}, each row's key is first
     * looked up at the state: a submission the state already holds completes the claim with the
     * state's case id instead of being sent again.
     *
     * @param reconcileWith the state to ask first, or null to re-queue straight away
     * @param progress told the number of rows handled so far, after every chunk
     */
    public RequeueResult requeue(Preview preview, String actor, String reason, StateAdapter reconcileWith,
            IntConsumer progress) {
        String who = Inputs.actor(actor);
        String why = Inputs.reason(reason, true);
        List<Long> requeued = new ArrayList<>();
        List<Long> reconciled = new ArrayList<>();
        List<Long> skipped = new ArrayList<>();
        int unconfirmed = 0;
        List<Target> targets = preview.targets();
        for (int from = 0; from < targets.size(); from += CHUNK) {
            List<Target> chunk = targets.subList(from, Math.min(targets.size(), from + CHUNK));
            Map<Long, StateAnswer> answers = new LinkedHashMap<>();
            if (reconcileWith != null) {
                for (Target t : chunk) {
                    answers.put(t.outboxEventId(), reconcileWith.lookup(t.idempotencyKey()));
                }
            }
            int[] chunkUnconfirmed = {0};
            database.useTransaction(h -> {
                Instant now = clock.instant();
                for (Target t : chunk) {
                    StateAnswer answer = answers.get(t.outboxEventId());
                    if (answer != null && answer.outcome() == AttemptOutcome.DELIVERED && answer.caseId() != null) {
                        if (reconcileOne(h, t, answer.caseId(), who, why, now)) {
                            reconciled.add(t.outboxEventId());
                        } else {
                            skipped.add(t.outboxEventId());
                        }
                        continue;
                    }
                    boolean unconfirmedHere = answer != null && !answer.notFound();
                    if (requeueOne(h, t, who, why, now, answer == null ? null : answer.message())) {
                        requeued.add(t.outboxEventId());
                        if (unconfirmedHere) {
                            chunkUnconfirmed[0]++;
                        }
                    } else {
                        skipped.add(t.outboxEventId());
                    }
                }
            });
            unconfirmed += chunkUnconfirmed[0];
            if (progress != null) {
                progress.accept(Math.min(targets.size(), from + CHUNK));
            }
        }
        return new RequeueResult(requeued.size(), reconciled.size(), unconfirmed, skipped.size(), List.copyOf(requeued),
                List.copyOf(reconciled), List.copyOf(skipped));
    }

    private boolean requeueOne(Handle h, Target t, String who, String why, Instant now, String stateSaid) {
        int changed = h.createUpdate("""
                UPDATE outbox_event SET delivery_state = 'pending', next_attempt_at = :now, retry_count = 0,
                    lease_owner = NULL, lease_expires_at = NULL, updated_at = :now
                WHERE outbox_event_id = :id AND delivery_state = 'failed' AND updated_at = :seen""")
                .bind("now", now.toEpochMilli()).bind("id", t.outboxEventId()).bind("seen", t.updatedAt())
                .execute();
        if (changed != 1) {
            return false;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("claimId", t.claimId());
        details.put("previousError", t.lastError());
        if (stateSaid != null) {
            details.put("reconcile", stateSaid);
        }
        audit.append(h, now, who, AuditActions.OUTBOX_REQUEUE, AuditActions.SUBJECT_OUTBOX,
                Long.toString(t.outboxEventId()), why, Json.write(details));
        return true;
    }

    private boolean reconcileOne(Handle h, Target t, String caseId, String who, String why, Instant now) {
        int changed = h.createUpdate("""
                UPDATE outbox_event SET delivery_state = 'sent', state_case_id = :caseId, sent_at = :now,
                    lease_owner = NULL, lease_expires_at = NULL, updated_at = :now
                WHERE outbox_event_id = :id AND delivery_state = 'failed' AND updated_at = :seen""")
                .bind("caseId", caseId).bind("now", now.toEpochMilli()).bind("id", t.outboxEventId())
                .bind("seen", t.updatedAt())
                .execute();
        if (changed != 1) {
            return false;
        }
        Claim claim = claims.find(h, t.claimId()).orElseThrow(() -> new NotFoundException("no claim with id " + t.claimId()));
        boolean completed = false;
        if (claim.status() == ClaimStatus.SUBMITTING) {
            LocalDate dueOn = claim.decisionDueOn() == null
                    ? deadlines.dueDate(claim.jurisdiction(), LocalDate.ofInstant(now, ZoneId.systemDefault())) : null;
            if (!claims.updateStatus(h, claim.claimId(), claim.version(), ClaimStatus.SUBMITTED_TO_STATE, caseId, dueOn, now)) {
                throw new ClaimDeskException("claim " + claim.claimNumber() + " changed while it was reconciled; try again");
            }
            claims.recordStatusChange(h, claim.claimId(), ClaimStatus.SUBMITTING, ClaimStatus.SUBMITTED_TO_STATE, who,
                    "reconciled: the state already holds this submission as case " + caseId, now);
            completed = true;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("claimId", t.claimId());
        details.put("claimNumber", claim.claimNumber());
        details.put("caseId", caseId);
        details.put("claimCompleted", completed);
        details.put("previousError", t.lastError());
        audit.append(h, now, who, AuditActions.OUTBOX_RECONCILE, AuditActions.SUBJECT_OUTBOX,
                Long.toString(t.outboxEventId()), why, Json.write(details));
        return true;
    }

    /**
     * Marks failed rows {@code abandoned} and returns their claims from SUBMITTING to
     * READY_FOR_SUBMISSION, so they can be fixed and submitted again under a new key. Rows that are not
     * failed are skipped with the reason; unknown ids are refused before anything changes.
     */
    public AbandonResult abandon(Collection<Long> ids, String actor, String reason) {
        String who = Inputs.actor(actor);
        String why = Inputs.reason(reason, true);
        if (ids == null || ids.isEmpty()) {
            throw new ClaimDeskException("name at least one outbox row to abandon");
        }
        List<Long> wanted = List.copyOf(new LinkedHashSet<>(ids));
        return database.inTransaction(h -> {
            Map<Long, Row> rows = rows(h, wanted);
            for (long id : wanted) {
                if (!rows.containsKey(id)) {
                    throw new NotFoundException("no outbox row with id " + id);
                }
            }
            Instant now = clock.instant();
            List<Long> abandoned = new ArrayList<>();
            Map<Long, String> skipped = new LinkedHashMap<>();
            for (long id : wanted) {
                Row row = rows.get(id);
                if (!row.state().equals("failed")) {
                    skipped.put(id, "outbox row " + id + " is " + row.state() + ": only failed rows can be abandoned");
                    continue;
                }
                h.createUpdate("UPDATE outbox_event SET delivery_state = 'abandoned', updated_at = :now "
                        + "WHERE outbox_event_id = :id AND delivery_state = 'failed'")
                        .bind("now", now.toEpochMilli()).bind("id", id).execute();
                Claim claim = claims.find(h, row.claimId())
                        .orElseThrow(() -> new NotFoundException("no claim with id " + row.claimId()));
                boolean reopened = false;
                if (claim.status() == ClaimStatus.SUBMITTING) {
                    if (!claims.updateStatus(h, claim.claimId(), claim.version(), ClaimStatus.READY_FOR_SUBMISSION,
                            null, null, now)) {
                        throw new ClaimDeskException("claim " + claim.claimNumber() + " changed meanwhile; try again");
                    }
                    claims.recordStatusChange(h, claim.claimId(), ClaimStatus.SUBMITTING,
                            ClaimStatus.READY_FOR_SUBMISSION, who, "submission abandoned: " + why, now);
                    reopened = true;
                }
                Map<String, Object> details = new LinkedHashMap<>();
                details.put("claimId", claim.claimId());
                details.put("claimNumber", claim.claimNumber());
                details.put("idempotencyKey", row.key());
                details.put("lastError", row.lastError());
                details.put("claimReturnedToReady", reopened);
                audit.append(h, now, who, AuditActions.OUTBOX_ABANDON, AuditActions.SUBJECT_OUTBOX, Long.toString(id),
                        why, Json.write(details));
                abandoned.add(id);
            }
            return new AbandonResult(abandoned.size(), skipped.size(), List.copyOf(abandoned), skipped);
        });
    }
}
