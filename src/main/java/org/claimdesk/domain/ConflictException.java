package org.claimdesk.domain;

/** Someone else changed the subject first (stale version, reused key with another request). */
public final class ConflictException extends ClaimDeskException {
    public ConflictException(String message) {
        super(message);
    }
}
