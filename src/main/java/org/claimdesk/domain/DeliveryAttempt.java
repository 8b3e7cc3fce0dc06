package org.claimdesk.domain;

import java.time.Instant;

/**
 * One delivery attempt and the state's answer to it.
 *
 * @param outcome the outcome class (see {@link AttemptOutcome})
 * @param detail the error or response text, at most {@link #MAX_DETAIL_CHARS} characters
 * @param field the submission field the state named as at fault (e.g. "holderId", "evidence.address"), or null
 */
public record DeliveryAttempt(
        long attemptId,
        long outboxEventId,
        int attemptNo,
        Instant startedAt,
        long durationMs,
        AttemptOutcome outcome,
        Integer httpStatus,
        String detail,
        String workerId,
        String field) {

    public static final int MAX_DETAIL_CHARS = 4096;

    public static String truncate(String text) {
        if (text == null || text.length() <= MAX_DETAIL_CHARS) {
            return text;
        }
        return text.substring(0, MAX_DETAIL_CHARS - 1) + "…";
    }
}
