package org.claimdesk.delivery;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectReader;
import java.time.Instant;
import org.claimdesk.domain.SubmissionPayload;
import org.claimdesk.store.Json;
import org.claimdesk.store.LeasedRow;

/** Reads a submission row's payload and says in one phrase what is wrong with it, if anything. */
final class PayloadCheck {
    /** Built once: making the payload's deserializer is costly, and every sender would otherwise make its own. */
    private static final ObjectReader READER = Json.mapper().readerFor(SubmissionPayload.class);

    private PayloadCheck() {
    }

    /** Reads one payload through the whole path, so that its classes are loaded before the first delivery. */
    static void prepare() {
        SubmissionPayload sample = new SubmissionPayload(1, "prepare", "UPC-0", "CA", "1", "holder", "HLD-1", "AC01",
                "OWNER", "claimant", "0000", 1, "2026-01-01");
        check(new LeasedRow(1, 1, "prepare", Json.write(sample), "prepare", 0, 0, Instant.EPOCH, "CA"));
    }

    record Result(SubmissionPayload payload, String error) {
    }

    static Result check(LeasedRow row) {
        SubmissionPayload payload;
        try {
            payload = READER.readValue(row.payload());
        } catch (JsonProcessingException e) {
            return new Result(null, "the payload is not a submission in JSON (" + firstLine(e.getOriginalMessage()) + ")");
        } catch (IllegalArgumentException e) {
            return new Result(null, "the payload is not a submission in JSON (" + firstLine(e.getMessage()) + ")");
        }
        if (payload == null) {
            return new Result(null, "the payload is empty");
        }
        if (payload.claimId() != row.claimId()) {
            return new Result(null, "the payload names claim " + payload.claimId() + " but the row belongs to claim "
                    + row.claimId());
        }
        if (payload.idempotencyKey() != null && !payload.idempotencyKey().equals(row.idempotencyKey())) {
            return new Result(null, "the payload's idempotency key differs from the row's");
        }
        if (blank(payload.claimNumber()) || blank(payload.jurisdiction()) || blank(payload.statePropertyId())) {
            return new Result(null, "the claim number, jurisdiction and state property id are required");
        }
        return new Result(payload, null);
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "unreadable";
        }
        int end = text.indexOf('\n');
        String line = end < 0 ? text : text.substring(0, end);
        return line.length() > 160 ? line.substring(0, 159) + "…" : line;
    }
}
