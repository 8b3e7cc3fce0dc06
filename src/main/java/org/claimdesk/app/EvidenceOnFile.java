package org.claimdesk.app;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.EvidenceCopy;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.EvidenceFiles;
import org.claimdesk.store.EvidenceStore;

/**
 * Before a claim is sent (submitted, resubmitted), the evidence files its submission names must be whole in the
 * evidence folder: the payload carries each file's SHA-256, and the office must be able to produce the document the
 * state may ask for. Each file is read and checked against its hash, outside any transaction. A team workstation
 * whose evidence folder is its own (no shared folder set) cannot see what other workstations added: nothing is
 * checked there, as doctor warns of that folder.
 */
final class EvidenceOnFile {
    private final Database database;
    private final Supplier<EvidenceFiles> files;
    private final EvidenceStore evidence = new EvidenceStore();
    private final ClaimStore claims = new ClaimStore();

    EvidenceOnFile(Database database, Supplier<EvidenceFiles> files) {
        this.database = database;
        this.files = files;
    }

    /** The evidence folder this workstation uses ({@code CLAIMDESK_EVIDENCE_DIR}, else the desk's own). */
    static EvidenceOnFile of(Database database) {
        return new EvidenceOnFile(database, () -> DataDirectory.evidenceFiles(database, null));
    }

    /**
     * Refuses, with nothing changed, when a file of claim {@code claimId}'s evidence is missing or damaged in the
     * folder: the sentence names the evidence (ids, kind, how) and what to do; the log's leaves out the titles. A
     * withdrawn reference is not sent, so its file is not looked at.
     */
    void requireWhole(long claimId, String doing) {
        List<Evidence> refs = Evidence.current(database.read(h -> evidence.forClaim(h, claimId))).stream()
                .filter(Evidence::isFile).toList();
        if (refs.isEmpty()) {
            return;
        }
        EvidenceFiles folder = files.get();
        if (database.onServer() && !folder.isShared()) {
            return;
        }
        List<String> said = new ArrayList<>();
        List<String> logged = new ArrayList<>();
        for (Evidence e : refs) {
            EvidenceCopy copy = folder.presence(e, true);
            if (copy == EvidenceCopy.MISSING || copy == EvidenceCopy.DAMAGED) {
                said.add("\"" + e.title() + "\" (" + e.kind().label() + ", evidence " + e.evidenceId() + ", "
                        + copy.word() + ")");
                logged.add("evidence " + e.evidenceId() + " (" + copy.word() + ")");
            }
        }
        if (said.isEmpty()) {
            return;
        }
        // the claim's number read only for the sentence: a claim whose files are whole costs one read
        String claimNumber = database.read(h -> claims.find(h, claimId)).map(Claim::claimNumber)
                .orElse("id " + claimId);
        String what = "claim " + claimNumber + " is not " + doing + ": ";
        String after = " in " + folder.folder() + "; put it back from the backup of the evidence folder, or add the"
                + " document again, then try again; nothing was queued";
        throw ClaimDeskException.withLogText(what + "its evidence file " + String.join(", ", said) + " is not whole"
                + after, what + String.join(", ", logged) + " not whole" + after);
    }
}
