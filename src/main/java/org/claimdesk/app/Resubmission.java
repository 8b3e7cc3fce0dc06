package org.claimdesk.app;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;
import org.claimdesk.delivery.StateAdapter;
import org.claimdesk.delivery.StateAnswer;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ConflictException;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.KeyPolicy;
import org.claimdesk.domain.NotFoundException;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.PayloadDiff;
import org.claimdesk.domain.SubmissionPayload;
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
 * Fix and resubmit: a failed row whose claim was corrected since the refusal is superseded by a new outbox row
 * carrying the payload built now from the claim, under a new idempotency key ({@link KeyPolicy}). In one
 * transaction: the old row {@code superseded} (kept with its attempts, naming the new row), the new row queued,
 * a note in the claim's history (the claim stays SUBMITTING) and an audit entry. A row another workstation
 * changed meanwhile is refused, never overwritten. Many rows at once (e.g. an error group after its claims were
 * corrected together): {@link #preview(OutboxQuery)} then {@link #resubmitAll}, one row per transaction.
 *
 * <p>A row whose last attempt ended without the state's answer (timeouts, 5xx, lost connections) may have been
 * accepted all the same: the state would then refuse the corrected claim as a duplicate, and ClaimDesk would record
 * that as delivered while the state holds the data as first sent. So before such a row is resubmitted the state is
 * asked about its key ({@code GET /v1/submissions/{key}}); a row it holds, or a question it does not answer, is
 * refused with nothing changed.
 */
public final class Resubmission {

    /**
     * A failed row as staff see it before resubmitting: the state's last error, how its last attempt ended, and
     * the diff of the claim's payload now against the refused one.
     *
     * @param claimVersion the claim's version the diff was built from: a resubmission of this check refuses a
     *     claim changed since, so the data sent is the data staff saw
     * @param rowUpdatedAt the row's {@code updatedAt} as seen: a row changed since is refused
     * @param stateMayHoldIt whether the state may hold the row's submission though no acceptance was recorded
     *     ({@link KeyPolicy#stateMayHold}): it is asked about the row's key before a resubmission
     */
    public record Check(long outboxEventId, long claimId, String claimNumber, ClaimStatus claimStatus,
            DeliveryState state, Long supersededBy, String idempotencyKey, String lastError,
            AttemptOutcome lastOutcome, PayloadDiff diff, long claimVersion, long rowUpdatedAt,
            boolean stateMayHoldIt) {

        public KeyPolicy.Decision decision() {
            return KeyPolicy.decide(!diff.isEmpty(), lastOutcome);
        }

        /** Why this row cannot be resubmitted now, in one line; null when it can. */
        public String refusal() {
            if (state == DeliveryState.SUPERSEDED) {
                return "outbox row " + outboxEventId + " was already resubmitted as row " + supersededBy;
            }
            if (state != DeliveryState.FAILED) {
                return "outbox row " + outboxEventId + " is " + state.dbValue() + ": only a failed row can be resubmitted";
            }
            if (claimStatus != ClaimStatus.SUBMITTING) {
                return "claim " + claimNumber + " is " + claimStatus + ", not SUBMITTING: submit it again instead";
            }
            if (decision() != KeyPolicy.Decision.RESUBMIT) {
                return "the data of claim " + claimNumber + " has not changed since the state refused outbox row "
                        + outboxEventId + ": correct the claim first, or re-queue the row unchanged";
            }
            return null;
        }
    }

    /** What a resubmission did. */
    public record Result(long oldOutboxEventId, long newOutboxEventId, long claimId, String claimNumber,
            String oldKey, String newKey, String refusedWith, PayloadDiff diff) {
    }

    /**
     * What resubmitting the rows an {@link OutboxQuery} selects would do right now.
     *
     * @param targets the rows that would be resubmitted, as checked: failed, their claim changed since the refusal
     * @param skipped every other row selected, by id, with the reason it would be left alone
     */
    public record BulkPreview(List<Check> targets, Map<Long, String> skipped) {
        public BulkPreview {
            targets = List.copyOf(targets);
            skipped = Collections.unmodifiableMap(new LinkedHashMap<>(skipped));
        }

        public int eligible() {
            return targets.size();
        }

        /** The targets whose state is asked first whether it holds their submission ({@link Check#stateMayHoldIt}). */
        public long askingTheStateFirst() {
            return targets.stream().filter(Check::stateMayHoldIt).count();
        }

        public String describe() {
            long asking = askingTheStateFirst();
            return eligible() + " corrected row(s) will be resubmitted under new keys"
                    + (asking == 0 ? "" : " (" + asking + " after asking the state whether it holds the first"
                            + " submission, whose answer never came)")
                    + (skipped.isEmpty() ? "" : ", " + skipped.size() + " skipped (not failed, or their claim unchanged)");
        }
    }

    /**
     * What a bulk resubmission did.
     *
     * @param skipped rows left alone, with the reason: at the preview, or because they changed since
     * @param notReached rows not handled because staff cancelled or the database failed
     * @param failure why the database stopped the run, with the rows before kept; null when it did not
     */
    public record BulkResult(int previewed, List<Result> resubmitted, Map<Long, String> skipped, int notReached,
            boolean cancelled, String failure) {
        public BulkResult {
            resubmitted = List.copyOf(resubmitted);
            skipped = Collections.unmodifiableMap(new LinkedHashMap<>(skipped));
        }

        public String describe() {
            return resubmitted.size() + " of " + previewed + " row(s) resubmitted under new keys"
                    + (cancelled ? ", cancelled: " + notReached + " not reached" : "")
                    + (failure == null ? "" : ", then stopped (" + notReached + " not reached): " + failure)
                    + (skipped.isEmpty() ? "" : "; " + skipped.size() + " skipped");
        }
    }

    private final Database database;
    private final Clock clock;
    private final StateAdapter state;
    private final ClaimStore claims = new ClaimStore();
    private final Conflicts conflicts = new Conflicts();
    private final OutboxStore outbox = new OutboxStore();
    private final AuditStore audit = new AuditStore();

    /**
     * @param state the state asked, before a resubmission, whether it holds a row whose answer never came; null when
     *     none is configured (such rows are then refused, saying so)
     */
    private final EvidenceOnFile evidenceOnFile;

    public Resubmission(Database database, Clock clock, StateAdapter state) {
        this(database, clock, state, EvidenceOnFile.of(database));
    }

    /** As {@link #Resubmission(Database, Clock, StateAdapter)}, the claims' evidence files in {@code files}. */
    public Resubmission(Database database, Clock clock, StateAdapter state, org.claimdesk.store.EvidenceFiles files) {
        this(database, clock, state, new EvidenceOnFile(database, () -> files));
    }

    private Resubmission(Database database, Clock clock, StateAdapter state, EvidenceOnFile evidenceOnFile) {
        this.database = database;
        this.clock = clock;
        this.state = state;
        this.evidenceOnFile = evidenceOnFile;
    }

    /** Without a state to ask: rows the state may hold ({@link Check#stateMayHoldIt()}) are refused. */
    public Resubmission(Database database, Clock clock) {
        this(database, clock, null);
    }

    /** The row as it stands, with its diff; nothing is changed. */
    public Check check(long outboxEventId) {
        return database.read(h -> check(h, outboxEventId));
    }

    /** Resubmits the row as it stands now (the CLI): refused with one line when {@link Check#refusal} says so. */
    public Result resubmit(long outboxEventId, String actor, String reason) {
        String who = Inputs.actor(actor);
        String why = Inputs.reason(reason, true);
        Check asked = askState(check(outboxEventId));
        evidenceOnFile.requireWhole(asked.claimId(), "resubmitted");
        return database.inTransaction(h -> {
            Check now = checkHeld(h, outboxEventId);
            if (now.refusal() == null && now.rowUpdatedAt() != asked.rowUpdatedAt()) {
                throw conflicts.rowChangedSince(h, outboxEventId, now.claimNumber(),
                        Instant.ofEpochMilli(asked.rowUpdatedAt()), Instant.ofEpochMilli(now.rowUpdatedAt()));
            }
            return apply(h, now, who, why);
        });
    }

    /**
     * Resubmits the row as {@code seen} showed it (the console): refused when the row or the claim changed since,
     * or when what would be sent differs from the diff staff saw (evidence added meanwhile is part of the payload
     * but leaves the claim's version as it was), so what is sent is the diff staff saw.
     */
    public Result resubmit(Check seen, String actor, String reason) {
        String who = Inputs.actor(actor);
        String why = Inputs.reason(reason, true);
        askState(seen);
        evidenceOnFile.requireWhole(seen.claimId(), "resubmitted");
        return database.inTransaction(h -> {
            Check now = checkHeld(h, seen.outboxEventId());
            if (now.refusal() == null) {
                if (now.claimVersion() != seen.claimVersion()) {
                    throw conflicts.changedSince(h, claims.find(h, now.claimId()).orElseThrow(), seen.claimVersion());
                }
                if (now.rowUpdatedAt() != seen.rowUpdatedAt()) {
                    throw conflicts.rowChangedSince(h, now.outboxEventId(), now.claimNumber(),
                            Instant.ofEpochMilli(seen.rowUpdatedAt()), Instant.ofEpochMilli(now.rowUpdatedAt()));
                }
                if (!now.diff().equals(seen.diff())) {
                    throw conflicts.sentChangedSince(h, now.claimId(), now.claimNumber());
                }
            }
            return apply(h, now, who, why);
        });
    }

    /**
     * Checks every row {@code rows} selects (its page ignored); nothing is changed. A query naming ids is refused
     * when one of them does not exist.
     */
    public BulkPreview preview(OutboxQuery rows) {
        return preview(rows, null);
    }

    /**
     * As {@link #preview(OutboxQuery)}, offering only the rows of the claims {@code corrected} names (the claims one
     * fix changed): another corrected claim among the rows, changed by someone else, is skipped with that reason,
     * so that nobody resubmits a colleague's correction, unfinished perhaps, under their own name and reason. Null
     * offers every corrected row.
     */
    public BulkPreview preview(OutboxQuery rows, Collection<Long> corrected) {
        Objects.requireNonNull(rows, "rows");
        Set<Long> only = corrected == null ? null : Set.copyOf(corrected);
        return database.read(h -> {
            List<OutboxStamp> stamps = rows.previewed().map(q -> outbox.stamps(h, q)).orElse(List.of());
            if (rows.idsOnly() && stamps.size() < rows.ids().size()) {
                Set<Long> found = stamps.stream().map(OutboxStamp::outboxEventId).collect(Collectors.toSet());
                long missing = rows.ids().stream().filter(id -> !found.contains(id)).findFirst().orElseThrow();
                throw new NotFoundException("no outbox row with id " + missing);
            }
            List<Check> targets = new ArrayList<>();
            Map<Long, String> skipped = new LinkedHashMap<>();
            for (OutboxStamp stamp : stamps) {
                Check check = check(h, stamp.outboxEventId());
                if (check.refusal() != null) {
                    skipped.put(check.outboxEventId(), check.refusal());
                } else if (only != null && !only.contains(check.claimId())) {
                    skipped.put(check.outboxEventId(), "claim " + check.claimNumber() + " was corrected by someone"
                            + " else, not by this fix: resubmit it on its own once it is checked");
                } else {
                    targets.add(check);
                }
            }
            return new BulkPreview(targets, skipped);
        });
    }

    /**
     * Resubmits each row of {@code preview} as it was checked ({@link #resubmit(Check, String, String)}), one row
     * per transaction, with one required reason. A row or claim changed since the preview is skipped with the
     * reason, never forced.
     *
     * @param progress told how many rows were handled so far, after each; may be null
     * @param cancelled asked before each row: once it says so, the rows not reached are left alone; may be null
     */
    public BulkResult resubmitAll(BulkPreview preview, String actor, String reason, IntConsumer progress,
            BooleanSupplier cancelled) {
        String who = Inputs.actor(actor);
        String why = Inputs.reason(reason, true);
        List<Result> done = new ArrayList<>();
        Map<Long, String> skipped = new LinkedHashMap<>(preview.skipped());
        int handled = 0;
        boolean stopped = false;
        String failure = null;
        StateSilent silent = null;
        for (Check seen : preview.targets()) {
            if (cancelled != null && cancelled.getAsBoolean()) {
                stopped = true;
                break;
            }
            try {
                if (silent != null && seen.stateMayHoldIt()) {
                    skipped.put(seen.outboxEventId(), "the state may hold outbox row " + seen.outboxEventId()
                            + "'s first submission; not asked, as it did not answer about row " + silent.outboxEventId
                            + " (" + silent.stateSaid + ")");
                } else {
                    done.add(resubmit(seen, who, why));
                }
            } catch (DatabaseException e) {
                failure = e.getMessage();
                break;
            } catch (StateSilent e) {
                silent = e;
                skipped.put(seen.outboxEventId(), e.getMessage());
            } catch (ClaimDeskException e) {
                skipped.put(seen.outboxEventId(), e.getMessage());
            }
            handled++;
            if (progress != null) {
                progress.accept(handled);
            }
        }
        return new BulkResult(preview.eligible(), done, skipped, preview.eligible() - handled, stopped, failure);
    }

    /**
     * Why {@code state} cannot be asked whether it holds a submission (none configured, or one that refuses to be
     * asked); null when it can be. Resubmissions and abandons ask before sending a claim again.
     */
    static String whyCannotAsk(StateAdapter state) {
        return state == null ? "no state is configured" : state.refusal().orElse(null);
    }

    /**
     * Refuses {@code check}'s row, with nothing changed, when it cannot be resubmitted ({@link Check#refusal}), or
     * when the state may hold its submission and, asked about its key, says it does or does not answer. Asked outside
     * any transaction: no lock is held while the state answers. Returns {@code check}.
     */
    private Check askState(Check check) {
        String refusal = check.refusal();
        if (refusal != null) {
            throw new ClaimDeskException(refusal);
        }
        if (!check.stateMayHoldIt()) {
            return check;
        }
        String row = "outbox row " + check.outboxEventId();
        String cannotAsk = whyCannotAsk(state);
        if (cannotAsk != null) {
            throw new ClaimDeskException("the last attempt of " + row + " ended without the state's answer, so the"
                    + " state may hold its first submission, and ClaimDesk cannot ask it: " + cannotAsk
                    + "; nothing was resubmitted");
        }
        StateAnswer answer = state.lookup(check.idempotencyKey());
        if (answer.outcome() == AttemptOutcome.DELIVERED && answer.caseId() != null) {
            throw new ClaimDeskException("the state already holds " + row + "'s first submission as case "
                    + answer.caseId() + " (its answer was lost): it has claim " + check.claimNumber()
                    + " as first sent, without the corrections, and would refuse them as a duplicate. Re-queue the row"
                    + " with reconcile to record the case, and take the corrections to the state; nothing was"
                    + " resubmitted");
        }
        if (!answer.notFound()) {
            throw new StateSilent(check.outboxEventId(), answer.message());
        }
        return check;
    }

    /** The state gave no answer to whether it holds a row: a bulk resubmission asks about no further row. */
    private static final class StateSilent extends ClaimDeskException {
        final long outboxEventId;
        final String stateSaid;

        StateSilent(long outboxEventId, String stateSaid) {
            super("could not ask the state whether it holds outbox row " + outboxEventId + "'s first submission ("
                    + stateSaid + "); nothing was resubmitted: try again when the state answers");
            this.outboxEventId = outboxEventId;
            this.stateSaid = stateSaid;
        }
    }

    private Result apply(Handle h, Check check, String who, String why) {
        String refusal = check.refusal();
        if (refusal != null) {
            throw new ClaimDeskException(refusal);
        }
        Claim claim = claims.find(h, check.claimId())
                .orElseThrow(() -> new NotFoundException("no claim with id " + check.claimId()));
        Instant now = clock.instant();
        String newKey = KeyPolicy.newKey();
        long newId = outbox.insert(h, claim.claimId(), OutboxEvent.SUBMISSION_REQUESTED,
                Submissions.json(h, claim, newKey), newKey, now);
        OutboxStamp seen = new OutboxStamp(check.outboxEventId(), check.claimId(), check.idempotencyKey(),
                check.lastError(), check.state(), check.rowUpdatedAt());
        if (!outbox.supersede(h, seen, newId, now)) {
            // the transaction rolls the new row back
            throw new ConflictException("outbox row " + check.outboxEventId()
                    + " changed meanwhile (another workstation may have resubmitted it); nothing was changed");
        }
        String refused = check.lastError() == null ? "it" : "\"" + check.lastError() + "\"";
        claims.note(h, claim, who, "resubmitted after the state refused " + refused + " (outbox row "
                + check.outboxEventId() + " superseded by row " + newId + "; changed: " + check.diff().describeFields()
                + "): " + why, now);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("claimId", claim.claimId());
        details.put("claimNumber", claim.claimNumber());
        details.put("oldOutboxEventId", check.outboxEventId());
        details.put("newOutboxEventId", newId);
        details.put("oldIdempotencyKey", check.idempotencyKey());
        details.put("newIdempotencyKey", newKey);
        details.put("refusedWith", check.lastError());
        details.put("changes", check.diff().changes());
        audit.append(h, now, who, AuditActions.OUTBOX_RESUBMIT, AuditActions.SUBJECT_OUTBOX,
                Long.toString(check.outboxEventId()), why, Json.write(details));
        return new Result(check.outboxEventId(), newId, claim.claimId(), claim.claimNumber(), check.idempotencyKey(),
                newKey, check.lastError(), check.diff());
    }

    private Check check(Handle h, long outboxEventId) {
        return check(h, outboxEventId, false);
    }

    /**
     * {@link #check(Handle, long)} with the row, then its claim, held until the transaction ends: evidence added
     * meanwhile is either in the payload built next or, added after, refused because the claim's submission is
     * then pending.
     */
    private Check checkHeld(Handle h, long outboxEventId) {
        return check(h, outboxEventId, true);
    }

    private Check check(Handle h, long outboxEventId, boolean hold) {
        OutboxEvent row = (hold ? outbox.findForUpdate(h, outboxEventId) : outbox.find(h, outboxEventId))
                .orElseThrow(() -> new NotFoundException("no outbox row with id " + outboxEventId));
        Claim claim = (hold ? claims.findForUpdate(h, row.aggregateId()) : claims.find(h, row.aggregateId()))
                .orElseThrow(() -> new NotFoundException("no claim with id " + row.aggregateId()));
        PayloadDiff diff = diff(h, row, claim);
        List<DeliveryAttempt> attempts = outbox.attempts(h, outboxEventId);
        AttemptOutcome last = attempts.isEmpty() ? null : attempts.get(attempts.size() - 1).outcome();
        return new Check(row.outboxEventId(), claim.claimId(), claim.claimNumber(), claim.status(), row.deliveryState(),
                row.supersededBy(), row.idempotencyKey(), row.lastError(), last, diff, claim.version(),
                row.updatedAt().toEpochMilli(), KeyPolicy.stateMayHold(attempts));
    }

    /** The claim's payload now against the row's, the key left out: the one definition of "changed". */
    static PayloadDiff diff(Handle h, OutboxEvent row, Claim claim) {
        return diff(row, Submissions.payload(h, claim, row.idempotencyKey()));
    }

    /** As {@link #diff(Handle, OutboxEvent, Claim)}, with the claim's evidence references already read. */
    static PayloadDiff diff(OutboxEvent row, Claim claim, List<org.claimdesk.domain.Evidence> evidence) {
        return diff(row, Submissions.payload(claim, evidence, row.idempotencyKey()));
    }

    private static PayloadDiff diff(OutboxEvent row, SubmissionPayload now) {
        return PayloadDiff.of(Json.readObject(row.payload()), Json.readObject(Json.write(now)));
    }
}
