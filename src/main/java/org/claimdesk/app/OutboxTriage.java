package org.claimdesk.app;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;
import org.claimdesk.delivery.StateAdapter;
import org.claimdesk.delivery.StateAnswer;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.FailureGroup;
import org.claimdesk.domain.KeyPolicy;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.NotFoundException;
import org.claimdesk.store.AuditStore;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.store.OutboxStamp;
import org.claimdesk.store.OutboxStore;
import org.jdbi.v3.core.Handle;

/**
 * What staff do with failed deliveries: see them grouped by error signature, preview an action on the rows an
 * {@link OutboxQuery} selects, then re-queue them (optionally reconciled with the state first) or abandon them.
 * Every change is audited with actor and reason. An action applies to exactly the rows its preview saw; a row
 * whose state changed since the preview is skipped and counted, never forced. Bulk actions run in
 * transactions of {@link #CHUNK} rows, so other writers are never held up for long. A re-queue sends a row
 * unchanged under its old key; a row whose claim was corrected is resubmitted instead ({@link Resubmission}).
 */
public final class OutboxTriage {
    /** Rows changed per transaction in bulk actions. */
    public static final int CHUNK = 200;

    /** Re-queue sends a row again (its attempt history kept); abandon gives it up for good. */
    public enum Action {
        REQUEUE("Re-queue", "re-queued"),
        ABANDON("Abandon", "abandoned");

        private final String verb;
        private final String past;

        Action(String verb, String past) {
            this.verb = verb;
            this.past = past;
        }

        public String verb() {
            return verb;
        }

        public String past() {
            return past;
        }
    }

    /**
     * What an action would do right now.
     *
     * @param targets the failed rows it would change, as it saw them
     * @param notFailed rows selected that are not failed, with their state: it leaves them alone
     * @param refusedUnchanged re-queue only: targets the state refused for a permanent reason whose claim has not
     *     changed since; the {@link KeyPolicy} asks for a confirmation with a reason before sending them again
     */
    public record Preview(Action action, List<OutboxStamp> targets, Map<Long, DeliveryState> notFailed,
            List<Long> refusedUnchanged) {
        public Preview {
            Objects.requireNonNull(action, "action");
            targets = List.copyOf(targets);
            notFailed = Collections.unmodifiableMap(new LinkedHashMap<>(notFailed));
            refusedUnchanged = List.copyOf(refusedUnchanged);
        }

        public Preview(Action action, List<OutboxStamp> targets, Map<Long, DeliveryState> notFailed) {
            this(action, targets, notFailed, List.of());
        }

        /** The confirmation a re-queue of rows refused for good, unchanged, needs; null when none is needed. */
        public String confirmation() {
            return refusedUnchanged.isEmpty() ? null : refusedUnchanged.size() + " of them: "
                    + KeyPolicy.UNCHANGED_REFUSAL_WARNING;
        }

        public int eligible() {
            return targets.size();
        }

        public int skipped() {
            return notFailed.size();
        }

        public List<Long> targetIds() {
            return targets.stream().map(OutboxStamp::outboxEventId).toList();
        }

        public String describe() {
            return eligible() + " will be " + action.past() + (skipped() == 0 ? ""
                    : ", " + skipped() + " skipped because they are not failed (pending, sent, abandoned or superseded)")
                    + (confirmation() == null ? "" : "; " + confirmation());
        }
    }

    /**
     * What an action did.
     *
     * @param changedIds rows re-queued or abandoned
     * @param reconciledIds rows the state already held (re-queue with reconcile): marked sent with its case id
     *     and their claims completed, not sent again
     * @param unconfirmed rows re-queued because the state could not be asked (resending is safe: same key)
     * @param changedSinceIds rows whose state changed since the preview, left alone
     * @param notFailed rows the preview found not failed, left alone
     */
    public record Result(Action action, List<Long> changedIds, List<Long> reconciledIds, int unconfirmed,
            List<Long> changedSinceIds, Map<Long, DeliveryState> notFailed) {
        public int changed() {
            return changedIds.size();
        }

        public int reconciled() {
            return reconciledIds.size();
        }

        /** Rows left alone: not failed at the preview, or changed since. */
        public int skipped() {
            return changedSinceIds.size() + notFailed.size();
        }
    }

