package org.claimdesk.delivery;

import java.time.Duration;
import org.claimdesk.domain.AttemptOutcome;

/**
 * The state's answer to one call, already classified.
 *
 * @param httpStatus null when no HTTP answer came (timeout, connection lost or refused)
 * @param caseId the state's case id, for a delivered submission or a found lookup
 * @param message one line for staff and for {@code last_error}, e.g. "422 invalid_claim: holder id not found"
 * @param response the state's response text (capped), or null
 * @param retryAfter the state's Retry-After, or null
 * @param unreachable true when no connection could be opened at all
 * @param field the submission field the state named as at fault (e.g. "holderId", "evidence.address"), or null
 */
public record StateAnswer(
        AttemptOutcome outcome,
        Integer httpStatus,
        String caseId,
        String message,
        String response,
        Duration retryAfter,
        boolean unreachable,
        String field) {

    /**
     * The state's texts as a database can keep them: a NUL character (raw, or escaped in the JSON as U+0000), which
     * PostgreSQL's text cannot hold, stands as U+FFFD. Kept as it came, it failed every write of the attempt, so the
     * row went out again and again with no attempt recorded.
     */
    public StateAnswer {
        message = keepable(message);
        response = keepable(response);
        field = keepable(field);
    }

    static String keepable(String text) {
        return text == null || text.indexOf('\0') < 0 ? text : text.replace('\0', '\uFFFD');
    }

    public StateAnswer(AttemptOutcome outcome, Integer httpStatus, String caseId, String message, String response,
            Duration retryAfter, boolean unreachable) {
        this(outcome, httpStatus, caseId, message, response, retryAfter, unreachable, null);
    }

    public static StateAnswer unreachable(String message) {
        return new StateAnswer(AttemptOutcome.SYSTEMIC, null, null, message, null, null, true);
    }

    public static StateAnswer noAnswer(String message) {
        return new StateAnswer(AttemptOutcome.TRANSIENT, null, null, message, null, null, false);
    }

    /** For a lookup: the state does not know the key. */
    public boolean notFound() {
        return httpStatus != null && httpStatus == 404 && outcome == AttemptOutcome.PERMANENT;
    }

    /** The text kept with the attempt: the one-line message, then the response when there was one. */
    public String attemptDetail() {
        return response == null || response.isBlank() ? message : message + "\nresponse: " + response;
    }
}
