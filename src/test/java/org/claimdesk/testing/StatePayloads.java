package org.claimdesk.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.claimdesk.delivery.PropertyLedger;
import org.claimdesk.store.Json;

/** Submission bodies for the simulated state: one that passes every rule, for tests to break one at a time. */
public final class StatePayloads {
    private StatePayloads() {
    }

    /** A CA submission of claim {@code claimId} that the simulated state accepts. */
    public static ObjectNode valid(long claimId) {
        ObjectNode body = Json.mapper().createObjectNode();
        body.put("claimId", claimId);
        body.put("idempotencyKey", "sub-" + claimId);
        body.put("claimNumber", String.format("UPC-2026-%06d", claimId));
        body.put("jurisdiction", "CA");
        body.put("statePropertyId", PropertyLedger.openPropertyId("CA", claimId));
        body.put("holderName", "Wells Fargo Bank NA");
        body.put("holderId", "HLD-100200");
        body.put("propertyType", "AC01");
        body.put("claimType", "OWNER");
        body.put("claimantName", "Maria Garcia");
        body.put("taxIdLast4", "4567");
        body.put("amountCents", 12_345);
        body.put("filedOn", "2026-03-01");
        return body;
    }
}
