package org.claimdesk.delivery;

import java.time.Duration;
import java.util.Optional;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.SubmissionPayload;

/**
 * No state at all: what a workstation on a team database has when it names no state API. The office's claims
 * must not go to the simulated state there (it would accept them, and the claims would read as submitted to a
 * state that never received them), so a worker does not start on this adapter ({@link #refusal}) and a
 * reconciliation through it fails with the same reason.
 */
public final class StateNotSet implements StateAdapter {
    /** What the status bar shows as the destination. */
    public static final String ENDPOINT = "no state API set";

    private final String reason;

    /** @param reason why, and what sets the state's API: shown to staff when the worker or a lookup is refused */
    public StateNotSet(String reason) {
        this.reason = reason;
    }

    @Override
    public String endpoint() {
        return ENDPOINT;
    }

    @Override
    public boolean simulated() {
        return false;
    }

    @Override
    public Optional<String> refusal() {
        return Optional.of(reason);
    }

    @Override
    public StateAnswer submit(String idempotencyKey, SubmissionPayload payload, String payloadJson) {
        throw new ClaimDeskException(reason);
    }

    @Override
    public StateAnswer lookup(String idempotencyKey) {
        throw new ClaimDeskException(reason);
    }

    @Override
    public Duration maxCallDuration() {
        return Duration.ZERO;
    }
}
