package org.claimdesk.domain;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One evidence reference of a claim: a web address, or a file copied into ClaimDesk's evidence folder
 * (kept under {@code storedName}, recorded by its original name, size and SHA-256). A reference added by mistake (the
 * wrong claim, the wrong document) is withdrawn, not deleted: it stays on the claim's record with who withdrew it, when
 * and why ({@code withdrawal}), its file stays in the folder, and it no longer counts — it is not sent to the state and
 * the evidence checklist does not see it.
 */
public record Evidence(
        long evidenceId,
        long claimId,
        EvidenceKind kind,
        String title,
        String url,
        String fileName,
        String storedName,
        Long sizeBytes,
        String sha256,
        String addedBy,
        Instant addedAt,
        Withdrawal withdrawal) {

    /** Who withdrew a reference, when and why. */
    public record Withdrawal(String by, Instant at, String reason) {
    }

    /** A reference as added, not withdrawn. */
    public Evidence(long evidenceId, long claimId, EvidenceKind kind, String title, String url, String fileName,
            String storedName, Long sizeBytes, String sha256, String addedBy, Instant addedAt) {
        this(evidenceId, claimId, kind, title, url, fileName, storedName, sizeBytes, sha256, addedBy, addedAt, null);
    }

    public boolean isFile() {
        return storedName != null;
    }

    public boolean isWithdrawn() {
        return withdrawal != null;
    }

    /** Where it is: the address, or the original file name. */
    public String source() {
        return isFile() ? fileName : url;
    }

    /** The references among {@code references} that count: not withdrawn, in their order. */
    public static List<Evidence> current(Collection<Evidence> references) {
        return references.stream().filter(e -> !e.isWithdrawn()).toList();
    }

    /** The ids of the references that count among {@code references}. */
    public static Set<Long> currentIds(Collection<Evidence> references) {
        return current(references).stream().map(Evidence::evidenceId).collect(Collectors.toSet());
    }

    /** The kinds on file by the references that count among {@code references}. */
    public static List<EvidenceKind> kindsOnFile(Collection<Evidence> references) {
        return current(references).stream().map(Evidence::kind).toList();
    }
}
