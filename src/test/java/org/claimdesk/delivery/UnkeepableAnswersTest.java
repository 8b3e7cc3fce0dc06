package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import org.claimdesk.app.Queries;
import org.claimdesk.app.Workflow;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.claimdesk.testing.TestClaims;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Answers a database could not keep as they came: a NUL character (which PostgreSQL's text cannot hold) and a case
 * id of thousands of characters (past an index entry's limit). Each attempt is recorded and the rows end where staff
 * find them, instead of every write of their outcome failing and the rows going out again for ever.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class UnkeepableAnswersTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    @Test
    void aNulInARefusalAndACaseIdNoClaimCanKeepAreRecordedAndTheRowsEndFailed() throws Exception {
        String longCaseId = "CA-" + "9".repeat(5_000);
        HttpServer state = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        state.setExecutor(Executors.newCachedThreadPool());
        state.createContext("/", exchange -> {
            JsonNode sent = Json.mapper().readTree(exchange.getRequestBody());
            String body = sent.path("claimNumber").asText().equals(nulClaim[0])
                    ? "{\"error\":\"invalid_claim\",\"field\":\"holder\\u0000Id\",\"message\":\"holder id \\u0000 unknown\"}"
                    : "{\"caseId\":\"" + longCaseId + "\"}";
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(body.startsWith("{\"error\"") ? 422 : 201, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        state.start();
        try (Database db = TestDatabase.open(engine, dir);
             HttpStateAdapter adapter = Workers.http(URI.create("http://127.0.0.1:" + state.getAddress().getPort()),
                     2_000)) {
            long refused = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
            long accepted = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
            Queries queries = new Queries(db, Clock.systemUTC());
            nulClaim[0] = queries.claim(refused).orElseThrow().claimNumber();
            Workflow workflow = new Workflow(db, Clock.systemUTC(), Deadlines.statutory());
            long refusedRow = workflow.submit(refused, "s.patel", null).outboxEventId();
            long acceptedRow = workflow.submit(accepted, "s.patel", null).outboxEventId();

            // a workstation in France records what one in the US does: one state fault, one failure group
            Locale workstation = Locale.getDefault();
            Locale.setDefault(Locale.FRANCE);
            Drain.Summary summary;
            try {
                summary = Drain.run(db, adapter, Workers.fast(), Deadlines.statutory(), Clock.systemUTC(),
                        true, Duration.ofSeconds(60), null);
            } finally {
                Locale.setDefault(workstation);
            }

            assertThat(summary.failed()).isEqualTo(2);
            OutboxEvent refusedEvent = queries.outboxEvent(refusedRow).orElseThrow();
            assertThat(refusedEvent.deliveryState()).isEqualTo(DeliveryState.FAILED);
            assertThat(refusedEvent.lastError()).isEqualTo("422 invalid_claim: holder id \uFFFD unknown");
            assertThat(queries.attempts(refusedRow)).singleElement().satisfies(a -> {
                assertThat(a.outcome()).isEqualTo(AttemptOutcome.PERMANENT);
                assertThat(a.field()).isEqualTo("holder\uFFFDId");
            });

            OutboxEvent acceptedEvent = queries.outboxEvent(acceptedRow).orElseThrow();
            assertThat(acceptedEvent.deliveryState()).isEqualTo(DeliveryState.FAILED);
            assertThat(acceptedEvent.lastError()).isEqualTo("201: the state holds the submission but sent a case id"
                    + " ClaimDesk cannot keep (5,003 characters) (gave up after " + Workers.fast().maxAttempts()
                    + " attempts)");
            List<DeliveryAttempt> attempts = queries.attempts(acceptedRow);
            assertThat(attempts).hasSize(Workers.fast().maxAttempts())
                    .allSatisfy(a -> assertThat(a.outcome()).isEqualTo(AttemptOutcome.TRANSIENT));
            assertThat(queries.claim(accepted).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTING);
        } finally {
            state.stop(0);
        }
    }

    private final String[] nulClaim = new String[1];
}
