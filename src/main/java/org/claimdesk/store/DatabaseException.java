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

    /**
     * The database's own sentence for {@code failure}: the first line of the innermost SQL exception's message in its
     * causes (never a class name), else of its own message.
     */
    public static String reasonOf(Throwable failure) {
        java.sql.SQLException server = null;
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLException sql) {
                server = sql;
            }
        }
        String message = server != null ? server.getMessage() : failure.getMessage();
        return String.valueOf(message).lines().findFirst().orElse(failure.toString());
    }
}
