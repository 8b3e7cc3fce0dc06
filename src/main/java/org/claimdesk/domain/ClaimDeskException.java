package org.claimdesk.domain;

/**
 * A refused operation whose message is fit to show a member of staff as it is: one sentence that
 * says what was refused and why. Anything else that escapes is a defect.
 */
public class ClaimDeskException extends RuntimeException {
    /** The refusal as the log keeps it; null when that is the message. */
    private final String logText;

    public ClaimDeskException(String message) {
        this(message, null, null);
    }

    public ClaimDeskException(String message, Throwable cause) {
        this(message, cause, null);
    }

    protected ClaimDeskException(String message, Throwable cause, String logText) {
        super(message, cause);
        this.logText = logText;
    }

    /** A refusal whose message shows personal data staff need on screen, and {@code logText} for the log without it. */
    public static ClaimDeskException withLogText(String message, String logText) {
        return new ClaimDeskException(message, null, logText);
    }

    /** As {@link #withLogText(String, String)}, caused by {@code cause}. */
    public static ClaimDeskException withLogText(String message, String logText, Throwable cause) {
        return new ClaimDeskException(message, cause, logText);
    }

    /**
     * The refusal as a log line may hold it: the message, unless it repeats personal data staff see on screen (a
     * claimant's name), which the log does not keep.
     */
    public String forLog() {
        return logText != null ? logText : getMessage();
    }
}
