package org.claimdesk.domain;

public final class NotFoundException extends ClaimDeskException {
    public NotFoundException(String message) {
        super(message);
    }
}
