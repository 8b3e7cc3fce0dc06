package org.claimdesk.app;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.ClaimKey;
import org.claimdesk.domain.ClaimKeyRepeatedException;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ConflictException;
import org.claimdesk.domain.DuplicateClaimException;
import org.claimdesk.domain.FieldViolation;
import org.claimdesk.domain.InvalidFieldsException;
import org.claimdesk.domain.NotFoundException;
import org.claimdesk.store.AuditStore;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.claimdesk.store.OutboxStore;
import org.jdbi.v3.core.Handle;

/**
 * Editing a claim's fields. Each value is read by its field's rule ({@link ClaimField}); the edit applies
 * only to the version staff saw, only in a status that allows editing ({@link
 * org.claimdesk.domain.ClaimStatus#editRefusal}), and writes the claim and one audit entry per changed
 * field, before and after, in one transaction. The tax id is replaced whole and audited masked.
 */
public final class ClaimEditing {
    private static final OutboxStore OUTBOX = new OutboxStore();
    private final Database database;
    private final Clock clock;
    private final ClaimStore claims = new ClaimStore();
    private final AuditStore audit = new AuditStore();
    private final Conflicts conflicts = new Conflicts();

    public ClaimEditing(Database database, Clock clock) {
        this.database = database;
        this.clock = clock;
    }

    public LocalDate today() {
        return LocalDate.now(clock);
    }

    /**
     * Sets the fields named in {@code changes} (names as in {@code claims show --json}) to the values
     * staff typed.
     *
     * @param expectedVersion the version staff edited; a claim changed since is a {@link ConflictException}
     *        naming who changed it and when, and nothing is written
     * @throws InvalidFieldsException naming every field whose value breaks its rule; nothing is written
     */
    public EditResult edit(long claimId, long expectedVersion, Map<String, String> changes, String actor,
            String reason) {
        String who = Inputs.actor(actor);
        String why = Inputs.reason(reason, true);
        if (changes.isEmpty()) {
            throw new ClaimDeskException("nothing to edit: name at least one field (" + ClaimField.names() + ")");
        }
        LocalDate today = today();
        ClaimField.Parsed parsed = ClaimField.parseAll(changes, today);
        if (!parsed.violations().isEmpty()) {
            throw new InvalidFieldsException(parsed.violations());
        }
        return database.inTransaction(h -> {
            Claim claim = claims.findForUpdate(h, claimId)
                    .orElseThrow(() -> new NotFoundException("no claim with id " + claimId));
            conflicts.requireVersion(h, claim, expectedVersion);
            refuseIfNotEditable(h, claim);
            Map<ClaimField<?>, Object> changed = new LinkedHashMap<>();
            List<FieldChange> shown = new ArrayList<>();
            // read again for this claim's type: a tax id of nine bare digits is an EIN on a business claim
            ClaimField.parseAll(changes, today, claim.claimType()).values().forEach((field, value) -> {
                Object before = field.valueOf(claim);
                if (!java.util.Objects.equals(before, value)) {
                    changed.put(field, value);
                    shown.add(new FieldChange(field.name(), field.shown(before), field.shown(value)));
                }
            });
            if (changed.isEmpty()) {
                return new EditResult(claimId, claim.claimNumber(), claim.version(), List.of());
            }
            List<FieldViolation> locked = changed.keySet().stream()
                    .flatMap(f -> claim.status().fieldRefusal(f).map(r -> new FieldViolation(f.name(), f.label(), r))
                            .stream())
                    .toList();
            if (!locked.isEmpty()) {
                throw new InvalidFieldsException(locked);
            }
            refuseIfItRepeatsAnother(h, claim, changed);
            Instant now = clock.instant();
            if (!claims.updateFields(h, claimId, expectedVersion, changed, now)) {
                throw conflicts.changedSince(h, claims.find(h, claimId).orElseThrow(), expectedVersion);
            }
            long version = expectedVersion + 1;
            for (FieldChange change : shown) {
                boolean taxId = change.field().equals(ClaimField.TAX_ID.name());
                Map<String, Object> details = new LinkedHashMap<>();
                details.put("claimNumber", claim.claimNumber());
                details.put("field", change.field());
                details.put("before", change.before());
                details.put("after", change.after());
                details.put("version", version);
                audit.append(h, now, who, taxId ? AuditActions.TAX_ID_REPLACE : AuditActions.CLAIM_EDIT,
                        AuditActions.SUBJECT_CLAIM, Long.toString(claimId), why, Json.write(details));
            }
            return new EditResult(claimId, claim.claimNumber(), version, shown);
        });
    }

