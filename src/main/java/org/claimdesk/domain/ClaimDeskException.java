package org.claimdesk.domain;

/**
 * A refused operation whose message is fit to show a member of staff as it is: one sentence that
 * says what was refused and why. Anything else that escapes is a defect.
 */
public class ClaimDeskException extends RuntimeException {
    public ClaimDeskException(String message) {
        super(message);
    }

    public ClaimDeskException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * The refusal as a log line may hold it: the message, unless it repeats personal data staff see on screen (a
     * claimant's name), which the log does not keep.
     */
    public String forLog() {
        return getMessage();
    }
}
