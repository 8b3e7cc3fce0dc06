package org.claimdesk.testing;

import java.time.Duration;
import java.util.Set;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.delivery.StateAdapter;
import org.claimdesk.delivery.StateAnswer;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.SubmissionPayload;
import org.claimdesk.store.Database;

/**
 * The in-process simulated state with one rule judged by content: a holder id it does not know is refused for
 * good (422 invalid_claim, field holderId), the same payload the same way every time; every other submission
 * goes to the simulated state.
 */
public final class HolderRegistryState implements StateAdapter {
    public static final String UNKNOWN_HOLDER = "HLD-UNKNOWN";
    public static final String REFUSAL = "422 invalid_claim: holder id not found in the state's holder registry";

    private final SimulatedStateAdapter state = new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable()));
    private final Set<String> unknown = Set.of(UNKNOWN_HOLDER);

    @Override
    public String endpoint() {
        return state.endpoint();
    }

    @Override
    public boolean simulated() {
        return true;
    }

    @Override
    public StateAnswer submit(String idempotencyKey, SubmissionPayload payload, String payloadJson) {
        if (unknown.contains(payload.holderId())) {
            return new StateAnswer(AttemptOutcome.PERMANENT, 422, null, REFUSAL,
                    "{\"error\":\"invalid_claim\",\"field\":\"holderId\",\"message\":\"holder id not found\"}", null, false);
        }
        return state.submit(idempotencyKey, payload, payloadJson);
    }

    @Override
    public StateAnswer lookup(String idempotencyKey) {
        return state.lookup(idempotencyKey);
    }

    @Override
    public Duration maxCallDuration() {
        return state.maxCallDuration();
    }

    /** Sets a claim's holder id the way a correction does, with the test's own SQL (claim editing is not the subject). */
    public static void setHolderId(Database db, long claimId, String holderId) {
        db.useTransaction(h -> h.createUpdate(
                "UPDATE claim SET holder_id = :holder, version = version + 1 WHERE claim_id = :id")
                .bind("holder", holderId).bind("id", claimId).execute());
    }
}
