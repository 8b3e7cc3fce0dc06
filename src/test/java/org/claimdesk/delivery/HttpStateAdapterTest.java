package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.SubmissionPayload;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The HTTP adapter against a real server on 127.0.0.1 answering whatever each test scripts. */
class HttpStateAdapterTest {
    private static final SubmissionPayload PAYLOAD = new SubmissionPayload(7, "key-7", "UPC-2026-000007", "CA",
            "40000007", "Wells Fargo Bank NA", "HLD-1", "AC01", "OWNER", "Maria Garcia", "4567", 12_345, "2026-03-01");

    HttpServer server;
    volatile int status;
    volatile String body;
    volatile Map<String, String> headers = Map.of();
    final List<Map<String, String>> seenHeaders = new CopyOnWriteArrayList<>();
    final List<String> seenBodies = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/", exchange -> {
            try (exchange) {
                seenHeaders.add(Map.of(
                        "Idempotency-Key", String.valueOf(exchange.getRequestHeaders().getFirst("Idempotency-Key")),
                        "Authorization", String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")),
                        "path", exchange.getRequestURI().getRawPath(),
                        "method", exchange.getRequestMethod()));
                seenBodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                headers.forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
                exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
                if (bytes.length > 0) {
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(bytes);
                    }
                }
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private URI base() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    private StateAnswer post(int code, String text) {
        status = code;
        body = text;
        try (HttpStateAdapter adapter = new HttpStateAdapter(base(), Duration.ofSeconds(1), Duration.ofSeconds(2), null)) {
            return adapter.submit("key-7", PAYLOAD, "{\"claimId\":7}");
        }
    }

    @Test
    void sendsTheKeyTheBodyAndTheTokenButNeverShowsTheToken() {
        status = 201;
        body = "{\"caseId\":\"CA-2026-100001\"}";
        try (HttpStateAdapter adapter = HttpStateAdapter.fromEnvironment(base(), Duration.ofSeconds(1),
                Duration.ofSeconds(2), () -> "s3cret-token-value")) {
            StateAnswer answer = adapter.submit("key-7", PAYLOAD, "{\"claimId\":7,\"x\":1}");
            assertThat(answer.outcome()).isEqualTo(AttemptOutcome.DELIVERED);
            assertThat(answer.caseId()).isEqualTo("CA-2026-100001");
            assertThat(adapter.toString()).doesNotContain("s3cret").contains("bearer token set");
            assertThat(adapter.endpoint()).isEqualTo(base().toString().replaceAll("/$", ""));
            assertThat(answer.attemptDetail()).doesNotContain("s3cret");
        }
        assertThat(seenHeaders).singleElement().satisfies(h -> {
            assertThat(h).containsEntry("Idempotency-Key", "key-7").containsEntry("Authorization", "Bearer s3cret-token-value")
                    .containsEntry("path", "/v1/submissions").containsEntry("method", "POST");
        });
        assertThat(seenBodies).containsExactly("{\"claimId\":7,\"x\":1}");
    }

