package org.claimdesk.store;

import java.time.Instant;
import java.util.List;
import org.claimdesk.domain.EvidenceKind;
import org.claimdesk.domain.Evidence;
import org.jdbi.v3.core.Handle;

/**
 * SQL for the {@code evidence} table. Rows are added, then at most withdrawn once (who, when, why); never changed
 * otherwise, never deleted.
 */
public final class EvidenceStore {

    /** A web address. */
    public long insertUrl(Handle handle, long claimId, EvidenceKind kind, String title, String url, String addedBy,
            Instant at) {
        return insert(handle, claimId, kind, title, url, null, null, addedBy, at);
    }

    /** A file already in the evidence folder under {@code file.storedName()}. */
    public long insertFile(Handle handle, long claimId, EvidenceKind kind, String title, EvidenceFiles.Stored file,
            String addedBy, Instant at) {
        return insert(handle, claimId, kind, title, null, file.originalName(), file, addedBy, at);
    }

    private long insert(Handle handle, long claimId, EvidenceKind kind, String title, String url, String fileName,
            EvidenceFiles.Stored file, String addedBy, Instant at) {
        return handle.createUpdate("""
                INSERT INTO evidence (claim_id, kind, title, url, file_name, stored_name, size_bytes, sha256, added_by,
                    added_at)
                VALUES (:claimId, :kind, :title, :url, :fileName, :storedName, :size, :sha256, :addedBy, :at)
                """)
                .bind("claimId", claimId)
                .bind("kind", kind.code())
                .bind("title", title)
                .bind("url", url)
                .bind("fileName", fileName)
                .bind("storedName", file == null ? null : file.storedName())
                .bind("size", file == null ? null : file.sizeBytes())
                .bind("sha256", file == null ? null : file.sha256())
                .bind("addedBy", addedBy)
                .bind("at", at.toEpochMilli())
                .executeAndReturnGeneratedKeys("evidence_id")
                .mapTo(Long.class)
                .one();
    }

    /**
     * Marks the reference withdrawn; false when it is not there or was withdrawn already (the row is left as it was).
     */
    public boolean withdraw(Handle handle, long evidenceId, String by, Instant at, String reason) {
        return handle.createUpdate("""
                UPDATE evidence SET withdrawn_by = :by, withdrawn_at = :at, withdrawn_reason = :reason
                WHERE evidence_id = :id AND withdrawn_at IS NULL""")
                .bind("id", evidenceId)
                .bind("by", by)
                .bind("at", at.toEpochMilli())
                .bind("reason", reason)
                .execute() == 1;
    }

    /** The claim's references, withdrawn ones among them, oldest first. */
    public List<Evidence> forClaim(Handle handle, long claimId) {
        return handle.createQuery("SELECT * FROM evidence WHERE claim_id = :id ORDER BY evidence_id")
                .bind("id", claimId).map(Rows.EVIDENCE).list();
    }

    /**
     * The references of each of {@code claimIds} in one read, as {@link #forClaim} gives them (every listed claim
     * present, with no reference an empty list): a preview of thousands of rows reads them a chunk at a time.
     */
    public java.util.Map<Long, List<Evidence>> forClaims(Handle handle, java.util.Collection<Long> claimIds) {
        java.util.Map<Long, List<Evidence>> byClaim = new java.util.HashMap<>();
        claimIds.forEach(id -> byClaim.put(id, new java.util.ArrayList<>()));
        if (claimIds.isEmpty()) {
            return byClaim;
        }
        handle.createQuery("SELECT * FROM evidence WHERE " + Dialect.of(handle).inList("claim_id", "ids", true)
                        + " ORDER BY claim_id, evidence_id")
                .bind("ids", Json.write(List.copyOf(new java.util.LinkedHashSet<>(claimIds))))
                .map(Rows.EVIDENCE).forEach(e -> byClaim.get(e.claimId()).add(e));
        return byClaim;
    }

    public java.util.Optional<Evidence> find(Handle handle, long evidenceId) {
        return handle.createQuery("SELECT * FROM evidence WHERE evidence_id = :id")
                .bind("id", evidenceId).map(Rows.EVIDENCE).findOne();
    }

    /** How many distinct files the evidence rows name, and their bytes. */
    public record FileTally(long files, long bytes) {
    }

    /** The files the evidence rows name: each stored file counted once. */
    public FileTally fileTally(Handle handle) {
        return handle.createQuery("""
                SELECT count(*) AS files, coalesce(sum(size_bytes), 0) AS bytes FROM (
                    SELECT stored_name, max(size_bytes) AS size_bytes FROM evidence WHERE stored_name IS NOT NULL
                    GROUP BY stored_name) f""")
                .map((rs, ctx) -> new FileTally(rs.getLong("files"), rs.getLong("bytes"))).one();
    }

    /** The newest {@code limit} file references, newest first. */
    public List<Evidence> newestFiles(Handle handle, int limit) {
        return handle.createQuery("SELECT * FROM evidence WHERE stored_name IS NOT NULL ORDER BY evidence_id DESC"
                + " LIMIT :limit").bind("limit", limit).map(Rows.EVIDENCE).list();
    }

    /**
     * Makes the caller's transaction the only one, among those that call this, to record or remove evidence files
     * until it ends: on SQLite every write transaction already is (IMMEDIATE); on a team database an advisory lock.
     * An add recording a copy it found in the folder and a failed add removing the copy it made take it, so that the
     * removal's check that no row names the file and the add's check that the file is there do not interleave.
     */
    public void lockFiles(Handle handle) {
        Dialect.of(handle).serialize(handle, "claimdesk.evidence-files");
    }

    /** Whether an evidence row names the stored file {@code storedName} (files are stored by their content). */
    public boolean namesFile(Handle handle, String storedName) {
        return handle.createQuery("SELECT count(*) FROM evidence WHERE stored_name = :name")
                .bind("name", storedName).mapTo(Long.class).one() > 0;
    }
}
