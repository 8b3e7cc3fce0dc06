package org.claimdesk.app;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.EvidenceCopy;
import org.claimdesk.domain.EvidenceKind;
import org.claimdesk.domain.EvidenceRules;
import org.claimdesk.domain.NotFoundException;
import org.claimdesk.store.AuditStore;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.EvidenceFiles;
import org.claimdesk.store.EvidenceStore;
import org.claimdesk.store.Json;
import org.jdbi.v3.core.Handle;

/**
 * Evidence references of a claim: a web address, or a file copied into the evidence folder beside the
 * database ({@link DataDirectory#evidence}). Added and withdrawn in the statuses that allow editing, each audited; a
 * reference is never changed otherwise, and a withdrawn one stays on the claim's record with its file. A file is
 * copied and hashed before its row is written; if the row cannot be written the copy is removed from a folder of one's
 * own, so a refused or failed add leaves nothing behind there (the office's shared folder keeps it: see {@link
 * EvidenceFiles}).
 */
public final class ClaimEvidence {
    private final Database database;
    private final Clock clock;
    private final EvidenceFiles files;
    private final ClaimStore claims = new ClaimStore();
    private final EvidenceStore evidence = new EvidenceStore();
    private final AuditStore audit = new AuditStore();
    private final org.claimdesk.store.OutboxStore outbox = new org.claimdesk.store.OutboxStore();

    /** Evidence kept in the folder that belongs to {@code database} ({@link DataDirectory#evidenceFiles}). */
    public ClaimEvidence(Database database, Clock clock) {
        this(database, clock, DataDirectory.evidenceFiles(database, null));
    }

    /** Evidence whose files are kept in {@code files}, as {@link DataDirectory#evidenceFiles} finds them. */
    public ClaimEvidence(Database database, Clock clock, EvidenceFiles files) {
        this.database = database;
        this.clock = clock;
        this.files = files;
    }

    public List<Evidence> list(long claimId) {
        return database.read(h -> evidence.forClaim(h, claimId));
    }

    /**
     * What this workstation's evidence folder has of each file reference's copy among {@code references}, by
     * evidence id ({@link EvidenceFiles#presence(Evidence)}; on a team database, a folder of this workstation's own
     * holds only what was added here). Reads the file system: off the FX thread.
     */
    public Map<Long, EvidenceCopy> copies(List<Evidence> references) {
        Map<Long, EvidenceCopy> found = new LinkedHashMap<>();
        for (Evidence e : references) {
            if (e.isFile()) {
                found.put(e.evidenceId(), files.presence(e));
            }
        }
        return found;
    }

    /** The evidence folder this workstation keeps the files in. */
    public Path folder() {
        return files.folder();
    }

    /** Where a file reference's copy is kept; for opening it. */
    public Path fileOf(Evidence reference) {
        if (!reference.isFile()) {
            throw new IllegalArgumentException("evidence " + reference.evidenceId() + " is an address, not a file");
        }
        return files.path(reference.storedName());
    }

    public Evidence addUrl(long claimId, String kind, String url, String title, String actor) {
        String who = Inputs.actor(actor);
        Checked c = checked(new Draft(kind, url, null, title));
        return database.inTransaction(h -> insertUrl(h, editableClaim(h, claimId), c.kind(), c.title(), c.url(), who,
                clock.instant()));
    }

    public Evidence addFile(long claimId, String kind, Path file, String title, String actor) {
        String who = Inputs.actor(actor);
        Checked c = checked(new Draft(kind, null, java.util.Objects.requireNonNull(file, "file"), title));
        // refuse a claim that cannot take evidence before copying anything
        database.read(h -> editableClaim(h, claimId, false));
        EvidenceFiles.Stored[] copied = {files.copyIn(file)};
        boolean[] committing = {false};
        try {
            return database.inTransaction(h -> {
                Claim claim = editableClaim(h, claimId);
                evidence.lockFiles(h);
                Evidence added = insertFile(h, claim, c.kind(), c.title(), file, copied, who, clock.instant());
                committing[0] = true;
                return added;
            });
        } catch (RuntimeException e) {
            if (!committing[0]) {
                discardUnlessNamed(copied[0]);
            }
            // a failure at the commit leaves the file: the commit may have gone through with its answer lost (a team
            // database's connection cut then), or still be finishing on the server; if not, no row names the file,
            // which is only space
            throw e;
        }
    }

