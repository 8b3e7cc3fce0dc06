package org.claimdesk.ui.common;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.store.Json;

/**
 * An audit entry's details (the JSON the action wrote) in words for a table's cell: a field's change as "field: before
 * → after", a status change as its statuses' names, anything else as its values one after the other; the JSON itself
 * stays for the cell's tooltip, the exports and the CLI.
 */
public final class AuditDetails {
    /** The longest summary shown; the tooltip has the whole. */
    private static final int MAX = 200;

    private AuditDetails() {
    }

    /**
     * {@code details} in words; {@code withClaimNumber} false leaves out the claim's number (shown where the claim
     * itself is). Text that is not a JSON object is shown on one line as written.
     */
    public static String summary(String details, boolean withClaimNumber) {
        if (details == null || details.isBlank()) {
            return "";
        }
        JsonNode node;
        try {
            node = Json.mapper().readTree(details);
        } catch (JsonProcessingException e) {
            return Formats.oneLine(details, MAX);
        }
        if (node == null || !node.isObject()) {
            return Formats.oneLine(details, MAX);
        }
        if (node.hasNonNull("field")) {
            return Formats.oneLine(node.path("field").asText() + ": " + orDash(value(node.path("before")))
                    + " → " + orDash(value(node.path("after"))), MAX);
        }
        List<String> parts = new ArrayList<>();
        if (node.path("from").isTextual() && node.path("to").isTextual()) {
            parts.add(status(node.path("from").asText()) + " → " + status(node.path("to").asText()));
        }
        for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            String name = field.getKey();
            JsonNode value = field.getValue();
            if (!parts.isEmpty() && (name.equals("from") || name.equals("to"))
                    || !withClaimNumber && name.equals("claimNumber") || value.isNull()) {
                continue;
            }
            parts.add(name + " " + value(value));
        }
        return Formats.oneLine(String.join(", ", parts), MAX);
    }

    private static String status(String name) {
        try {
            return ClaimStatus.valueOf(name).label();
        } catch (IllegalArgumentException e) {
            return name;
        }
    }

    /** A value's text: a text or number as written, anything else as JSON; none for a missing or null value. */
    private static String value(JsonNode value) {
        return value.isMissingNode() || value.isNull() ? "" : value.isValueNode() ? value.asText() : value.toString();
    }

    private static String orDash(String text) {
        return text.isEmpty() ? "—" : text;
    }
}
