package org.claimdesk.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ConflictException;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.StatusChange;
import org.claimdesk.store.AuditStore;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.EvidenceStore;
import org.claimdesk.store.Json;
import org.jdbi.v3.core.Handle;

/**
 * What staff are told when the claim they act on was changed by someone else (on this workstation or another)
 * after they opened it: who changed it, when and how, the versions, and that nothing was saved. Every change
 * checked against the version staff saw (an edit, a status move) says it in these words.
 */
final class Conflicts {
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");

    /** {@code at} to the minute in this computer's time zone, as staff are told when something happened. */
    static String localMinute(java.time.Instant at) {
        return WHEN.format(at.atZone(ZoneId.systemDefault()));
    }

    private final ClaimStore claims = new ClaimStore();
    private final AuditStore audit = new AuditStore();
    private final EvidenceStore evidence = new EvidenceStore();

    /**
     * The audited actions that move a claim's version on. Others about a claim (evidence added, a tax id revealed)
     * leave its version as it was and name no one who changed it.
     */
    static final List<String> VERSION_CHANGES = List.of(AuditActions.CLAIM_EDIT, AuditActions.TAX_ID_REPLACE,
            AuditActions.CLAIM_ADVANCE, AuditActions.CLAIM_SUBMIT, AuditActions.CLAIM_CREATE);

    /**
     * Refuses with {@link #changedSince} when {@code claim} is no longer at {@code expectedVersion}, the version the
     * caller saw; null checks nothing (the caller acts on whatever is current).
     */
    void requireVersion(Handle h, Claim claim, Long expectedVersion) {
        if (expectedVersion != null && expectedVersion != claim.version()) {
            throw changedSince(h, claim, expectedVersion);
        }
    }

    /**
     * Refuses, naming who added or withdrew what and when, a claim whose evidence is no longer the references staff saw
     * ({@code seen}, the ids of those that count; null: not checked). Adding or withdrawing evidence leaves the claim's
     * version as it is (the fields did not change), but a submission carries every reference that counts: what goes to
     * the state is what staff checked. The claim must be held by the caller's transaction, as an addition holds it.
     */
    void requireEvidence(Handle h, Claim claim, java.util.Set<Long> seen) {
        if (seen == null) {
            return;
        }
        List<Evidence> all = evidence.forClaim(h, claim.claimId());
        java.util.Set<Long> current = Evidence.currentIds(all);
        if (current.equals(seen)) {
            return;
        }
        List<Evidence> added = all.stream().filter(e -> current.contains(e.evidenceId()) && !seen.contains(e.evidenceId()))
                .toList();
        List<Evidence> withdrawn = all.stream().filter(e -> e.isWithdrawn() && seen.contains(e.evidenceId())).toList();
        List<String> changes = new java.util.ArrayList<>();
        added.forEach(e -> changes.add(e.kind().label() + " \"" + e.title() + "\" added by " + e.addedBy() + " at "
                + localMinute(e.addedAt())));
        withdrawn.forEach(e -> changes.add(e.kind().label() + " \"" + e.title() + "\" withdrawn by "
                + e.withdrawal().by() + " at " + localMinute(e.withdrawal().at())));
        // an evidence title is often the file's name ("Maria Lopez SSN card.pdf"): on screen, not in the log
        throw new ConflictException("claim " + claim.claimNumber() + "'s evidence changed after you opened it"
                + (changes.isEmpty() ? "" : ": " + String.join("; ", changes))
                + "; nothing was queued: look at its evidence and submit again",
                "claim " + claim.claimNumber() + "'s evidence changed after it was opened (" + added.size()
                        + " reference(s) added, " + withdrawn.size() + " withdrawn); nothing was queued");
    }