    /**
     * Withdraws reference {@code evidenceId} of claim {@code claimId}, added by mistake (the wrong claim, the wrong
     * document): it stays on the claim's record, with its file, marked with who withdrew it, when and why, and no longer
     * counts from now on (it is not sent to the state; the checklist does not see it). A submission the state got
     * before had it: {@link Withdrawn#sentWith} names it, for staff to tell the state by its own channel. Refused, with
     * nothing written, when the claim cannot be edited now ({@link ClaimStatus#editRefusal}), the reference is not the
     * claim's, or it was withdrawn already (saying by whom and when); the reason is required. Audited.
     */
    public Withdrawn withdraw(long claimId, long evidenceId, String reason, String actor) {
        String who = Inputs.actor(actor);
        String why = Inputs.reason(reason, true);
        return database.inTransaction(h -> {
            Claim claim = editableClaim(h, claimId);
            Evidence reference = evidence.find(h, evidenceId).filter(e -> e.claimId() == claimId)
                    .orElseThrow(() -> new NotFoundException("claim " + claim.claimNumber() + " has no evidence with id "
                            + evidenceId));
            if (reference.isWithdrawn()) {
                Evidence.Withdrawal w = reference.withdrawal();
                throw new ClaimDeskException("evidence " + evidenceId + " of claim " + claim.claimNumber()
                        + " was withdrawn already, by " + w.by() + " at " + Conflicts.localMinute(w.at())
                        + "; nothing was changed");
            }
            Instant now = clock.instant();
            if (!evidence.withdraw(h, evidenceId, who, now, why)) {
                throw new IllegalStateException("evidence " + evidenceId + " changed under the claim's lock");
            }
            // a submission queued once the reference was there carried it (the payload is made at queueing)
            OutboxEvent sentWith = outbox.forClaim(h, claimId).stream()
                    .filter(row -> row.deliveryState() == DeliveryState.SENT
                            && !row.createdAt().isBefore(reference.addedAt()))
                    .min(java.util.Comparator.comparing(OutboxEvent::outboxEventId)).orElse(null);
            Map<String, Object> details = details(claim, evidenceId, reference.kind(), reference.title());
            details.put(reference.isFile() ? "fileName" : "url", reference.source());
            if (sentWith != null) {
                details.put("sentToStateWithRow", sentWith.outboxEventId());
            }
            audit.append(h, now, who, AuditActions.EVIDENCE_WITHDRAW, AuditActions.SUBJECT_CLAIM,
                    Long.toString(claimId), why, Json.write(details));
            return new Withdrawn(evidence.find(h, evidenceId).orElseThrow(), claim.claimNumber(), sentWith);
        });
    }

    /**
     * A reference withdrawn from claim {@code claimNumber}; {@code sentWith} the first submission the state got with it
     * (its outbox row, sent), null when none did.
     */
    public record Withdrawn(Evidence evidence, String claimNumber, OutboxEvent sentWith) {
        /** "The state has had it since …" for staff, or empty when it never got it. */
        public java.util.Optional<String> stateNotice() {
            return java.util.Optional.ofNullable(sentWith).map(row -> "the state received it with the submission of"
                    + " outbox row " + row.outboxEventId() + (row.sentAt() == null ? "" : ", sent "
                    + Conflicts.localMinute(row.sentAt())) + ": tell the state by its own channel that it is"
                    + " withdrawn");
        }
    }

    /** A reference staff give with a claim they create: a web address ({@code url}) or a {@code file}. */
    public record Draft(String kind, String url, Path file, String title) {
    }

    /**
     * What {@link #createWith} made: the claim, the references written with it, and the drafts refused before it was
     * written (a file gone, an address no rule takes), by their index among the drafts.
     */
    public record Created(Claim claim, List<Evidence> added, Map<Integer, RuntimeException> refused) {
    }

    /** A draft read by the evidence rules: its kind, its title (else the address or the file name), one of the two. */
    private record Checked(EvidenceKind kind, String title, String url, Path file) {
    }

    /** A draft checked, its file (if any) copied into the folder; {@code copied} may be copied again. */
    private record Prepared(EvidenceKind kind, String title, String url, Path file, EvidenceFiles.Stored[] copied) {
    }

    /**
     * Creates a claim ({@link ClaimIntake#create}) and its evidence references in one transaction: no other
     * workstation sees the claim without the evidence staff entered with it (a claim created ready for submission
     * could otherwise be submitted elsewhere before its references are in). Each draft is checked, and its file
     * copied, first: a draft refused there is left out and named in {@link Created#refused}; a failure while writing
     * leaves neither the claim nor any reference.
     */
    public Created createWith(ClaimIntake intake, Map<String, String> fields, ClaimStatus start, String actor,
            String reason, String repeats, List<Draft> drafts) {
        String who = Inputs.actor(actor);
        // refused as the create would refuse it, before any file is copied in (a shared folder keeps its copies)
        ClaimIntake.Checked checked = intake.checkAgainstPresent(fields, start, who, reason, repeats);
        Map<Integer, RuntimeException> refused = new LinkedHashMap<>();
        List<Prepared> ready = new ArrayList<>();
        for (int i = 0; i < drafts.size(); i++) {
            try {
                ready.add(prepare(drafts.get(i)));
            } catch (RuntimeException e) {
                refused.put(i, e);
            }
        }
        boolean[] committing = {false};
        List<Evidence> added = new ArrayList<>();
        try {
            Claim claim = intake.create(checked, (h, created, now) -> {
                ClaimEditing.refuseIfNotEditable(h, created);
                if (ready.stream().anyMatch(p -> p.file() != null)) {
                    evidence.lockFiles(h);
                }
                for (Prepared p : ready) {
                    added.add(p.file() == null ? insertUrl(h, created, p.kind(), p.title(), p.url(), who, now)
                            : insertFile(h, created, p.kind(), p.title(), p.file(), p.copied(), who, now));
                }
                committing[0] = true;
            });
            return new Created(claim, List.copyOf(added), refused);
        } catch (RuntimeException e) {
            if (!committing[0]) {
                ready.stream().filter(p -> p.copied() != null).forEach(p -> discardUnlessNamed(p.copied()[0]));
            }
            throw e;
        }
    }

