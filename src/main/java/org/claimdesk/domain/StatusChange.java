package org.claimdesk.domain;

import java.time.Instant;

/** One row of a claim's status history. */
public record StatusChange(long claimId, ClaimStatus fromStatus, ClaimStatus toStatus, String actor, String reason,
        Instant at) {
}
