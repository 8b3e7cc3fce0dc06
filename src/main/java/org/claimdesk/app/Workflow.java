package org.claimdesk.app;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import java.util.Optional;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.store.Json;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ConflictException;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.KeyPolicy;
import org.claimdesk.domain.NotFoundException;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.Transitions;
import org.claimdesk.store.AuditStore;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.OutboxStore;
import org.claimdesk.store.RequestKeyStore;
import org.jdbi.v3.core.Handle;

/**
 * The claim workflow's use cases. Each one writes the claim's status through {@link ClaimStore#changeStatus}
 * (the transition table, then the claim's version), its status history and an audit entry in one transaction.
 */
public final class Workflow {
    private final Database database;
    private final Clock clock;
    private final Deadlines deadlines;
    private final ClaimStore claims = new ClaimStore();
    private final OutboxStore outbox = new OutboxStore();
    private final AuditStore audit = new AuditStore();
    private final RequestKeyStore requestKeys = new RequestKeyStore();
    private final Conflicts conflicts = new Conflicts();

    private final EvidenceOnFile evidenceOnFile;

    public Workflow(Database database, Clock clock, Deadlines deadlines) {
        this(database, clock, deadlines, EvidenceOnFile.of(database));
    }

    /** As {@link #Workflow(Database, Clock, Deadlines)}, its claims' evidence files in {@code files}. */
    public Workflow(Database database, Clock clock, Deadlines deadlines, org.claimdesk.store.EvidenceFiles files) {
        this(database, clock, deadlines, new EvidenceOnFile(database, () -> files));
    }

    private Workflow(Database database, Clock clock, Deadlines deadlines, EvidenceOnFile evidenceOnFile) {
        this.database = database;
        this.clock = clock;
        this.deadlines = deadlines;
        this.evidenceOnFile = evidenceOnFile;
    }

    /**
     * Moves a claim to {@code target}.
     *
     * @param expectedVersion the version the caller saw, or null to act on whatever is current
     * @param requestKey optional; replaying a key returns the first result and changes nothing
     */
    public AdvanceResult advance(long claimId, ClaimStatus target, String actor, String requestKey, String reason,
            Long expectedVersion) {
        String who = Inputs.actor(actor);
        String why = Inputs.reason(reason, false);
        String key = Inputs.key(requestKey);
        return database.inTransaction(h -> {
            if (key != null) {
                Optional<AdvanceResult> replay = replay(h, key, claimId, target);
                if (replay.isPresent()) {
                    return replay.get();
                }
            }
            Claim claim = load(h, claimId);
            conflicts.requireVersion(h, claim, expectedVersion);
            // the table's refusal comes before the workflow's own ones (submit, a submission in flight)
            Transitions.check(claim.status(), target);
            if (target == ClaimStatus.SUBMITTING) {
                throw new ClaimDeskException("use submit to send claim " + claim.claimNumber()
                        + " to the state: it queues the submission in the outbox");
            }
            if (claim.status() == ClaimStatus.SUBMITTING) {
                throw new ClaimDeskException("claim " + claim.claimNumber() + " has a submission in flight: it moves to "
                        + "SUBMITTED_TO_STATE when the state acknowledges it, or back to READY_FOR_SUBMISSION when "
                        + "staff abandon its failed outbox row");
            }
            if (why == null && Transitions.needsReason(claim.status(), target)) {
                throw new ClaimDeskException("moving claim " + claim.claimNumber() + " from " + claim.status() + " to "
                        + target + " needs a reason: it is kept in the claim's history and the audit trail");
            }
            Instant now = clock.instant();
            LocalDate dueOn = target == ClaimStatus.SUBMITTED_TO_STATE && claim.decisionDueOn() == null
                    ? deadlines.dueDate(claim.jurisdiction(), today()) : null;
            claims.changeStatus(h, claim, target, null, dueOn, who, why, now);
            audit.append(h, now, who, AuditActions.CLAIM_ADVANCE, AuditActions.SUBJECT_CLAIM,
                    Long.toString(claimId), why,
                    Json.write(Map.of("from", claim.status().name(), "to", target.name(), "claimNumber",
                            claim.claimNumber())));
            if (key != null) {
                rememberKey(h, key, claimId, "advance", claim.status(), target, claim.version() + 1, now);
            }
            return new AdvanceResult(claimId, claim.claimNumber(), claim.status(), target, claim.version() + 1, false);
        });
    }

