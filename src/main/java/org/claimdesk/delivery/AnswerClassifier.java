package org.claimdesk.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.store.Json;

/**
 * Sorts the state's answers into the delivery taxonomy, as the contract states it:
 * 201/200 and 409 duplicate_claim are delivered; 400/422 (missing_field, invalid_field, invalid_claim,
 * already_paid, identity_mismatch, idempotency_key_reused, any other 4xx) are permanent; 401/403 (and 404/405 on the
 * submission endpoint: no API at this address) are systemic; 408, 425, 429 and 5xx are transient.
 */
public final class AnswerClassifier {
    private AnswerClassifier() {
    }

    /** Longest {@code field} kept from an answer: a field name, not a document. */
    static final int MAX_FIELD_CHARS = 120;

    /**
     * The fields of a JSON answer ClaimDesk reads; any may be null.
     *
     * @param field the body field the state names as at fault
     */
    public record Body(String caseId, String error, String field, String message) {
        static final Body EMPTY = new Body(null, null, null, null);

        public Body(String caseId, String error, String message) {
            this(caseId, error, null, message);
        }

        public static Body parse(String text) {
            if (text == null || text.isBlank()) {
                return EMPTY;
            }
            try {
                JsonNode node = Json.mapper().readTree(text);
                if (node == null || !node.isObject()) {
                    return EMPTY;
                }
                return new Body(text(node, "caseId"), text(node, "error"), text(node, "field"), text(node, "message"));
            } catch (java.io.IOException e) {
                return EMPTY;
            }
        }

        private static String text(JsonNode node, String field) {
            JsonNode value = node.get(field);
            return value == null || value.isNull() ? null : value.asText();
        }
    }

    /** Longest case id kept: the state's ids are short ("CA-2026-100001"); a claim's row and index hold it. */
    static final int MAX_CASE_ID_CHARS = 100;

    /** An answer to POST /v1/submissions. */
    public static StateAnswer submission(int status, Body body, String response, Duration retryAfter) {
        String caseId = blankToNull(body.caseId());
        if (status >= 200 && status < 300) {
            // any 2xx (a gateway's 202 too): accepted, or not known to be, never a refusal
            if (caseId == null) {
                return answer(AttemptOutcome.TRANSIENT, status, null,
                        status + ": the state accepted the submission but sent no case id", response, null);
            }
            if (!keepable(caseId)) {
                return unkeepableCaseId(status, caseId, response);
            }
            String what = status == 201 ? "201 accepted" : status == 200 ? "200 replay of an accepted key"
                    : status + " accepted";
            return answer(AttemptOutcome.DELIVERED, status, caseId, what + ": case id " + caseId, response, null);
        }
        if (status == 409 && "duplicate_claim".equals(body.error()) && caseId != null) {
            if (!keepable(caseId)) {
                return unkeepableCaseId(status, caseId, response);
            }
            return answer(AttemptOutcome.DELIVERED, status, caseId,
                    "409 duplicate_claim: the state already holds this claim under another key; case id " + caseId,
                    response, null);
        }
        String line = line(status, body, response);
        String field = field(body.field());
        if (status == 401 || status == 403) {
            return refusal(AttemptOutcome.SYSTEMIC, status,
                    line + " (the state refuses ClaimDesk's credentials: check CLAIMDESK_STATE_TOKEN)", response, null,
                    field);
        }
        if (status == 404 || status == 405) {
            return refusal(AttemptOutcome.SYSTEMIC, status,
                    line + " (no submission API at this address: check the state API URL)", response, null, field);
        }
        // a replay that reached the state while its key's first request was still being judged: ask again later
        boolean inProgress = status == 409 && "request_in_progress".equals(body.error());
        if (inProgress || status == 408 || status == 425 || status == 429 || status >= 500 || status < 200
                || (status >= 300 && status < 400)) {
            return refusal(AttemptOutcome.TRANSIENT, status,
                    retryAfter == null ? line : line + " (Retry-After " + retryAfter.toSeconds() + " s)", response,
                    retryAfter, field);
        }
        return refusal(AttemptOutcome.PERMANENT, status, line, response, null, field);
    }

    /** The field an answer names, on one line and capped; null when it names none. */
    static String field(String text) {
        String value = blankToNull(text);
        if (value == null) {
            return null;
        }
        value = value.replaceAll("\\s+", " ");
        return value.length() > MAX_FIELD_CHARS ? value.substring(0, MAX_FIELD_CHARS - 1) + "…" : value;
    }

