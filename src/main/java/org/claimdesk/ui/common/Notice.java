package org.claimdesk.ui.common;

import java.util.concurrent.CompletionException;
import org.claimdesk.store.IoErrors;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.store.DatabaseException;

/** A one-line result shown to staff after an action: what happened, or what went wrong and what to do. */
public record Notice(Kind kind, String text) {

    /** A notice's text names the shortcut key as staff's keyboard does ({@link Keys}). */
    public Notice {
        text = Keys.say(text);
    }

    public enum Kind {
        INFO, SUCCESS, WARNING, ERROR
    }

    public static Notice info(String text) {
        return new Notice(Kind.INFO, text);
    }

    public static Notice success(String text) {
        return new Notice(Kind.SUCCESS, text);
    }

    public static Notice warning(String text) {
        return new Notice(Kind.WARNING, text);
    }

    /** An error in words staff can act on; unexpected failures point to the log. */
    public static Notice error(String doing, Throwable e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof ClaimDeskException || cause instanceof DatabaseException
                || cause instanceof IllegalArgumentException) {
            return new Notice(Kind.ERROR, "Could not " + doing + ": " + cause.getMessage());
        }
        if (cause instanceof java.io.UncheckedIOException unchecked) {
            return new Notice(Kind.ERROR, "Could not " + doing + ": " + IoErrors.describe(unchecked));
        }
        if (cause instanceof java.io.IOException io) {
            return new Notice(Kind.ERROR, "Could not " + doing + ": " + IoErrors.describe(io));
        }
        return new Notice(Kind.ERROR, "Could not " + doing + ": unexpected " + cause.getClass().getSimpleName()
                + (cause.getMessage() == null ? "" : " (" + cause.getMessage() + ")") + "; details are in the log");
    }
}
