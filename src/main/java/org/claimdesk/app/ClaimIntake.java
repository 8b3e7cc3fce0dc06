package org.claimdesk.app;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.ClaimKey;
import org.claimdesk.domain.ClaimNumbers;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.DuplicateClaimException;
import org.claimdesk.domain.InvalidFieldsException;
import org.claimdesk.domain.Transitions;
import org.claimdesk.store.AuditStore;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.jdbi.v3.core.Handle;

/**
 * Entering one claim by hand. Every field is read by its rule ({@link ClaimDraft}); the claim gets the next claim
 * number ({@link ClaimNumbers}), starts in IDENTITY_PENDING or, with a reason, in a later status a new claim may
 * start in ({@link Transitions#startingStatuses}), and is written with its first history row and one audit entry
 * in one transaction. A claim with the same jurisdiction, state property id and claimant as one already present
 * is refused ({@link DuplicateClaimException} names the claim present) unless staff name that claim as the one
 * they repeat and give a reason: a reason given for a later start alone never lets a repeat through unseen.
 */
public final class ClaimIntake {
    private final Database database;
    private final Clock clock;
    private final ClaimStore claims = new ClaimStore();
    private final AuditStore audit = new AuditStore();

    public ClaimIntake(Database database, Clock clock) {
        this.database = database;
        this.clock = clock;
    }

    public LocalDate today() {
        return LocalDate.now(clock);
    }

    /** The claim already present with the draft's jurisdiction, state property id and claimant, if any. */
    public Optional<Claim> duplicateOf(ClaimDraft draft) {
        return duplicateOf(draft.key());
    }

    /**
     * The claim already present with {@code key}, if any: for a form that looks as soon as those three fields keep
     * their rules, before the rest is typed. The key's parts are as {@link ClaimField#check} reads them (stripped).
     */
    public Optional<Claim> duplicateOf(ClaimKey key) {
        return database.read(h -> claims.findByKey(h, key));
    }

    /**
     * Creates a claim from the fields staff typed (names as in {@code claims show --json}).
     *
     * @param start the starting status; null for IDENTITY_PENDING. A later one needs a reason.
     * @param reason why it starts later or repeats a claim present; may be null otherwise
     * @param repeats the number of the claim present that staff saw and mean to repeat (with a reason); null when
     *     they saw none
     * @throws InvalidFieldsException naming every field whose value breaks its rule; nothing is written
     * @throws DuplicateClaimException when a claim with the same key is present and is not the one {@code repeats}
     *     names, or no reason is given
     */
    public Claim create(Map<String, String> fields, ClaimStatus start, String actor, String reason, String repeats) {
        return create(check(fields, start, actor, reason, repeats), (h, claim, now) -> { });
    }

    /**
     * What {@link #check} found: who creates, why, in which status, the claim's fields read by their rules, and the
     * claim present it repeats (its number, as staff gave it; null when they saw none).
     */
    record Checked(String who, String why, ClaimStatus status, ClaimDraft draft, String repeats) {
        /** Whether a claim present with the draft's key is refused as a duplicate: staff did not say they repeat it. */
        boolean refused(Optional<Claim> present) {
            return present.isPresent() && (repeats == null
                    || !present.get().claimNumber().equalsIgnoreCase(repeats.strip()));
        }
    }

    /**
     * Everything {@link #create} refuses before it writes, without the database: the actor, the starting status and
     * its reason, a repeat's reason, each field's rule.
     */
    Checked check(Map<String, String> fields, ClaimStatus start, String actor, String reason, String repeats) {
        String who = Inputs.actor(actor);
        String why = Inputs.reason(reason, false);
        ClaimStatus status = start == null ? Transitions.FIRST : start;
        Transitions.checkStart(status);
        if (status != Transitions.FIRST && why == null) {
            throw new ClaimDeskException("a new claim that starts in " + status + " rather than "
                    + Transitions.FIRST + " needs a reason");
        }
        if (repeats != null && why == null) {
            throw new ClaimDeskException("a new claim that repeats claim " + repeats.strip() + " needs a reason");
        }
        ClaimDraft.Read read = ClaimDraft.read(fields, today());
        if (!read.isOk()) {
            throw new InvalidFieldsException(read.violations());
        }
        return new Checked(who, why, status, read.draft(), repeats);
    }

    /**
     * What {@link #create} refuses without the database ({@link #check}), refused as it would be, on {@code clock}'s
     * day: for a command that would otherwise make a new desk's file only to refuse the claim.
     */
    public static void checkBeforeOpening(Map<String, String> fields, ClaimStatus start, String actor, String reason,
            String repeats, Clock clock) {
        new ClaimIntake(null, clock).check(fields, start, actor, reason, repeats);
    }

    /**
     * As {@link #check}, and the claim already present with the draft's key, refused unless {@code repeats} names
     * it: what {@link #create} would refuse as the database stands now, read before any work it is not worth doing
     * for a claim that will not be written (copying its evidence files in).
     */
    Checked checkAgainstPresent(Map<String, String> fields, ClaimStatus start, String actor, String reason,
            String repeats) {
        Checked checked = check(fields, start, actor, reason, repeats);
        Optional<Claim> present = duplicateOf(checked.draft());
        if (checked.refused(present)) {
            throw new DuplicateClaimException(present.get());
        }
        return checked;
    }

    /** Work done in the transaction that creates a claim, once the claim is written: {@link ClaimEvidence#createWith}. */
    interface AlsoWritten {
        void write(Handle handle, Claim claim, Instant now);
    }

    /** The claim {@code checked} describes created, {@code also} written in the same transaction. */
    Claim create(Checked checked, AlsoWritten also) {
        String who = checked.who();
        String why = checked.why();
        ClaimStatus status = checked.status();
        ClaimDraft draft = checked.draft();
        Instant now = clock.instant();
        int year = LocalDate.ofInstant(now, clock.getZone()).getYear();
        return database.inTransaction(h -> {
            claims.lockNewClaims(h);
            Optional<Claim> present = claims.findByKey(h, draft.key());
            if (checked.refused(present)) {
                throw new DuplicateClaimException(present.get());
            }
            String number = ClaimNumbers.format(year, claims.reserveNumbers(h, 1));
            long claimId = claims.create(h, draft.toNewClaim(number, status), who, why, now);
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("claimNumber", number);
            details.put("status", status.name());
            details.put("fields", draft.shown());
            present.ifPresent(p -> details.put("duplicateOf", p.claimNumber()));
            audit.append(h, now, who, AuditActions.CLAIM_CREATE, AuditActions.SUBJECT_CLAIM, Long.toString(claimId),
                    why, Json.write(details));
            Claim created = claims.find(h, claimId).orElseThrow();
            also.write(h, created, now);
            return created;
        });
    }
}
