package org.claimdesk.app;

/** What {@link Workflow#submit} did: the claim is SUBMITTING and this outbox row carries it. */
public record SubmitResult(long claimId, String claimNumber, long outboxEventId, String idempotencyKey,
        boolean replayed) {
}
