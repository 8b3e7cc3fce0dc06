package org.claimdesk.app;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
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
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.FailureGroup;
import org.claimdesk.domain.KeyPolicy;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.PayloadDiff;
import org.claimdesk.domain.NotFoundException;
import org.claimdesk.store.AuditStore;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseException;
import org.claimdesk.store.Json;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.store.OutboxStamp;
import org.claimdesk.store.OutboxStore;
import org.jdbi.v3.core.Handle;

/**
 * What staff do with failed deliveries: see them grouped by error signature, preview an action on the rows an
 * {@link OutboxQuery} selects, then re-queue them (optionally reconciled with the state first) or abandon them.
 * Every change is audited with actor and reason. An action applies to exactly the rows its preview saw; a row
 * whose state changed since the preview is skipped and counted, never forced, and so is a row a re-queue would send
 * with old data because its claim was corrected after a preview that did not say so. Bulk actions run in
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
     * @param claimCorrected re-queue only: targets whose claim was corrected since the row was queued; a re-queue
     *     sends the row's old payload under its old key, a resubmit the corrected one under a new key
     */
    public record Preview(Action action, List<OutboxStamp> targets, Map<Long, DeliveryState> notFailed,
            List<Long> refusedUnchanged, List<Long> claimCorrected) {
        public Preview {
            Objects.requireNonNull(action, "action");
            targets = List.copyOf(targets);
            notFailed = Collections.unmodifiableMap(new LinkedHashMap<>(notFailed));
            refusedUnchanged = List.copyOf(refusedUnchanged);
            claimCorrected = List.copyOf(claimCorrected);
        }

        public Preview(Action action, List<OutboxStamp> targets, Map<Long, DeliveryState> notFailed) {
            this(action, targets, notFailed, List.of(), List.of());
        }

        /**
         * What a re-queue should be confirmed against, null when nothing: rows refused for good and unchanged
         * (sent again they are refused again), and rows whose claim was corrected since (a re-queue sends the old
         * data; Resubmit sends the corrected one).
         */
        public String confirmation() {
            List<String> parts = new ArrayList<>(2);
            if (!refusedUnchanged.isEmpty()) {
                parts.add(refusedUnchanged.size() + " of them: " + KeyPolicy.UNCHANGED_REFUSAL_WARNING);
            }
            if (!claimCorrected.isEmpty()) {
                parts.add(claimCorrected.size() + " of them: " + KeyPolicy.CORRECTED_REQUEUE_WARNING);
            }
            return parts.isEmpty() ? null : String.join("; ", parts);
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
     * @param changedSinceIds rows left alone because they changed since the preview, or (re-queue) because their claim
     *     was corrected since the preview without it saying so
     * @param notFailed rows the preview found not failed, left alone
     * @param kept abandon only: rows left failed because the state may hold their submission (an attempt ended
     *     without its answer) and could not be asked, each with why it could not ({@link #keptReasons} says it whole);
     *     abandoned, the claim would be submitted again while the state may hold it as first sent
     * @param notReachedIds rows not handled because the database stopped the run (their chunk rolled back)
     * @param failure why the database stopped the run, the chunks before it kept; null when it did not
     */
    public record Result(Action action, List<Long> changedIds, List<Long> reconciledIds, int unconfirmed,
            List<Long> changedSinceIds, Map<Long, DeliveryState> notFailed, Map<Long, String> kept,
            List<Long> notReachedIds, String failure) {
        public int changed() {
            return changedIds.size();
        }

        public int reconciled() {
            return reconciledIds.size();
        }

        /** {@link #kept}, each with the sentence that says why it stays failed and what to do instead. */
        public Map<Long, String> keptReasons() {
            Map<Long, String> reasons = new LinkedHashMap<>();
            kept.forEach((id, cannotAsk) -> reasons.put(id, "an attempt of outbox row " + id + " ended without the"
                    + " state's answer, so the state may hold its submission, and ClaimDesk cannot ask it: " + cannotAsk
                    + "; kept failed, as an abandoned claim would be submitted again. Re-queue it instead: sent again"
                    + " under the same key, the state answers with its case if it holds it"));
            return reasons;
        }

        /** Rows left alone: not failed at the preview, changed since, or kept as the state may hold them. */
        public int skipped() {
            return changedSinceIds.size() + notFailed.size() + kept.size();
        }
    }

    private final Database database;
    private final Clock clock;
    private final Deadlines deadlines;
    private final StateAdapter state;
    private final ClaimStore claims = new ClaimStore();
    private final OutboxStore outbox = new OutboxStore();
    private final AuditStore audit = new AuditStore();
    private final org.claimdesk.store.EvidenceStore evidenceStore = new org.claimdesk.store.EvidenceStore();

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
            List<OutboxStamp> rows = query.previewed().map(q -> outbox.stamps(h, q)).orElse(List.of());
            if (query.idsOnly() && rows.size() < query.ids().size()) {
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
            if (action != Action.REQUEUE) {
                return new Preview(action, targets, notFailed);
            }
            List<Long> refusedUnchanged = new ArrayList<>();
            List<Long> claimCorrected = new ArrayList<>();
            sortForRequeue(h, targets, refusedUnchanged, claimCorrected);
            return new Preview(action, targets, notFailed, refusedUnchanged, claimCorrected);
        });
    }

    /**
     * Sorts the targets a re-queue needs to warn about by the {@link KeyPolicy}: rows whose claim's payload now
     * differs from the row's (corrected since), and unchanged rows whose last attempt the state refused for a
     * permanent reason; read {@link #CHUNK} rows at a time.
     */
    private void sortForRequeue(Handle h, List<OutboxStamp> targets, List<Long> refusedUnchanged,
            List<Long> claimCorrected) {
        List<Long> ids = targets.stream().map(OutboxStamp::outboxEventId).toList();
        for (int from = 0; from < ids.size(); from += CHUNK) {
            List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + CHUNK));
            Map<Long, AttemptOutcome> last = outbox.lastOutcomes(h, chunk);
            List<OutboxEvent> rows = outbox.findAll(h, chunk);
            Map<Long, Claim> byId = claims.findAll(h, rows.stream().map(OutboxEvent::aggregateId).toList());
            // the chunk's claims' evidence in one read, not one per row
            Map<Long, List<org.claimdesk.domain.Evidence>> evidence = evidenceStore.forClaims(h, byId.keySet());
            for (OutboxEvent row : rows) {
                Claim claim = byId.get(row.aggregateId());
                if (claim == null) {
                    continue;
                }
                boolean changed = !Resubmission.diff(row, claim, evidence.get(claim.claimId())).isEmpty();
                switch (KeyPolicy.decide(changed, last.get(row.outboxEventId()))) {
                    case RESUBMIT -> claimCorrected.add(row.outboxEventId());
                    case REQUEUE_NEEDS_CONFIRMATION -> refusedUnchanged.add(row.outboxEventId());
                    case REQUEUE -> { }
                    default -> throw new IllegalStateException("unknown decision");
                }
            }
        }
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
        Map<Long, String> kept = new LinkedHashMap<>();
        String[] cannotAsk = {Resubmission.whyCannotAsk(state)};
        int unconfirmed = 0;
        List<OutboxStamp> targets = preview.targets();
        Set<Long> warnedCorrected = new HashSet<>(preview.claimCorrected());
        List<Long> notReached = List.of();
        String failure = null;
        for (int from = 0; from < targets.size(); from += CHUNK) {
            List<OutboxStamp> chunk = targets.subList(from, Math.min(targets.size(), from + CHUNK));
            // what this chunk did, kept only once its transaction commits
            List<Long> chunkChanged = new ArrayList<>();
            List<Long> chunkReconciled = new ArrayList<>();
            List<Long> chunkChangedSince = new ArrayList<>();
            Map<Long, StateAnswer> answers = new LinkedHashMap<>();
            if (reconcile) {
                for (OutboxStamp t : chunk) {
                    answers.put(t.outboxEventId(), state.lookup(t.idempotencyKey()));
                }
            }
            int chunkUnanswered;
            try {
                if (preview.action() == Action.ABANDON) {
                    askBeforeAbandoning(chunk, answers, kept, cannotAsk);
                }
                chunkUnanswered = database.inTransaction(h -> {
                    chunkChanged.clear();
                    chunkReconciled.clear();
                    chunkChangedSince.clear();
                    Instant now = clock.instant();
                    int unanswered = 0;
                    for (OutboxStamp t : chunk) {
                        StateAnswer answer = answers.get(t.outboxEventId());
                        boolean done;
                        if (answer != null && answer.outcome() == AttemptOutcome.DELIVERED && answer.caseId() != null) {
                            if (reconcileOne(h, t, answer.caseId(), who, why, now)) {
                                chunkReconciled.add(t.outboxEventId());
                            } else {
                                chunkChangedSince.add(t.outboxEventId());
                            }
                            continue;
                        } else if (preview.action() == Action.ABANDON) {
                            if (kept.containsKey(t.outboxEventId())) {
                                continue;
                            }
                            done = abandonOne(h, t, who, why, now);
                        } else {
                            done = requeueOne(h, t, warnedCorrected.contains(t.outboxEventId()), who, why, now,
                                    answer == null ? null : answer.message());
                            if (done && answer != null && !answer.notFound()) {
                                unanswered++;
                            }
                        }
                        (done ? chunkChanged : chunkChangedSince).add(t.outboxEventId());
                    }
                    return unanswered;
                });
            } catch (DatabaseException | org.jdbi.v3.core.JdbiException e) {
                // the chunks before are committed and audited: say what they did, and which rows were not reached
                failure = Database.failureText(e);
                notReached = targets.subList(from, targets.size()).stream().map(OutboxStamp::outboxEventId)
                        .filter(id -> !kept.containsKey(id)).toList();
                break;
            }
            unconfirmed += chunkUnanswered;
            changed.addAll(chunkChanged);
            reconciled.addAll(chunkReconciled);
            changedSince.addAll(chunkChangedSince);
            if (progress != null) {
                progress.accept(Math.min(targets.size(), from + CHUNK));
            }
        }
        return new Result(preview.action(), List.copyOf(changed), List.copyOf(reconciled), unconfirmed,
                List.copyOf(changedSince), preview.notFailed(), Collections.unmodifiableMap(kept), notReached, failure);
    }

    /**
     * Before an abandon, asks the state about each row it may hold ({@link KeyPolicy#stateMayHold}: an attempt ended
     * without its answer), as a resubmission does: a row it holds is reconciled (its answer put in {@code answers}),
     * one it does not know is abandoned, and one it cannot be asked about, or does not answer about, is kept failed
     * with why it cannot be. After the first silence the rest are not asked.
     */
    private void askBeforeAbandoning(List<OutboxStamp> chunk, Map<Long, StateAnswer> answers, Map<Long, String> kept,
            String[] cannotAsk) {
        Map<Long, List<DeliveryAttempt>> attempts = database.read(h -> {
            Map<Long, List<DeliveryAttempt>> read = new LinkedHashMap<>();
            for (OutboxStamp t : chunk) {
                read.put(t.outboxEventId(), outbox.attempts(h, t.outboxEventId()));
            }
            return read;
        });
        for (OutboxStamp t : chunk) {
            if (!KeyPolicy.stateMayHold(attempts.get(t.outboxEventId()))) {
                continue;
            }
            if (cannotAsk[0] == null) {
                StateAnswer answer = state.lookup(t.idempotencyKey());
                if (answer.outcome() == AttemptOutcome.DELIVERED && answer.caseId() != null) {
                    answers.put(t.outboxEventId(), answer);
                    continue;
                }
                if (answer.notFound()) {
                    continue;
                }
                cannotAsk[0] = "it did not answer about outbox row " + t.outboxEventId() + " (" + answer.message() + ")";
            }
            kept.put(t.outboxEventId(), cannotAsk[0]);
        }
    }

    /**
     * The row pending again, if it is still as the preview saw it and its claim still as the preview described it:
     * a claim corrected since the preview (which said it was not) would go out with its old data, so the row is left
     * alone. The row, then its claim, are held first (the order every row-and-claim change takes), so an edit cannot
     * pass between this check and the row going pending (an edit is refused while its claim's submission is pending).
     * A corrected claim's row re-queued as warned gets a note in the claim's history naming the corrections not sent.
     *
     * @param warnedCorrected whether the preview said this row's claim was corrected since it was queued
     */
    private boolean requeueOne(Handle h, OutboxStamp t, boolean warnedCorrected, String who, String why, Instant now,
            String stateSaid) {
        OutboxEvent row = outbox.findForUpdate(h, t.outboxEventId()).orElse(null);
        if (row == null) {
            return false;
        }
        Claim claim = claim(h, t.claimId());
        PayloadDiff corrections = Resubmission.diff(h, row, claim);
        if (!warnedCorrected && !corrections.isEmpty()) {
            return false;
        }
        if (!outbox.requeue(h, t, now)) {
            return false;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("claimId", t.claimId());
        details.put("previousError", t.lastError());
        if (!corrections.isEmpty()) {
            // the claim's history says what goes to the state: not what the claim reads now
            claims.note(h, claim, who, "re-queued with the data first queued, not the corrections made since ("
                    + corrections.describeFields() + "; Resubmit sends those under a new key): " + why, now);
            details.put("correctionsNotSent", corrections.changes());
        }
        if (stateSaid != null) {
            details.put("reconcile", stateSaid);
        }
        audit.append(h, now, who, AuditActions.OUTBOX_REQUEUE, AuditActions.SUBJECT_OUTBOX,
                Long.toString(t.outboxEventId()), why, Json.write(details));
        return true;
    }

    /**
     * The row sent under the state's case id; its claim, if still SUBMITTING, on to SUBMITTED_TO_STATE. A claim
     * corrected since the row was queued is held by the state as the row has it: the history and the audit name the
     * corrections the state does not have.
     */
    private boolean reconcileOne(Handle h, OutboxStamp t, String caseId, String who, String why, Instant now) {
        OutboxEvent row = outbox.findForUpdate(h, t.outboxEventId()).orElse(null);
        if (row == null || !outbox.markReconciled(h, t, caseId, now)) {
            return false;
        }
        Claim claim = claim(h, t.claimId());
        PayloadDiff notSent = Resubmission.diff(h, row, claim);
        boolean completed = false;
        if (claim.status() == ClaimStatus.SUBMITTING) {
            // a new filing (an amended claim's old date is not its own); counted from the row's first attempt, the
            // earliest the state can have received it: the day it accepted is not known
            Instant filed = outbox.attempts(h, row.outboxEventId()).stream().map(DeliveryAttempt::startedAt)
                    .min(Instant::compareTo).orElse(now);
            LocalDate dueOn = deadlines.dueDate(claim.jurisdiction(), LocalDate.ofInstant(filed, clock.getZone()));
            claims.changeStatus(h, claim, ClaimStatus.SUBMITTED_TO_STATE, caseId, dueOn, who,
                    "reconciled: the state already holds this submission as case " + caseId
                            + (notSent.isEmpty() ? "" : ", as queued: it does not have the corrections made since ("
                                    + notSent.describeFields() + ")"), now);
            completed = true;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("claimId", t.claimId());
        details.put("claimNumber", claim.claimNumber());
        details.put("caseId", caseId);
        details.put("claimCompleted", completed);
        if (!notSent.isEmpty()) {
            details.put("correctionsNotWithTheState", notSent.changes());
        }
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

    /**
     * The row's claim, held until the transaction ends: an edit committed elsewhere meanwhile is waited for and read,
     * so that the status change written next does not meet a version that moved under it.
     */
    private Claim claim(Handle h, long claimId) {
        return claims.findForUpdate(h, claimId).orElseThrow(() -> new NotFoundException("no claim with id " + claimId));
    }
}
