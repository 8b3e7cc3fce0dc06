package org.claimdesk.store;

import org.claimdesk.domain.ClaimDeskException;

/** The database file cannot be used as it is; the message says why and what to do. */
public class DatabaseException extends ClaimDeskException {
    public DatabaseException(String message) {
        super(message);
    }

    public DatabaseException(String message, Throwable cause) {
        super(message, cause);
    }
}