    /** Replaces the tax id whole: an audited action with a reason, shown and recorded masked. */
    public EditResult replaceTaxId(long claimId, long expectedVersion, String taxId, String actor, String reason) {
        return edit(claimId, expectedVersion, Map.of(ClaimField.TAX_ID.name(), taxId == null ? "" : taxId), actor,
                reason);
    }

    /**
     * Refuses an edit of the jurisdiction, state property id or claimant that would give the claim the key of another
     * claim: a claim entered or imported with that key is refused as a repeat, and an edit must not make one either
     * (the state would get two claims of one claimant for one property).
     */
    private void refuseIfItRepeatsAnother(Handle h, Claim claim, Map<ClaimField<?>, Object> changed) {
        if (!changed.containsKey(ClaimField.JURISDICTION) && !changed.containsKey(ClaimField.STATE_PROPERTY_ID)
                && !changed.containsKey(ClaimField.CLAIMANT_NAME)) {
            return;
        }
        ClaimKey key = new ClaimKey(
                (String) changed.getOrDefault(ClaimField.JURISDICTION, claim.jurisdiction()),
                (String) changed.getOrDefault(ClaimField.STATE_PROPERTY_ID, claim.statePropertyId()),
                (String) changed.getOrDefault(ClaimField.CLAIMANT_NAME, claim.claimantName()));
        if (key.equals(ClaimKey.of(claim))) {
            return; // the claimant's name written another way: the claim keeps its key, a repeat it was or not
        }
        claims.lockNewClaims(h);
        Optional<Claim> other = claims.findByKey(h, key).filter(c -> c.claimId() != claim.claimId());
        if (other.isPresent()) {
            String repeats = ": claim " + claim.claimNumber() + " would repeat it; nothing was changed";
            // each key field changed is marked where staff typed it
            List<FieldViolation> marked = java.util.stream.Stream.of(ClaimField.JURISDICTION,
                    ClaimField.STATE_PROPERTY_ID, ClaimField.CLAIMANT_NAME).filter(changed::containsKey)
                    .map(f -> new FieldViolation(f.name(), f.label(), "would repeat claim "
                            + other.get().claimNumber() + ", which has this jurisdiction, state property id and"
                            + " claimant"))
                    .toList();
            throw new ClaimKeyRepeatedException(DuplicateClaimException.alreadyHas(other.get()) + repeats,
                    DuplicateClaimException.alreadyHasForLog(other.get()) + repeats, marked);
        }
    }

    /**
     * Refuses a claim its status or a pending submission keeps from being edited ({@link
     * org.claimdesk.domain.ClaimStatus#editRefusal}). Called with the claim held for update: a re-queue takes the
     * same lock before it makes a row pending again, so the two cannot pass each other.
     */
    static void refuseIfNotEditable(Handle h, Claim claim) {
        Optional<String> refusal = claim.status().editRefusal(submissionPending(h, claim));
        if (refusal.isPresent()) {
            throw new ClaimDeskException("claim " + claim.claimNumber() + " cannot be edited in " + claim.status()
                    + ": " + refusal.get());
        }
    }

    /** Whether the claim's submission is on its way: only a SUBMITTING claim has one to look up. */
    static boolean submissionPending(Handle h, Claim claim) {
        return claim.status() == ClaimStatus.SUBMITTING && OUTBOX.hasPending(h, claim.claimId());
    }
}
