package org.claimdesk.domain;

/** Someone else changed the subject first (stale version, reused key with another request). */
public final class ConflictException extends ClaimDeskException {
    public ConflictException(String message) {
        super(message);
    }

    /** A conflict whose message names what staff need on screen, and {@code logText} for the log without it. */
    public ConflictException(String message, String logText) {
        super(message, null, logText);
    }
}