    /**
     * READY_FOR_SUBMISSION to SUBMITTING, and the outbox row that carries the submission, in one
     * transaction: either both land or neither does.
     *
     * @param idempotencyKey the key the state will see; generated when null. A replay returns the first result.
     */
    public SubmitResult submit(long claimId, String actor, String idempotencyKey) {
        return submit(claimId, actor, idempotencyKey, null);
    }

    /**
     * As {@link #submit(long, String, String)}, refused with who changed the claim and when if its version is no
     * longer {@code expectedVersion} (the one staff saw): what goes to the state is what they checked.
     *
     * @param expectedVersion the version the caller saw, or null to submit whatever is current
     */
    public SubmitResult submit(long claimId, String actor, String idempotencyKey, Long expectedVersion) {
        return submit(claimId, actor, idempotencyKey, expectedVersion, null);
    }

    /**
     * As {@link #submit(long, String, String, Long)}, refused as well, naming who added what and when, if the claim's
     * evidence references are no longer {@code expectedEvidence} (the ids staff saw; null: not checked).
     */
    public SubmitResult submit(long claimId, String actor, String idempotencyKey, Long expectedVersion,
            java.util.Set<Long> expectedEvidence) {
        return submit(claimId, actor, idempotencyKey, expectedVersion, expectedEvidence, null);
    }

    /**
     * As {@link #submit(long, String, String, Long, java.util.Set)}, with staff's note on the submission (optional:
     * null or blank for none), written to the claim's history and the audit entry. A replayed key keeps the first
     * submission's note.
     */
    public SubmitResult submit(long claimId, String actor, String idempotencyKey, Long expectedVersion,
            java.util.Set<Long> expectedEvidence, String reason) {
        String who = Inputs.actor(actor);
        String why = Inputs.reason(reason, false);
        String givenKey = Inputs.key(idempotencyKey);
        String keyRefusal = givenKey == null ? null : KeyPolicy.keyRefusal(givenKey);
        if (keyRefusal != null) {
            throw new ClaimDeskException(keyRefusal + "; nothing was queued");
        }
        String key = givenKey != null ? givenKey : KeyPolicy.newKey();
        if (givenKey == null) {
            // the files are read outside the transaction; a replayed key's submission went already
            evidenceOnFile.requireWhole(claimId, "submitted");
        }
        return database.inTransaction(h -> {
            // a key given by the caller may come twice at once (a retried request, two workstations); a new one cannot
            Optional<OutboxEvent> existing = givenKey != null ? outbox.claimKey(h, key) : Optional.empty();
            if (existing.isPresent()) {
                OutboxEvent event = existing.get();
                if (event.aggregateId() != claimId) {
                    throw new ConflictException("the key " + key + " already carries the submission of another claim"
                            + " (id " + event.aggregateId() + "); use a new key");
                }
                Claim claim = load(h, claimId);
                if (event.deliveryState() == DeliveryState.ABANDONED) {
                    // that submission was given up: the key is spent (a superseded one's claim goes on under the
                    // row that replaced it, which the replay's row state says)
                    throw new ConflictException("the key " + key + " carried a submission of claim "
                            + claim.claimNumber() + " that is now abandoned (outbox row " + event.outboxEventId()
                            + "); submitting it again needs a new key");
                }
                if (Transitions.startingStatuses().contains(claim.status())) {
                    // that submission ended (sent, then the claim rejected and amended): replayed, the call would say
                    // all is well while the claim waits unqueued
                    throw new ConflictException("the key " + key + " carried an earlier submission of claim "
                            + claim.claimNumber() + " (outbox row " + event.outboxEventId() + ", "
                            + event.deliveryState().dbValue() + "); the claim is "
                            + claim.status() + " again: submitting it again needs a new key");
                }
                return new SubmitResult(claimId, claim.claimNumber(), event.outboxEventId(), key, true, claim.status(),
                        event.deliveryState());
            }
            Claim claim = load(h, claimId);
            conflicts.requireVersion(h, claim, expectedVersion);
            conflicts.requireEvidence(h, claim, expectedEvidence);
            Instant now = clock.instant();
            claims.changeStatus(h, claim, ClaimStatus.SUBMITTING, null, null, who, why, now);
            String payload = Submissions.json(h, claim, key);
            long eventId = outbox.insert(h, claimId, OutboxEvent.SUBMISSION_REQUESTED, payload, key, now);
            audit.append(h, now, who, AuditActions.CLAIM_SUBMIT, AuditActions.SUBJECT_CLAIM, Long.toString(claimId),
                    why, Json.write(Map.of("outboxEventId", eventId, "idempotencyKey", key, "claimNumber",
                            claim.claimNumber())));
            return new SubmitResult(claimId, claim.claimNumber(), eventId, key, false, ClaimStatus.SUBMITTING,
                    DeliveryState.PENDING);
        });
    }