    @Test
    void answersAreSortedIntoTheTaxonomy() {
        assertThat(post(200, "{\"caseId\":\"CA-1\"}")).satisfies(a -> {
            assertThat(a.outcome()).isEqualTo(AttemptOutcome.DELIVERED);
            assertThat(a.message()).isEqualTo("200 replay of an accepted key: case id CA-1");
        });
        assertThat(post(409, "{\"error\":\"duplicate_claim\",\"caseId\":\"CA-9\"}")).satisfies(a -> {
            assertThat(a.outcome()).isEqualTo(AttemptOutcome.DELIVERED);
            assertThat(a.caseId()).isEqualTo("CA-9");
        });
        assertThat(post(409, "{\"error\":\"conflict\"}").outcome()).isEqualTo(AttemptOutcome.PERMANENT);
        // a replay while the key's first request is still being judged (after a timeout): asked again, counted
        assertThat(post(409, "{\"error\":\"request_in_progress\",\"message\":\"still processing\"}")).satisfies(a -> {
            assertThat(a.outcome()).isEqualTo(AttemptOutcome.TRANSIENT);
            assertThat(a.message()).isEqualTo("409 request_in_progress: still processing");
        });
        assertThat(post(400, "{\"error\":\"missing_field\",\"message\":\"holderName is required\"}")).satisfies(a -> {
            assertThat(a.outcome()).isEqualTo(AttemptOutcome.PERMANENT);
            assertThat(a.message()).isEqualTo("400 missing_field: holderName is required");
            assertThat(a.field()).as("the state named no field").isNull();
        });
        assertThat(post(400, "{\"error\":\"missing_field\",\"field\":\"evidence.address\",\"message\":\"proof of"
                + " address required\"}")).satisfies(a -> {
            assertThat(a.outcome()).isEqualTo(AttemptOutcome.PERMANENT);
            assertThat(a.field()).isEqualTo("evidence.address");
            assertThat(a.message()).isEqualTo("400 missing_field: proof of address required");
        });
        for (String code : new String[] {"invalid_claim", "already_paid", "identity_mismatch", "idempotency_key_reused"}) {
            assertThat(post(422, "{\"error\":\"" + code + "\",\"field\":\"holderId\"}")).satisfies(a -> {
                assertThat(a.outcome()).as(code).isEqualTo(AttemptOutcome.PERMANENT);
                assertThat(a.field()).isEqualTo("holderId");
                assertThat(a.attemptDetail()).startsWith("422 " + code);
            });
        }
        assertThat(post(503, "{\"error\":\"unavailable\"}").field()).isNull();
        assertThat(post(422, "{\"error\":\"invalid_claim\",\"message\":\"no such property\"}").outcome())
                .isEqualTo(AttemptOutcome.PERMANENT);
        assertThat(post(401, "").outcome()).isEqualTo(AttemptOutcome.SYSTEMIC);
        assertThat(post(403, "{\"error\":\"forbidden\"}").outcome()).isEqualTo(AttemptOutcome.SYSTEMIC);
        assertThat(post(404, "<html>not here</html>").message()).contains("no submission API at this address");
        assertThat(post(500, "").outcome()).isEqualTo(AttemptOutcome.TRANSIENT);
        assertThat(post(503, "upstream down").message()).isEqualTo("503 Service Unavailable: upstream down");
        assertThat(post(201, "{}")).satisfies(a -> {
            assertThat(a.outcome()).as("accepted without a case id: ask again").isEqualTo(AttemptOutcome.TRANSIENT);
            assertThat(a.message()).contains("no case id");
        });
        // a gateway's other 2xx: accepted, never a refusal
        assertThat(post(202, "{\"caseId\":\"CA-7\"}")).satisfies(a -> {
            assertThat(a.outcome()).isEqualTo(AttemptOutcome.DELIVERED);
            assertThat(a.caseId()).isEqualTo("CA-7");
            assertThat(a.message()).isEqualTo("202 accepted: case id CA-7");
        });
        assertThat(post(204, "").outcome()).isEqualTo(AttemptOutcome.TRANSIENT);
    }

    @Test
    void retryAfterIsReadAsSecondsOrAsAnHttpDate() {
        headers = Map.of("Retry-After", "7");
        StateAnswer answer = post(429, "{\"error\":\"rate_limited\"}");
        assertThat(answer.outcome()).isEqualTo(AttemptOutcome.TRANSIENT);
        assertThat(answer.retryAfter()).isEqualTo(Duration.ofSeconds(7));
        Instant now = Instant.parse("2026-11-30T01:00:00Z");
        assertThat(AnswerClassifier.retryAfter("Mon, 30 Nov 2026 01:00:30 GMT", now)).isEqualTo(Duration.ofSeconds(30));
        assertThat(AnswerClassifier.retryAfter("soon", now)).isNull();
        // a date or a number of seconds years away is a day at most: the row is not parked for good
        assertThat(AnswerClassifier.retryAfter("Fri, 01 Jan 2100 00:00:00 GMT", now)).isEqualTo(Duration.ofDays(1));
        assertThat(AnswerClassifier.retryAfter("999999999", now)).isEqualTo(Duration.ofDays(1));
    }

    @Test
    void responseBodiesAreReadUpToTheCap() {
        StateAnswer answer = post(500, "x".repeat(HttpStateAdapter.MAX_RESPONSE_BYTES * 3));
        assertThat(answer.response()).hasSizeLessThan(HttpStateAdapter.MAX_RESPONSE_BYTES + 100)
                .endsWith("[response cut at " + HttpStateAdapter.MAX_RESPONSE_BYTES + " bytes]");
    }

