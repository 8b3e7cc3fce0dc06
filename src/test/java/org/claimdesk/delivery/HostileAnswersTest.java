package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.SubmissionPayload;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Answers no well-behaved state sends: each one becomes one readable line and an outcome class,
 * and the adapter never hangs past its timeout or throws.
 */
class HostileAnswersTest {
    private static final SubmissionPayload PAYLOAD = new SubmissionPayload(7, "key-7", "UPC-2026-000007", "CA",
            "12345678", "Holder", "HLD-1", "AC01", "OWNER", "Maria Garcia", "4567", 100, "2026-01-01");

    interface Handler {
        void handle(HttpExchange exchange) throws Exception;
    }

    private HttpServer server;

    private HttpStateAdapter serve(Handler handler, long requestTimeoutMs) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", exchange -> {
            try {
                exchange.getRequestBody().readAllBytes();
                handler.handle(exchange);
            } catch (Exception e) {
                // The client hung up: nothing to answer.
            } finally {
                exchange.close();
            }
        });
        server.start();
        return new HttpStateAdapter(URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
                Duration.ofSeconds(1), Duration.ofMillis(requestTimeoutMs), null);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private static void reply(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Test
    void aOneMegabyteBodyIsCutAndSummarized() throws Exception {
        byte[] big = "overloaded ".repeat(100_000).getBytes(StandardCharsets.UTF_8);
        try (HttpStateAdapter adapter = serve(e -> reply(e, 503, "text/plain", big), 5_000)) {
            StateAnswer answer = adapter.submit("key-7", PAYLOAD, "{}");
            assertThat(answer.outcome()).isEqualTo(AttemptOutcome.TRANSIENT);
            assertThat(answer.message()).startsWith("503 Service Unavailable: overloaded").hasSizeLessThan(260);
            assertThat(answer.response()).hasSizeLessThan(HttpStateAdapter.MAX_RESPONSE_BYTES + 100);
        }
    }

    @Test
    void nonUtf8BytesAreReadWithoutFailing() throws Exception {
        byte[] latin1 = "erreur: d\u00e9j\u00e0 re\u00e7u \u00ff\u00fe".getBytes(StandardCharsets.ISO_8859_1);
        try (HttpStateAdapter adapter = serve(e -> reply(e, 422, "text/plain; charset=ISO-8859-1", latin1), 5_000)) {
            StateAnswer answer = adapter.submit("key-7", PAYLOAD, "{}");
            assertThat(answer.outcome()).isEqualTo(AttemptOutcome.PERMANENT);
            assertThat(answer.message()).startsWith("422 Unprocessable Entity: erreur: d").contains("\uFFFD");
        }
    }

    @Test
    void anHtmlErrorPageBecomesItsTitle() throws Exception {
        String page = "<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head>"
                + "<body><h1>Bad Gateway</h1><p>The proxy server received an invalid response.</p></body></html>";
        try (HttpStateAdapter adapter = serve(e -> reply(e, 502, "text/html", page.getBytes(StandardCharsets.UTF_8)), 5_000)) {
            StateAnswer answer = adapter.submit("key-7", PAYLOAD, "{}");
            assertThat(answer.outcome()).isEqualTo(AttemptOutcome.TRANSIENT);
            assertThat(answer.message()).isEqualTo("502 Bad Gateway: 502 Bad Gateway");
            assertThat(answer.response()).contains("<h1>Bad Gateway</h1>");
        }
    }

    @Test
    void aFieldThatIsNoFieldNameIsKeptShortOnOneLineOrDropped() throws Exception {
        String longField = "{\"error\":\"invalid_field\",\"field\":\"holder\\nId" + "x".repeat(10_000) + "\"}";
        try (HttpStateAdapter adapter = serve(e -> reply(e, 400, "application/json",
                longField.getBytes(StandardCharsets.UTF_8)), 5_000)) {
            StateAnswer answer = adapter.submit("key-7", PAYLOAD, "{}");
            assertThat(answer.outcome()).isEqualTo(AttemptOutcome.PERMANENT);
            assertThat(answer.field()).startsWith("holder Idxxx").hasSize(AnswerClassifier.MAX_FIELD_CHARS)
                    .doesNotContain("\n").endsWith("…");
        }
        try (HttpStateAdapter adapter = serve(e -> reply(e, 422, "application/json",
                "{\"error\":\"invalid_claim\",\"field\":{\"name\":\"holderId\"}}".getBytes(StandardCharsets.UTF_8)),
                5_000)) {
            StateAnswer answer = adapter.submit("key-7", PAYLOAD, "{}");
            assertThat(answer.outcome()).isEqualTo(AttemptOutcome.PERMANENT);
            assertThat(answer.field()).as("an object is not a field name").isNull();
        }
    }

    @Test
    void a200WithoutACaseIdIsNotADelivery() throws Exception {
        try (HttpStateAdapter adapter = serve(e -> reply(e, 200, "application/json",
                "{\"status\":\"ok\"}".getBytes(StandardCharsets.UTF_8)), 5_000)) {
            StateAnswer answer = adapter.submit("key-7", PAYLOAD, "{}");
            assertThat(answer.outcome()).isEqualTo(AttemptOutcome.TRANSIENT);
            assertThat(answer.caseId()).isNull();
            assertThat(answer.message()).contains("no case id");
        }
    }

    @Test
    void aReplyTricklingInSlowerThanTheTimeoutIsCut() throws Exception {
        try (HttpStateAdapter adapter = serve(e -> {
            e.sendResponseHeaders(201, 0);
            OutputStream out = e.getResponseBody();
            for (int i = 0; i < 100; i++) {
                out.write('{');
                out.flush();
                Thread.sleep(100);
            }
        }, 600)) {
            long started = System.nanoTime();
            StateAnswer answer = adapter.submit("key-7", PAYLOAD, "{}");
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            assertThat(answer.outcome()).isEqualTo(AttemptOutcome.TRANSIENT);
            assertThat(answer.message()).startsWith("timeout: no reply from the state within 600 ms");
            assertThat(tookMs).isLessThan(5_000);
        }
    }

    @Test
    void aRedirectToAnotherHostIsNotFollowedAndPausesDelivery() throws Exception {
        try (HttpStateAdapter adapter = serve(e -> {
            e.getResponseHeaders().set("Location", "https://phishing.example.net/v1/submissions");
            e.sendResponseHeaders(302, -1);
        }, 5_000)) {
            StateAnswer answer = adapter.submit("key-7", PAYLOAD, "{}");
            assertThat(answer.outcome()).isEqualTo(AttemptOutcome.SYSTEMIC);
            assertThat(answer.message()).isEqualTo("302 redirect to https://phishing.example.net/v1/submissions"
                    + " (ClaimDesk does not follow redirects: check the state API URL)");
        }
    }

    @Test
    void plainHttpToAnotherHostNeedsAnExplicitAllowance() {
        URI remote = URI.create("http://submissions.example-state.gov");
        assertThatThrownBy(() -> new HttpStateAdapter(remote, Duration.ofSeconds(1), Duration.ofSeconds(1), null))
                .hasMessageContaining("over https");
        try (HttpStateAdapter allowed = new HttpStateAdapter(remote, Duration.ofSeconds(1), Duration.ofSeconds(1), null, true)) {
            assertThat(allowed.endpoint()).isEqualTo("http://submissions.example-state.gov");
        }
    }
}
