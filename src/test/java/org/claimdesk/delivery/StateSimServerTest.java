package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.SubmissionPayload;
import org.claimdesk.store.Json;
import org.claimdesk.testing.StatePayloads;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The simulated state's refusals and its key policy as a client sees them over real HTTP on 127.0.0.1. */
class StateSimServerTest {
    private StateSimServer server;
    private final HttpClient client = HttpClient.newHttpClient();

    record Answer(int status, JsonNode body) {
        String text(String name) {
            JsonNode value = body.get(name);
            return value == null || value.isNull() ? null : value.asText();
        }
    }

    @BeforeEach
    void start() throws Exception {
        server = StateSimServer.start(new SimulatedState(SimulatedState.Config.reliable()),
                new InetSocketAddress("127.0.0.1", 0));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Answer post(String key, String body) throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/v1/submissions"))
                .header("Content-Type", "application/json").header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.headers().firstValue("Content-Type")).contains("application/json");
        return new Answer(response.statusCode(), Json.mapper().readTree(response.body()));
    }

    private void assertRefused(ObjectNode body, int status, String error, String field) throws Exception {
        Answer answer = post("key-" + error + "-" + field, body.toString());
        assertThat(answer.status()).as(answer.body().toString()).isEqualTo(status);
        assertThat(answer.text("error")).isEqualTo(error);
        assertThat(answer.text("field")).isEqualTo(field);
        assertThat(answer.text("message")).isNotBlank();
        assertThat(answer.text("caseId")).isNull();
    }

    @Test
    void eachRuleIsRefusedWithItsCodeAndItsField() throws Exception {
        ObjectNode missing = StatePayloads.valid(1);
        missing.remove("claimantName");
        assertRefused(missing, 400, "missing_field", "claimantName");
        assertRefused(StatePayloads.valid(2).put("holderId", "HLD"), 400, "invalid_field", "holderId");
        assertRefused(StatePayloads.valid(3).put("amountCents", 150_000), 400, "missing_field", "evidence.address");
        assertRefused(StatePayloads.valid(4).put("holderId", HolderRegistry.standard().unregisteredHolderId(4)), 422,
                "invalid_claim", "holderId");
        assertRefused(StatePayloads.valid(5).put("statePropertyId", PropertyLedger.paidPropertyId("CA", 5)), 422,
                "already_paid", "statePropertyId");
        String recorded = PropertyLedger.ownerRecordedPropertyId("CA", 6);
        String other = PropertyLedger.otherTaxIdLast4(PropertyLedger.ownerTaxIdLast4("CA", recorded).orElseThrow());
        assertRefused(StatePayloads.valid(6).put("statePropertyId", recorded).put("taxIdLast4", other), 422,
                "identity_mismatch", "taxIdLast4");

        Answer notJson = post("key-x", "claimId=7");
        assertThat(notJson.status()).isEqualTo(400);
        assertThat(notJson.text("error")).isEqualTo("invalid_body");
        assertThat(notJson.body().has("field")).as("no field is at fault").isFalse();
    }

    @Test
    void aReusedKeyWithAnotherBodyIsRefusedAndAReplayGetsTheFirstCaseId() throws Exception {
        String body = StatePayloads.valid(7).toString();
        Answer accepted = post("sub-7", body);
        assertThat(accepted.status()).isEqualTo(201);
        String caseId = accepted.text("caseId");
        assertThat(caseId).startsWith("CA-");

        Answer reused = post("sub-7", StatePayloads.valid(7).put("claimantName", "Maria García").toString());
        assertThat(reused.status()).isEqualTo(422);
        assertThat(reused.text("error")).isEqualTo("idempotency_key_reused");
        assertThat(reused.text("caseId")).isNull();

        Answer replay = post("sub-7", Json.write(Json.mapper().readTree(body)).replace(",", " ,\n "));
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.text("caseId")).isEqualTo(caseId);
        assertThat(server.state().acceptances()).containsEntry(7L, 1).hasSize(1);

        Answer duplicate = post("sub-7-again", body);
        assertThat(duplicate.status()).isEqualTo(409);
        assertThat(duplicate.text("error")).isEqualTo("duplicate_claim");
        assertThat(duplicate.text("caseId")).isEqualTo(caseId);

        HttpResponse<String> lookup = client.send(HttpRequest.newBuilder(
                URI.create(server.baseUrl() + "/v1/submissions/sub-7")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(lookup.statusCode()).isEqualTo(200);
        assertThat(Json.mapper().readTree(lookup.body()).get("caseId").asText()).isEqualTo(caseId);
    }

    @Test
    void aRefusedBodySentAgainIsRefusedTheSameWay() throws Exception {
        String body = StatePayloads.valid(8).put("statePropertyId", PropertyLedger.paidPropertyId("CA", 8)).toString();
        Answer first = post("sub-8", body);
        Answer again = post("sub-8", body);
        Answer newKey = post("sub-8-b", body);
        assertThat(first.status()).isEqualTo(422);
        assertThat(again).isEqualTo(first);
        assertThat(newKey).isEqualTo(first);
        assertThat(post("sub-8", StatePayloads.valid(8).toString()).text("error")).isEqualTo("idempotency_key_reused");
    }

    @Test
    void theHttpAdapterReadsTheFieldOfARefusal() {
        SubmissionPayload payload = new SubmissionPayload(9, "sub-9", "UPC-2026-000009", "CA", "40000009",
                "Wells Fargo Bank NA", "HLD-100200", "AC01", "OWNER", "Maria Garcia", "4567", 250_000, "2026-03-01");
        try (HttpStateAdapter adapter = new HttpStateAdapter(server.baseUrl(), Duration.ofSeconds(1),
                Duration.ofSeconds(2), null)) {
            StateAnswer answer = adapter.submit("sub-9", payload, Json.write(payload));
            assertThat(answer.outcome()).isEqualTo(AttemptOutcome.PERMANENT);
            assertThat(answer.httpStatus()).isEqualTo(400);
            assertThat(answer.field()).isEqualTo("evidence.address");
            assertThat(answer.message()).startsWith("400 missing_field: proof of address required: CA needs");
            StateAnswer accepted = adapter.submit("sub-9b", payload, Json.write(new SubmissionPayload(9, "sub-9b",
                    "UPC-2026-000009", "CA", "40000009", "Wells Fargo Bank NA", "HLD-100200", "AC01", "OWNER",
                    "Maria Garcia", "4567", 25_000, "2026-03-01")));
            assertThat(accepted.outcome()).isEqualTo(AttemptOutcome.DELIVERED);
            assertThat(accepted.field()).isNull();
        }
    }

    /**
     * The JDK's server is told to answer with TCP_NODELAY before the first server in the JVM is made (it reads the
     * switch once): without it every answer's body waited for the client's delayed acknowledgement of its headers,
     * 40 ms on Linux (docs/benchmarks.md, bench drain on a team database).
     */
    @Test
    void theJdkServerAnswersWithoutWaitingForTheClientsAcknowledgement() {
        assertThat(server).isNotNull();
        assertThat(System.getProperty(StateSimServer.NODELAY_PROPERTY)).isEqualTo("true");
    }
}
