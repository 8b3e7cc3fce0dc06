package org.claimdesk.delivery;

import java.time.Duration;
import java.util.Optional;
import org.claimdesk.domain.SubmissionPayload;

/**
 * The state's submission API as ClaimDesk's contract defines it ({@code resources/state-api.yaml}).
 * Implementations classify every answer into a {@link StateAnswer}; they never throw for what the
 * state or the network does.
 */
public interface StateAdapter extends AutoCloseable {

    /** What staff see as the destination: "simulated state" or the API's base URL. */
    String endpoint();

    /** True for the simulated state: every screen and CLI output says so. */
    boolean simulated();

    /**
     * Why nothing can be delivered through this adapter, when nothing can ({@link StateNotSet}): a worker does not
     * start on it. Empty for a state that answers.
     */
    default Optional<String> refusal() {
        return Optional.empty();
    }

    /** POST /v1/submissions under {@code idempotencyKey}; {@code payloadJson} is the body as queued. */
    StateAnswer submit(String idempotencyKey, SubmissionPayload payload, String payloadJson);

    /** GET /v1/submissions/{key}: delivered with the case id when the state has it, 404 when not. */
    StateAnswer lookup(String idempotencyKey);

    /** The longest one call may take; the worker only starts a call its lease outlives. */
    Duration maxCallDuration();

    /**
     * Loads and builds what reading the first answer needs, so that the senders do not all do it at once
     * when a drain starts. The worker calls it once, on a thread of its own, when it is made.
     */
    default void prepare() {
        String sample = "{\"caseId\":\"prepare\"}";
        AnswerClassifier.submission(201, AnswerClassifier.Body.parse(sample), sample, null);
    }

    @Override
    default void close() {
    }
}
