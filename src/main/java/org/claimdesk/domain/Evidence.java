package org.claimdesk.domain;

import java.time.Instant;

/**
 * One evidence reference of a claim: a web address, or a file copied into ClaimDesk's evidence folder
 * (kept under {@code storedName}, recorded by its original name, size and SHA-256).
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
        Instant addedAt) {

    public boolean isFile() {
        return storedName != null;
    }

    /** Where it is: the address, or the original file name. */
    public String source() {
        return isFile() ? fileName : url;
    }
}
