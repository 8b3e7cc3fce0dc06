package org.claimdesk.app;

import org.claimdesk.domain.ClaimDeskException;

/** Checks on what staff type before anything is written. */
final class Inputs {
    static final int MAX_ACTOR = 100;
    static final int MAX_REASON = 2000;
    static final int MAX_KEY = 200;

    private Inputs() {
    }

    static String actor(String actor) {
        if (actor == null || actor.isBlank()) {
            throw new ClaimDeskException("an actor name is required");
        }
        String trimmed = actor.strip();
        if (trimmed.length() > MAX_ACTOR) {
            throw new ClaimDeskException("the actor name is longer than " + MAX_ACTOR + " characters");
        }
        return trimmed;
    }

    static String reason(String reason, boolean required) {
        if (reason == null || reason.isBlank()) {
            if (required) {
                throw new ClaimDeskException("a reason is required for this action");
            }
            return null;
        }
        String trimmed = reason.strip();
        if (trimmed.length() > MAX_REASON) {
            throw new ClaimDeskException("the reason is longer than " + MAX_REASON + " characters");
        }
        return trimmed;
    }

    static String key(String key) {
        if (key == null || key.isBlank()) {
            return null;
        }
        String trimmed = key.strip();
        if (trimmed.length() > MAX_KEY) {
            throw new ClaimDeskException("the request key is longer than " + MAX_KEY + " characters");
        }
        return trimmed;
    }
}
