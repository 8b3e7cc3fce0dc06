package org.claimdesk.app;

import org.claimdesk.domain.ClaimStatus;

/**
 * What {@link Workflow#advance} did.
 *
 * @param replayed true when the request key had been used before and nothing changed this time
 */
public record AdvanceResult(long claimId, String claimNumber, ClaimStatus from, ClaimStatus to, long version,
        boolean replayed) {
}