    /**
     * Every rule a reference is added by, before anything is written or copied: its kind, then its address or file,
     * then its title.
     */
    private static Checked checked(Draft draft) {
        EvidenceKind k = EvidenceRules.kind(draft.kind()).orThrow();
        if (draft.file() == null) {
            String address = EvidenceRules.url(draft.url()).orThrow();
            return new Checked(k, EvidenceRules.title(draft.title(), address).orThrow(), address, null);
        }
        EvidenceFiles.checkSource(draft.file());
        String name = EvidenceRules.title(draft.title(), draft.file().getFileName().toString()).orThrow();
        return new Checked(k, name, null, draft.file());
    }

    private Prepared prepare(Draft draft) {
        Checked c = checked(draft);
        return new Prepared(c.kind(), c.title(), c.url(), c.file(),
                c.file() == null ? null : new EvidenceFiles.Stored[] {files.copyIn(c.file())});
    }

    /** Writes an address reference of {@code claim}, held by the caller's transaction, and its audit entry. */
    private Evidence insertUrl(Handle h, Claim claim, EvidenceKind k, String name, String address, String who,
            Instant now) {
        long id = evidence.insertUrl(h, claim.claimId(), k, name, address, who, now);
        Map<String, Object> details = details(claim, id, k, name);
        details.put("url", address);
        audit.append(h, now, who, AuditActions.EVIDENCE_ADD, AuditActions.SUBJECT_CLAIM,
                Long.toString(claim.claimId()), null, Json.write(details));
        return evidence.find(h, id).orElseThrow();
    }

    /**
     * Writes a file reference of {@code claim} and its audit entry; the caller's transaction holds the claim and
     * {@link EvidenceStore#lockFiles}. {@code copied[0]} is copied again when it went meanwhile.
     */
    private Evidence insertFile(Handle h, Claim claim, EvidenceKind k, String name, Path file,
            EvidenceFiles.Stored[] copied, String who, Instant now) {
        if (!files.isThere(copied[0])) {
            // the copy found in the folder was removed by a failed add of the same content before this
            // transaction began; from here on no other add removes it until this one's row is in
            copied[0] = files.copyIn(file);
        }
        EvidenceFiles.Stored stored = copied[0];
        long id = evidence.insertFile(h, claim.claimId(), k, name, stored, who, now);
        Map<String, Object> details = details(claim, id, k, name);
        details.put("fileName", stored.originalName());
        details.put("sizeBytes", stored.sizeBytes());
        details.put("sha256", stored.sha256());
        audit.append(h, now, who, AuditActions.EVIDENCE_ADD, AuditActions.SUBJECT_CLAIM,
                Long.toString(claim.claimId()), null, Json.write(details));
        return evidence.find(h, id).orElseThrow();
    }

    /**
     * Removes a file this copy put in the folder, after a transaction that failed before its commit, when no
     * evidence row names it: the folder keeps one file per content, which another claim's row may name. The check and
     * the removal hold {@link EvidenceStore#lockFiles}: an add of the same content under way either has its row in
     * by then, or finds the file gone in its own transaction and copies it again. When the database cannot be asked,
     * the file stays; a file no row names is only space.
     */
    void discardUnlessNamed(EvidenceFiles.Stored stored) {
        if (!stored.created() || files.isShared()) {
            return;
        }
        try {
            database.inTransaction(h -> {
                evidence.lockFiles(h);
                if (!evidence.namesFile(h, stored.storedName())) {
                    files.discard(stored);
                }
                return null;
            });
        } catch (RuntimeException unknown) {
            // the file stays
        }
    }

    /** The claim, held until the transaction ends, if it may take evidence now. */
    private Claim editableClaim(Handle h, long claimId) {
        return editableClaim(h, claimId, true);
    }

    /** The claim if it may take evidence now; {@code hold}: held until the transaction ends (not in a read). */
    private Claim editableClaim(Handle h, long claimId, boolean hold) {
        Claim claim = (hold ? claims.findForUpdate(h, claimId) : claims.find(h, claimId))
                .orElseThrow(() -> new NotFoundException("no claim with id " + claimId));
        ClaimEditing.refuseIfNotEditable(h, claim);
        return claim;
    }

    private static Map<String, Object> details(Claim claim, long evidenceId, EvidenceKind kind, String title) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("claimNumber", claim.claimNumber());
        details.put("evidenceId", evidenceId);
        details.put("kind", kind.code());
        details.put("title", title);
        return details;
    }
}
