package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.claimdesk.app.Queries;
import org.claimdesk.app.Workflow;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.claimdesk.testing.TestClaims;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The state's side of the key policy as the worker meets it over real HTTP: a key the state already judged
 * with another body is refused (422 idempotency_key_reused) and the row fails for good, never a second
 * acceptance; the same body again is a replay and the row is sent with the first case id.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class KeyPolicyOverHttpTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    Database db;
    StateSimServer sim;
    Queries queries;
    final HttpClient client = HttpClient.newHttpClient();

    @BeforeEach
    void open() throws Exception {
        db = TestDatabase.open(engine, dir);
        sim = StateSimServer.start(new SimulatedState(SimulatedState.Config.reliable()),
                new InetSocketAddress("127.0.0.1", 0));
        queries = new Queries(db, Clock.systemUTC());
    }

    @AfterEach
    void close() {
        sim.close();
        db.close();
    }

    /** Another client's POST under {@code key}, before the worker sends its row. */
    private JsonNode postElsewhere(String key, String body, int expectedStatus) throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(java.net.URI.create(sim.baseUrl() + "/v1/submissions"))
                .header("Content-Type", "application/json").header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(expectedStatus);
        return Json.mapper().readTree(response.body());
    }

    private OutboxEvent queued() {
        long claimId = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        long row = new Workflow(db, Clock.systemUTC(), Deadlines.statutory()).submit(claimId, "supervisor.kim", null)
                .outboxEventId();
        return queries.outboxEvent(row).orElseThrow();
    }

    private Drain.Summary drain() {
        try (HttpStateAdapter adapter = Workers.http(sim.baseUrl(), 2_000)) {
            return Drain.run(db, adapter, Workers.fast(), Deadlines.statutory(), Clock.systemUTC(), true,
                    Duration.ofSeconds(30), null);
        }
    }

    @Test
    void aKeyReusedWithAnotherBodyFailsTheRowForGoodAndAReplayIsSentWithTheFirstCaseId() throws Exception {
        OutboxEvent reused = queued();
        ObjectNode otherBody = (ObjectNode) Json.mapper().readTree(reused.payload());
        otherBody.put("claimantName", "Someone Else");
        postElsewhere(reused.idempotencyKey(), otherBody.toString(), 201);

        OutboxEvent replayed = queued();
        String firstCaseId = postElsewhere(replayed.idempotencyKey(), replayed.payload(), 201).get("caseId").asText();

        Drain.Summary summary = drain();

        assertThat(summary.sent()).isEqualTo(1);
        assertThat(summary.failed()).isEqualTo(1);

        OutboxEvent failed = queries.outboxEvent(reused.outboxEventId()).orElseThrow();
        assertThat(failed.deliveryState()).isEqualTo(DeliveryState.FAILED);
        assertThat(failed.lastError()).startsWith("422 idempotency_key_reused: this Idempotency-Key was first sent for claim "
                + reused.aggregateId() + " with a different body");
        assertThat(failed.stateCaseId()).isNull();
        assertThat(queries.attempts(failed.outboxEventId())).singleElement().satisfies(a -> {
            assertThat(a.outcome()).isEqualTo(AttemptOutcome.PERMANENT);
            assertThat(a.httpStatus()).isEqualTo(422);
            assertThat(a.field()).isNull();
        });
        Claim notAccepted = queries.claim(reused.aggregateId()).orElseThrow();
        assertThat(notAccepted.status()).isEqualTo(ClaimStatus.SUBMITTING);
        assertThat(notAccepted.stateCaseId()).isNull();
        assertThat(sim.state().postsFor(reused.idempotencyKey())).as("a permanent refusal is not retried").isEqualTo(2);

        OutboxEvent sent = queries.outboxEvent(replayed.outboxEventId()).orElseThrow();
        assertThat(sent.deliveryState()).isEqualTo(DeliveryState.SENT);
        assertThat(sent.stateCaseId()).isEqualTo(firstCaseId);
        assertThat(queries.attempts(sent.outboxEventId())).singleElement().satisfies(a -> {
            assertThat(a.outcome()).isEqualTo(AttemptOutcome.DELIVERED);
            assertThat(a.httpStatus()).isEqualTo(200);
        });
        Claim accepted = queries.claim(replayed.aggregateId()).orElseThrow();
        assertThat(accepted.status()).isEqualTo(ClaimStatus.SUBMITTED_TO_STATE);
        assertThat(accepted.stateCaseId()).isEqualTo(firstCaseId);

        // one acceptance per claim: the reused key's other body, and the replayed claim once
        assertThat(sim.state().acceptances()).containsEntry(reused.aggregateId(), 1)
                .containsEntry(replayed.aggregateId(), 1).hasSize(2);
    }
}
