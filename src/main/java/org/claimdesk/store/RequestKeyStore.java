package org.claimdesk.store;

import java.time.Instant;
import java.util.Optional;
import org.claimdesk.domain.ClaimStatus;
import org.jdbi.v3.core.Handle;

/** SQL for {@code request_key}: the keys that make a staff request safe to send twice. Runs on the caller's handle. */
public final class RequestKeyStore {

    /** What a request key did the first time. */
    public record Used(String requestKey, long claimId, String operation, ClaimStatus from, ClaimStatus to,
            long resultVersion) {
    }

    /**
     * What {@code requestKey} did, if it was used. The key is held until the caller's transaction ends, so a second
     * request with the same key (a double click, a retried CLI call, another workstation) waits and then replays
     * the first instead of acting again.
     */
    public Optional<Used> find(Handle handle, String requestKey) {
        Dialect.of(handle).serialize(handle, "claimdesk.request-key:" + requestKey);
        return handle.createQuery("SELECT * FROM request_key WHERE request_key = :key")
                .bind("key", requestKey)
                .map((rs, ctx) -> new Used(rs.getString("request_key"), rs.getLong("claim_id"), rs.getString("operation"),
                        ClaimStatus.valueOf(rs.getString("from_status")), ClaimStatus.valueOf(rs.getString("target_status")),
                        rs.getLong("result_version")))
                .findOne();
    }

    public void remember(Handle handle, Used used, Instant now) {
        handle.createUpdate("""
                INSERT INTO request_key (request_key, claim_id, operation, target_status, from_status, result_version, at)
                VALUES (:key, :claimId, :operation, :to, :from, :version, :at)
                """)
                .bind("key", used.requestKey()).bind("claimId", used.claimId()).bind("operation", used.operation())
                .bind("to", used.to().name()).bind("from", used.from().name()).bind("version", used.resultVersion())
                .bind("at", now.toEpochMilli())
                .execute();
    }
}
