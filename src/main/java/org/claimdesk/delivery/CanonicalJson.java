package org.claimdesk.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.claimdesk.store.Json;
import org.claimdesk.domain.Sha256;

/**
 * The canonical form of a JSON body, so that two bodies that mean the same (keys in another order,
 * other spacing, 100 written as 100.0) compare equal: object keys sorted, numbers in plain decimal
 * without trailing zeros, strings escaped as JSON writes them; and the SHA-256 of that text.
 */
final class CanonicalJson {
    private CanonicalJson() {
    }

    static String text(JsonNode node) {
        StringBuilder out = new StringBuilder();
        write(node, out);
        return out.toString();
    }

    /** SHA-256 of the canonical text, in hex. */
    static String sha256(JsonNode node) {
        return Sha256.hexOf(text(node));
    }

    private static void write(JsonNode node, StringBuilder out) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            out.append("null");
        } else if (node.isObject()) {
            List<String> names = new ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            names.sort(null);
            out.append('{');
            for (int i = 0; i < names.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                out.append(Json.write(names.get(i))).append(':');
                write(node.get(names.get(i)), out);
            }
            out.append('}');
        } else if (node.isArray()) {
            out.append('[');
            for (int i = 0; i < node.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(node.get(i), out);
            }
            out.append(']');
        } else if (node.isNumber()) {
            out.append(node.decimalValue().stripTrailingZeros().toPlainString());
        } else if (node.isBoolean()) {
            out.append(node.booleanValue());
        } else {
            out.append(Json.write(node.asText()));
        }
    }
}
