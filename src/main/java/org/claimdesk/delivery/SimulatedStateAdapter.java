package org.claimdesk.delivery;

import java.time.Duration;
import org.claimdesk.domain.SubmissionPayload;

/**
 * The simulated state in process: the contract's answers without a network, after the configured latency.
 * The state judges the row's payload text, exactly the body an HTTP adapter would send.
 */
public final class SimulatedStateAdapter implements StateAdapter {
    public static final String ENDPOINT = "simulated state";

    private final SimulatedState state;

    public SimulatedStateAdapter(SimulatedState state) {
        this.state = state;
    }

    public SimulatedState state() {
        return state;
    }

    @Override
    public String endpoint() {
        return ENDPOINT;
    }

    @Override
    public boolean simulated() {
        return true;
    }

    @Override
    public StateAnswer submit(String idempotencyKey, SubmissionPayload payload, String payloadJson) {
        if (!pause()) {
            return StateAnswer.noAnswer("interrupted before the simulated state answered");
        }
        String token = state.config().token();
        SimulatedState.Reply reply = state.submit(idempotencyKey, token == null ? null : "Bearer " + token, payloadJson);
        return AnswerClassifier.submission(reply.status(), reply.body(), reply.json(), retryAfter(reply));
    }

    @Override
    public void prepare() {
        state.prepare();
        SimulatedState.Reply reply = new SimulatedState.Reply(201, "prepare", null, null, null);
        AnswerClassifier.submission(reply.status(), reply.body(), reply.json(), null);
    }

    @Override
    public StateAnswer lookup(String idempotencyKey) {
        if (!pause()) {
            return StateAnswer.noAnswer("interrupted before the simulated state answered");
        }
        String token = state.config().token();
        SimulatedState.Reply reply = state.lookup(idempotencyKey, token == null ? null : "Bearer " + token);
        return AnswerClassifier.lookup(reply.status(), reply.body(), reply.json(), retryAfter(reply));
    }

    @Override
    public Duration maxCallDuration() {
        return state.config().latency().plusMillis(50);
    }

    private static Duration retryAfter(SimulatedState.Reply reply) {
        return reply.retryAfterSeconds() == null ? null : Duration.ofSeconds(reply.retryAfterSeconds());
    }

    /** The simulated network latency; false when interrupted. */
    private boolean pause() {
        long millis = state.config().latency().toMillis();
        if (millis <= 0) {
            return true;
        }
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public String toString() {
        return "SimulatedStateAdapter[" + ENDPOINT + "]";
    }
}
