package org.claimdesk.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * A pause of the delivery worker by staff: who paused it, when and why. It holds until staff resume the
 * worker, across restarts of the console.
 */
public record WorkerPause(String actor, Instant at, String reason) {
    public WorkerPause {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(reason, "reason");
    }
}