    /**
     * A conflict naming who changed the claim last and when: its newest audited change of the claim's version or
     * its newest history row (a status move, or a resubmission noted without one).
     */
    ConflictException changedSince(Handle h, Claim current, long expectedVersion) {
        Optional<AuditEntry> lastAudit = audit.latest(h, AuditActions.SUBJECT_CLAIM, Long.toString(current.claimId()),
                VERSION_CHANGES);
        Optional<StatusChange> lastMove = claims.lastStatusChange(h, current.claimId());
        String who;
        Instant when;
        String what;
        if (lastAudit.isPresent()
                && (lastMove.isEmpty() || !lastAudit.get().at().isBefore(lastMove.get().at()))) {
            who = lastAudit.get().actor();
            when = lastAudit.get().at();
            what = describe(lastAudit.get());
        } else if (lastMove.isPresent()) {
            who = lastMove.get().actor();
            when = lastMove.get().at();
            StatusChange move = lastMove.get();
            what = move.fromStatus() != move.toStatus() ? "moved it to " + move.toStatus()
                    : move.reason() != null ? move.reason() : "changed it";
        } else {
            who = "someone";
            when = current.updatedAt();
            what = "changed it";
        }
        return new ConflictException("claim " + current.claimNumber() + " was changed by " + who + " at "
                + localMinute(when) + " (" + what + ") after you opened it: you saw"
                + " version " + expectedVersion + ", it is now at version " + current.version()
                + "; nothing was saved: reload the claim and make your change on its new version");
    }

    /** The staff actions on an outbox row, each audited under the row. */
    private static final List<String> ROW_CHANGES = List.of(AuditActions.OUTBOX_REQUEUE, AuditActions.OUTBOX_RECONCILE,
            AuditActions.OUTBOX_ABANDON, AuditActions.OUTBOX_RESUBMIT);

    /**
     * A conflict naming who changed outbox row {@code rowId} of claim {@code claimNumber} after it was seen as last
     * updated at {@code seenUpdatedAt}, and when: the newest staff action on it since (a re-queue on another
     * workstation, say), else the delivery worker, whose attempts are not audited, at {@code nowUpdatedAt}.
     */
    ConflictException rowChangedSince(Handle h, long rowId, String claimNumber, Instant seenUpdatedAt,
            Instant nowUpdatedAt) {
        Optional<AuditEntry> last = audit.latest(h, AuditActions.SUBJECT_OUTBOX, Long.toString(rowId), ROW_CHANGES)
                .filter(e -> !e.at().isBefore(seenUpdatedAt));
        String change = last.map(e -> e.actor() + " at " + localMinute(e.at()) + " ("
                + switch (e.action()) {
                    case AuditActions.OUTBOX_REQUEUE -> "re-queued it";
                    case AuditActions.OUTBOX_RECONCILE -> "reconciled it";
                    case AuditActions.OUTBOX_ABANDON -> "abandoned it";
                    default -> "resubmitted it";
                } + ")").orElse("the delivery worker at " + localMinute(nowUpdatedAt));
        return new ConflictException("outbox row " + rowId + " of claim " + claimNumber + " was changed by " + change
                + " after you opened it; nothing was changed: look at the row again and resubmit again");
    }

    /**
     * A conflict for a claim whose payload changed without a new version after it was seen: evidence added or
     * withdrawn, named with who did it and when.
     */
    ConflictException sentChangedSince(Handle h, long claimId, String claimNumber) {
        Optional<AuditEntry> change = audit.latest(h, AuditActions.SUBJECT_CLAIM, Long.toString(claimId),
                List.of(AuditActions.EVIDENCE_ADD, AuditActions.EVIDENCE_WITHDRAW));
        return new ConflictException("what would be sent for claim " + claimNumber + " changed after you opened it"
                + change.map(e -> " (evidence " + (e.action().equals(AuditActions.EVIDENCE_ADD) ? "added" : "withdrawn")
                        + " by " + e.actor() + " at " + localMinute(e.at()) + ")").orElse("")
                + "; nothing was changed: look at the new diff and resubmit again");
    }

    private static String describe(AuditEntry entry) {
        return switch (entry.action()) {
            case AuditActions.CLAIM_EDIT -> "edited " + field(entry);
            case AuditActions.TAX_ID_REPLACE -> "replaced the tax id";
            case AuditActions.CLAIM_ADVANCE, AuditActions.CLAIM_SUBMIT -> "moved its status";
            default -> entry.action();
        };
    }

    private static String field(AuditEntry entry) {
        if (entry.details() == null) {
            return "a field";
        }
        try {
            return Json.mapper().readTree(entry.details()).path("field").asText("a field");
        } catch (JsonProcessingException e) {
            return "a field";
        }
    }
}
