package org.claimdesk.app;

import org.claimdesk.domain.Claim;
import org.claimdesk.domain.SubmissionPayload;
import org.claimdesk.store.EvidenceStore;
import org.claimdesk.store.Json;
import org.jdbi.v3.core.Handle;

/**
 * What the state is sent for a claim: its fields and its evidence references as they stand on the
 * caller's transaction. Queueing a claim, resubmitting it and comparing it with a refused row all build
 * the payload here, so "the claim's payload" means one thing.
 */
final class Submissions {
    private static final EvidenceStore EVIDENCE = new EvidenceStore();

    private Submissions() {
    }

    /**
     * A claim that holds a case id when it is queued had that case decided (rejected) and was amended: its submission
     * names that case ({@link SubmissionPayload#amends}), for the state to judge it as a new filing.
     */
    static SubmissionPayload payload(Handle h, Claim claim, String idempotencyKey) {
        return payload(claim, EVIDENCE.forClaim(h, claim.claimId()), idempotencyKey);
    }

    /** As {@link #payload(Handle, Claim, String)}, with the claim's evidence references already read. */
    static SubmissionPayload payload(Claim claim, java.util.List<org.claimdesk.domain.Evidence> evidence,
            String idempotencyKey) {
        return SubmissionPayload.of(claim, evidence, idempotencyKey).amending(claim.stateCaseId());
    }

    static String json(Handle h, Claim claim, String idempotencyKey) {
        return Json.write(payload(h, claim, idempotencyKey));
    }
}