    /** An answer to GET /v1/submissions/{key}: delivered (found), permanent 404 (not found), or a failure. */
    public static StateAnswer lookup(int status, Body body, String response, Duration retryAfter) {
        String caseId = blankToNull(body.caseId());
        if (status == 200 && caseId != null && keepable(caseId)) {
            return answer(AttemptOutcome.DELIVERED, status, caseId, "200 the state holds this key: case id " + caseId,
                    response, null);
        }
        if (status == 404 && "not_found".equals(body.error())) {
            return answer(AttemptOutcome.PERMANENT, status, null, "404 the state does not hold this key", response, null);
        }
        String line = line(status, body, response);
        if (status == 404) {
            // not the contract's answer (a proxy's page, a wrong address): says nothing of the key
            return answer(AttemptOutcome.TRANSIENT, status, null, line + " (not the state's not_found answer: check the"
                    + " state API URL)", response, retryAfter);
        }
        if (status == 401 || status == 403) {
            return answer(AttemptOutcome.SYSTEMIC, status, null, line, response, null);
        }
        return answer(AttemptOutcome.TRANSIENT, status, null, line, response, retryAfter);
    }

    /** The longest wait a Retry-After is taken for, as seconds or as a date: a day. */
    static final Duration MAX_RETRY_AFTER = Duration.ofDays(1);

    /** Retry-After as delta-seconds or an HTTP date, at most {@link #MAX_RETRY_AFTER}; null when absent or unreadable. */
    public static Duration retryAfter(String header, Instant now) {
        if (header == null || header.isBlank()) {
            return null;
        }
        String value = header.strip();
        try {
            long seconds = Long.parseLong(value);
            return seconds < 0 ? null : Duration.ofSeconds(Math.min(seconds, MAX_RETRY_AFTER.toSeconds()));
        } catch (NumberFormatException notSeconds) {
            try {
                Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
                Duration wait = Duration.between(now, at);
                return wait.isNegative() ? Duration.ZERO : wait.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : wait;
            } catch (DateTimeParseException notDate) {
                return null;
            }
        }
    }

    private static String line(int status, Body body, String response) {
        StringBuilder line = new StringBuilder().append(status);
        if (body.error() != null) {
            line.append(' ').append(body.error());
        }
        if (body.message() != null) {
            line.append(": ").append(body.message());
        } else if (body.error() == null) {
            String reason = reasonPhrase(status);
            if (!reason.isEmpty()) {
                line.append(' ').append(reason);
            }
            if (response != null && !response.isBlank() && !response.strip().startsWith("{")) {
                String text = readable(response);
                line.append(": ").append(text.length() > 200 ? text.substring(0, 199) + "…" : text);
            }
        }
        return line.toString();
    }

    /** Plain text of an answer for a one-line message: an HTML page's title, or its text without tags. */
    static String readable(String response) {
        String text = response.strip();
        if (text.regionMatches(true, 0, "<!doctype html", 0, 14) || text.regionMatches(true, 0, "<html", 0, 5)) {
            java.util.regex.Matcher title = java.util.regex.Pattern.compile("(?is)<title[^>]*>(.*?)</title>").matcher(text);
            text = title.find() ? title.group(1) : text.replaceAll("(?is)<(script|style)[^>]*>.*?</\\1>", " ")
                    .replaceAll("<[^>]*>", " ");
            text = text.replace("&nbsp;", " ").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">");
        }
        return text.replaceAll("\\s+", " ").strip();
    }

    private static String reasonPhrase(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 408 -> "Request Timeout";
            case 409 -> "Conflict";
            case 422 -> "Unprocessable Entity";
            case 429 -> "Too Many Requests";
            case 500 -> "Internal Server Error";
            case 502 -> "Bad Gateway";
            case 503 -> "Service Unavailable";
            case 504 -> "Gateway Timeout";
            default -> "";
        };
    }

    private static StateAnswer answer(AttemptOutcome outcome, int status, String caseId, String message, String response,
            Duration retryAfter) {
        return new StateAnswer(outcome, status, caseId, message, response, retryAfter, false, null);
    }

    private static StateAnswer refusal(AttemptOutcome outcome, int status, String message, String response,
            Duration retryAfter, String field) {
        return new StateAnswer(outcome, status, null, message, response, retryAfter, false, field);
    }

    /** A case id a claim can keep: at most {@link #MAX_CASE_ID_CHARS} characters, none of them a control. */
    static boolean keepable(String caseId) {
        return caseId.length() <= MAX_CASE_ID_CHARS && caseId.chars().noneMatch(Character::isISOControl);
    }

    /**
     * The state holds the claim but named a case id no claim can keep: asked again under the same key it answers with
     * the case id it holds, so the row is tried again, its attempts counting toward its limit, and staff see why.
     */
    private static StateAnswer unkeepableCaseId(int status, String caseId, String response) {
        String why = caseId.length() > MAX_CASE_ID_CHARS ? String.format(Locale.ROOT, "%,d characters", caseId.length())
                : "a control character";
        return answer(AttemptOutcome.TRANSIENT, status, null, status + ": the state holds the submission but sent a"
                + " case id ClaimDesk cannot keep (" + why + ")", response, null);
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }
}
