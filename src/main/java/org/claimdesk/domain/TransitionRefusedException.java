package org.claimdesk.domain;

import java.util.Set;
import java.util.stream.Collectors;

/** A status change the transition table does not allow. */
public final class TransitionRefusedException extends ClaimDeskException {
    private final ClaimStatus from;
    private final ClaimStatus to;

    public TransitionRefusedException(ClaimStatus from, ClaimStatus to, Set<ClaimStatus> allowed) {
        super("cannot move a claim from " + from + " to " + to + "; allowed from " + from + ": "
                + (allowed.isEmpty() ? "none (final status)"
                        : allowed.stream().map(Enum::name).collect(Collectors.joining(", "))));
        this.from = from;
        this.to = to;
    }

    public ClaimStatus from() {
        return from;
    }

    public ClaimStatus to() {
        return to;
    }
}
