package org.claimdesk.app;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.Claim;
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
 * database ({@link DataDirectory#evidence}). Added in the statuses that allow editing, audited, never
 * changed afterwards. A file is copied and hashed before its row is written; if the row cannot be written
 * the copy is removed from a folder of one's own, so a refused or failed add leaves nothing behind there (the
 * office's shared folder keeps it: see {@link EvidenceFiles}).
 */
public final class ClaimEvidence {
    private final Database database;
    private final Clock clock;
    private final EvidenceFiles files;
    private final ClaimStore claims = new ClaimStore();
    private final EvidenceStore evidence = new EvidenceStore();
    private final AuditStore audit = new AuditStore();

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
        EvidenceKind k = EvidenceRules.kind(kind).orThrow();
        String address = EvidenceRules.url(url).orThrow();
        String name = EvidenceRules.title(title, address).orThrow();
        return database.inTransaction(h -> {
            Claim claim = editableClaim(h, claimId);
            Instant now = clock.instant();
            long id = evidence.insertUrl(h, claimId, k, name, address, who, now);
            Map<String, Object> details = details(claim, id, k, name);
            details.put("url", address);
            audit.append(h, now, who, AuditActions.EVIDENCE_ADD, AuditActions.SUBJECT_CLAIM, Long.toString(claimId),
                    null, Json.write(details));
            return evidence.find(h, id).orElseThrow();
        });
    }

    public Evidence addFile(long claimId, String kind, Path file, String title, String actor) {
        String who = Inputs.actor(actor);
        EvidenceKind k = EvidenceRules.kind(kind).orThrow();
        EvidenceFiles.checkSource(file);
        String name = EvidenceRules.title(title, file.getFileName().toString()).orThrow();
        // refuse a claim that cannot take evidence before copying anything
        database.read(h -> editableClaim(h, claimId, false));
        EvidenceFiles.Stored[] copied = {files.copyIn(file)};
        boolean[] committing = {false};
        try {
            return database.inTransaction(h -> {
                Claim claim = editableClaim(h, claimId);
                evidence.lockFiles(h);
                Instant now = clock.instant();
                if (!files.isThere(copied[0])) {
                    // the copy found in the folder was removed by a failed add of the same content before this
                    // transaction began; from here on no other add removes it until this one's row is in
                    copied[0] = files.copyIn(file);
                }
                EvidenceFiles.Stored stored = copied[0];
                long id = evidence.insertFile(h, claimId, k, name, stored, who, now);
                Map<String, Object> details = details(claim, id, k, name);
                details.put("fileName", stored.originalName());
                details.put("sizeBytes", stored.sizeBytes());
                details.put("sha256", stored.sha256());
                audit.append(h, now, who, AuditActions.EVIDENCE_ADD, AuditActions.SUBJECT_CLAIM,
                        Long.toString(claimId), null, Json.write(details));
                Evidence added = evidence.find(h, id).orElseThrow();
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