    @Test
    void lookupFindsOrMissesAKey() {
        status = 200;
        body = "{\"caseId\":\"CA-3\"}";
        try (HttpStateAdapter adapter = new HttpStateAdapter(base(), Duration.ofSeconds(1), Duration.ofSeconds(2), null)) {
            assertThat(adapter.lookup("key with space/slash").caseId()).isEqualTo("CA-3");
            status = 404;
            body = "{\"error\":\"not_found\"}";
            assertThat(adapter.lookup("key-8").notFound()).isTrue();
            // a 404 that is not the contract's (a proxy's page, a wrong address) says nothing of the key
            body = "<html>Not Found</html>";
            assertThat(adapter.lookup("key-8")).satisfies(a -> {
                assertThat(a.notFound()).isFalse();
                assertThat(a.outcome()).isEqualTo(AttemptOutcome.TRANSIENT);
                assertThat(a.message()).contains("not the state's not_found answer");
            });
            body = "{\"error\":\"no_route\"}";
            assertThat(adapter.lookup("key-8").notFound()).isFalse();
        }
        assertThat(seenHeaders.get(0)).containsEntry("method", "GET")
                .containsEntry("path", "/v1/submissions/key%20with%20space%2Fslash");

        // an address given with the contract's path, as the contract shows it, reaches the same resources
        status = 200;
        body = "{\"caseId\":\"CA-3\"}";
        try (HttpStateAdapter adapter = new HttpStateAdapter(base().resolve("v1/submissions/"), Duration.ofSeconds(1),
                Duration.ofSeconds(2), null)) {
            assertThat(adapter.endpoint()).isEqualTo("http://127.0.0.1:" + server.getAddress().getPort());
            assertThat(adapter.lookup("key-9").caseId()).isEqualTo("CA-3");
        }
        assertThat(seenHeaders.get(seenHeaders.size() - 1)).containsEntry("path", "/v1/submissions/key-9");
    }

    @Test
    void aRefusedConnectionIsUnreachableAndABadUrlIsRefusedUpFront() {
        int port = server.getAddress().getPort();
        server.stop(0);
        try (HttpStateAdapter adapter = new HttpStateAdapter(URI.create("http://127.0.0.1:" + port),
                Duration.ofSeconds(1), Duration.ofSeconds(1), null)) {
            StateAnswer answer = adapter.submit("k", PAYLOAD, "{}");
            assertThat(answer.unreachable()).isTrue();
            assertThat(answer.outcome()).isEqualTo(AttemptOutcome.SYSTEMIC);
        }
        // an https address on a port that does not speak TLS: the state never got the request
        try (java.net.ServerSocket plain = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
                HttpStateAdapter adapter = new HttpStateAdapter(URI.create("https://127.0.0.1:" + plain.getLocalPort()),
                        Duration.ofSeconds(2), Duration.ofSeconds(2), null)) {
            Thread answering = new Thread(() -> {
                try (java.net.Socket s = plain.accept()) {
                    s.getOutputStream().write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"
                            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    s.getOutputStream().flush();
                    // open until the client gives up on it: closed first, the client would see the connection end
                    // rather than the plain text its handshake cannot read
                    byte[] sink = new byte[1024];
                    while (s.getInputStream().read(sink) != -1) {
                        // what the client sent (its TLS hello) is not read
                    }
                } catch (IOException ignored) {
                    // the client hung up
                }
            });
            answering.start();
            StateAnswer tls = adapter.submit("k", PAYLOAD, "{}");
            assertThat(tls.unreachable()).as(tls.message()).isTrue();
            assertThat(tls.outcome()).isEqualTo(AttemptOutcome.SYSTEMIC);
            assertThat(tls.message()).contains("the TLS connection failed").contains("trusted certificates");
            answering.join(5_000);
            assertThat(HttpStateAdapter.beforeTheRequest(new javax.net.ssl.SSLHandshakeException("PKIX path building"
                    + " failed"))).isTrue();
            assertThat(HttpStateAdapter.beforeTheRequest(new javax.net.ssl.SSLException("Tag mismatch")))
                    .as("a cut once connected: the state may have the request").isFalse();
            // as the client's HTTP layer wraps it when its reader notices the failure first
            assertThat(HttpStateAdapter.tlsCause(new IOException("HTTP/1.1 header parser received no bytes",
                    new javax.net.ssl.SSLException("Unrecognized SSL message, plaintext connection?"))))
                    .hasMessageStartingWith("Unrecognized SSL message");
            assertThat(HttpStateAdapter.tlsCause(new IOException("Connection reset"))).isNull();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        assertThatThrownBy(() -> new HttpStateAdapter(URI.create("ftp://x"), Duration.ofSeconds(1), Duration.ofSeconds(1), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("http or https");
        assertThatThrownBy(() -> new HttpStateAdapter(URI.create("http://submissions.example-state.gov"),
                Duration.ofSeconds(1), Duration.ofSeconds(1), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("over https");
        assertThat(HttpStateAdapter.isLoopback("localhost")).isTrue();
        assertThat(HttpStateAdapter.isLoopback("[::1]")).isTrue();
        assertThat(HttpStateAdapter.isLoopback("127.0.0.1")).isTrue();
        assertThat(HttpStateAdapter.isLoopback("127.example.com")).isFalse();
    }
}
