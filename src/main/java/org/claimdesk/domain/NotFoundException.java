package org.claimdesk.domain;

public final class NotFoundException extends ClaimDeskException {
    public NotFoundException(String message) {
        super(message);
    }

    /** @param logText the refusal as the log keeps it, without what was typed (a tax id typed for a claim's number) */
    public NotFoundException(String message, String logText) {
        super(message, null, logText);
    }
}