    private final Database database;
    private final Clock clock;
    private final Deadlines deadlines;
    private final StateAdapter state;
    private final ClaimStore claims = new ClaimStore();
    private final OutboxStore outbox = new OutboxStore();
    private final AuditStore audit = new AuditStore();

    /** @param state the state a re-queue with reconcile asks first; null when none is configured */
    public OutboxTriage(Database database, Clock clock, Deadlines deadlines, StateAdapter state) {
        this.database = database;
        this.clock = clock;
        this.deadlines = deadlines;
        this.state = state;
    }

    /** The failed rows among those {@code query} selects (its state ignored), grouped by error signature. */
    public List<FailureGroup> groups(OutboxQuery query) {
        return database.read(h -> outbox.failureGroups(h, query));
    }

    /**
     * What {@code action} would do to the rows {@code query} selects (its page ignored); nothing is changed. A
     * query naming ids is refused when one of them does not exist.
     */
    public Preview preview(Action action, OutboxQuery query) {
        Objects.requireNonNull(query, "query");
        return database.read(h -> {
            List<OutboxStamp> rows = outbox.stamps(h, query.unpaged());
            if (!query.ids().isEmpty() && rows.size() < query.ids().size()) {
                Set<Long> found = rows.stream().map(OutboxStamp::outboxEventId).collect(Collectors.toSet());
                long missing = query.ids().stream().filter(id -> !found.contains(id)).findFirst().orElseThrow();
                throw new NotFoundException("no outbox row with id " + missing);
            }
            List<OutboxStamp> targets = new ArrayList<>();
            Map<Long, DeliveryState> notFailed = new LinkedHashMap<>();
            for (OutboxStamp row : rows) {
                if (row.state() == DeliveryState.FAILED) {
                    targets.add(row);
                } else {
                    notFailed.put(row.outboxEventId(), row.state());
                }
            }
            return new Preview(action, targets, notFailed,
                    action == Action.REQUEUE ? refusedUnchanged(h, targets) : List.of());
        });
    }

