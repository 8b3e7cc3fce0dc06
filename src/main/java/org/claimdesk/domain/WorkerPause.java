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

    /** The same pause: made by the same actor, for the same reason, at the same millisecond. */
    public boolean sameAs(WorkerPause other) {
        return other != null && actor.equals(other.actor) && reason.equals(other.reason)
                && at.toEpochMilli() == other.at.toEpochMilli();
    }
}
