package org.claimdesk.domain;

import java.time.Instant;

/**
 * Failed outbox rows that share one {@link ErrorSignature}.
 *
 * @param sampleError the most recent full error text of the group
 * @param firstSeen when the oldest row of the group last changed (its failure)
 * @param lastSeen when the newest row of the group failed
 */
public record FailureGroup(String signature, int count, Instant firstSeen, Instant lastSeen, String sampleError) {
}