    /**
     * The targets whose last attempt the state refused for a permanent reason and whose claim's payload is the
     * same as the row's ({@link KeyPolicy#decide}), read {@link #CHUNK} rows at a time.
     */
    private List<Long> refusedUnchanged(Handle h, List<OutboxStamp> targets) {
        List<Long> found = new ArrayList<>();
        List<Long> ids = targets.stream().map(OutboxStamp::outboxEventId).toList();
        for (int from = 0; from < ids.size(); from += CHUNK) {
            List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + CHUNK));
            Map<Long, AttemptOutcome> last = outbox.lastOutcomes(h, chunk);
            List<Long> permanent = chunk.stream().filter(id -> last.get(id) == AttemptOutcome.PERMANENT).toList();
            List<OutboxEvent> rows = outbox.findAll(h, permanent);
            Map<Long, Claim> byId = claims.findAll(h, rows.stream().map(OutboxEvent::aggregateId).toList());
            for (OutboxEvent row : rows) {
                Claim claim = byId.get(row.aggregateId());
                if (claim != null && KeyPolicy.decide(!Resubmission.diff(h, row, claim).isEmpty(), AttemptOutcome.PERMANENT)
                        == KeyPolicy.Decision.REQUEUE_NEEDS_CONFIRMATION) {
                    found.add(row.outboxEventId());
                }
            }
        }
        return found;
    }

    /**
     * Applies {@code preview} with a required reason.
     *
     * @param reconcile re-queue only: ask the configured state by idempotency key first, and complete a row it
     *     already holds instead of sending it again
     * @param progress told the number of previewed rows handled so far, after every chunk; may be null
     */
    public Result apply(Preview preview, String actor, String reason, boolean reconcile, IntConsumer progress) {
        String who = Inputs.actor(actor);
        String why = Inputs.reason(reason, true);
        if (reconcile && (preview.action() != Action.REQUEUE || state == null)) {
            throw new ClaimDeskException(preview.action() != Action.REQUEUE ? "only a re-queue can be reconciled"
                    : "no state is configured to reconcile with");
        }
        List<Long> changed = new ArrayList<>();
        List<Long> reconciled = new ArrayList<>();
        List<Long> changedSince = new ArrayList<>();
        int unconfirmed = 0;
        List<OutboxStamp> targets = preview.targets();
        for (int from = 0; from < targets.size(); from += CHUNK) {
            List<OutboxStamp> chunk = targets.subList(from, Math.min(targets.size(), from + CHUNK));
            Map<Long, StateAnswer> answers = new LinkedHashMap<>();
            if (reconcile) {
                for (OutboxStamp t : chunk) {
                    answers.put(t.outboxEventId(), state.lookup(t.idempotencyKey()));
                }
            }
            unconfirmed += database.inTransaction(h -> {
                Instant now = clock.instant();
                int unanswered = 0;
                for (OutboxStamp t : chunk) {
                    StateAnswer answer = answers.get(t.outboxEventId());
                    boolean done;
                    if (preview.action() == Action.ABANDON) {
                        done = abandonOne(h, t, who, why, now);
                    } else if (answer != null && answer.outcome() == AttemptOutcome.DELIVERED && answer.caseId() != null) {
                        if (reconcileOne(h, t, answer.caseId(), who, why, now)) {
                            reconciled.add(t.outboxEventId());
                        } else {
                            changedSince.add(t.outboxEventId());
                        }
                        continue;
                    } else {
                        done = requeueOne(h, t, who, why, now, answer == null ? null : answer.message());
                        if (done && answer != null && !answer.notFound()) {
                            unanswered++;
                        }
                    }
                    (done ? changed : changedSince).add(t.outboxEventId());
                }
                return unanswered;
            });
            if (progress != null) {
                progress.accept(Math.min(targets.size(), from + CHUNK));
            }
        }
        return new Result(preview.action(), List.copyOf(changed), List.copyOf(reconciled), unconfirmed,
                List.copyOf(changedSince), preview.notFailed());
    }

    private boolean requeueOne(Handle h, OutboxStamp t, String who, String why, Instant now, String stateSaid) {
        if (!outbox.requeue(h, t, now)) {
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

    /** The row sent under the state's case id; its claim, if still SUBMITTING, on to SUBMITTED_TO_STATE. */
    private boolean reconcileOne(Handle h, OutboxStamp t, String caseId, String who, String why, Instant now) {
        if (!outbox.markReconciled(h, t, caseId, now)) {
            return false;
        }
        Claim claim = claim(h, t.claimId());
        boolean completed = false;
        if (claim.status() == ClaimStatus.SUBMITTING) {
            LocalDate dueOn = claim.decisionDueOn() == null
                    ? deadlines.dueDate(claim.jurisdiction(), LocalDate.ofInstant(now, ZoneId.systemDefault())) : null;
            claims.changeStatus(h, claim, ClaimStatus.SUBMITTED_TO_STATE, caseId, dueOn, who,
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

    /** The row abandoned; its claim, if still SUBMITTING, back to READY_FOR_SUBMISSION to be fixed and submitted again. */
    private boolean abandonOne(Handle h, OutboxStamp t, String who, String why, Instant now) {
        if (!outbox.abandon(h, t, now)) {
            return false;
        }
        Claim claim = claim(h, t.claimId());
        boolean reopened = false;
        if (claim.status() == ClaimStatus.SUBMITTING) {
            claims.changeStatus(h, claim, ClaimStatus.READY_FOR_SUBMISSION, null, null, who,
                    "submission abandoned: " + why, now);
            reopened = true;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("claimId", claim.claimId());
        details.put("claimNumber", claim.claimNumber());
        details.put("idempotencyKey", t.idempotencyKey());
        details.put("lastError", t.lastError());
        details.put("claimReturnedToReady", reopened);
        audit.append(h, now, who, AuditActions.OUTBOX_ABANDON, AuditActions.SUBJECT_OUTBOX,
                Long.toString(t.outboxEventId()), why, Json.write(details));
        return true;
    }

    private Claim claim(Handle h, long claimId) {
        return claims.find(h, claimId).orElseThrow(() -> new NotFoundException("no claim with id " + claimId));
    }
}