    /**
     * Returns the claim's whole tax id and records who asked and why. Nothing else in ClaimDesk shows it.
     */
    public String revealTaxId(long claimId, String actor, String reason) {
        return reveal(claimId, actor, reason).taxId();
    }

    /** A tax id revealed, and the version of the claim it was read from. */
    public record Revealed(String taxId, long version) {
        @Override
        public String toString() {
            return "Revealed[version=" + version + "]";
        }
    }

    /** As {@link #revealTaxId}, with the version of the claim the tax id was read from. */
    public Revealed reveal(long claimId, String actor, String reason) {
        String who = Inputs.actor(actor);
        String why = Inputs.reason(reason, true);
        return database.inTransaction(h -> {
            Claim claim = load(h, claimId);
            audit.append(h, clock.instant(), who, AuditActions.TAX_ID_REVEAL, AuditActions.SUBJECT_CLAIM,
                    Long.toString(claimId), why, Json.write(Map.of("claimNumber", claim.claimNumber())));
            return new Revealed(claim.taxId(), claim.version());
        });
    }

    /** Editing this workflow's claims, on the same database and clock. */
    public ClaimEditing editing() {
        return new ClaimEditing(database, clock);
    }

    /** Entering new claims by hand, on the same database and clock. */
    public ClaimIntake intake() {
        return new ClaimIntake(database, clock);
    }

    /** The evidence references of this workflow's claims, on the same database and clock. */
    public ClaimEvidence evidence() {
        return new ClaimEvidence(database, clock);
    }

    /** The claim, held against other workstations' writes until the transaction ends. */
    private Claim load(Handle h, long claimId) {
        return claims.findForUpdate(h, claimId)
                .orElseThrow(() -> new NotFoundException("no claim with id " + claimId));
    }

    private LocalDate today() {
        return LocalDate.now(clock);
    }

    private Optional<AdvanceResult> replay(Handle h, String key, long claimId, ClaimStatus target) {
        return requestKeys.find(h, key).map(used -> {
            if (used.claimId() != claimId || used.to() != target) {
                throw new ConflictException("the request key " + key + " was already used to move claim id "
                        + used.claimId() + " to " + used.to() + "; use a new key for a different request");
            }
            Claim claim = load(h, claimId);
            return new AdvanceResult(claimId, claim.claimNumber(), used.from(), used.to(), used.resultVersion(), true);
        });
    }

    private void rememberKey(Handle h, String key, long claimId, String operation, ClaimStatus from, ClaimStatus to,
            long resultVersion, Instant now) {
        requestKeys.remember(h, new RequestKeyStore.Used(key, claimId, operation, from, to, resultVersion), now);
    }
}
