package org.claimdesk.delivery;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.SubmissionPayload;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state's submission API over HTTP ({@code java.net.http}). The bearer token comes from the
 * environment variable {@value #TOKEN_ENV} when the adapter is built; it is sent in the Authorization
 * header and nowhere else: never logged, never stored, never part of {@link #toString()}.
 * Response bodies are read up to {@value #MAX_RESPONSE_BYTES} bytes.
 */
public final class HttpStateAdapter implements StateAdapter {
    public static final String TOKEN_ENV = "CLAIMDESK_STATE_TOKEN";
    /**
     * Environment variable (or system property {@code claimdesk.stateUrl}) naming the state's API on a workstation:
     * the console's, and the CLI's unless a command names another with {@code --state-api}.
     */
    public static final String URL_ENV = "CLAIMDESK_STATE_URL";
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(15);
    static final int MAX_RESPONSE_BYTES = 64 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(HttpStateAdapter.class);

    private final URI baseUrl;
    private final Duration connectTimeout;
    private final Duration requestTimeout;
    private final String token;
    private final ExecutorService executor;
    private final HttpClient client;
    private final Clock clock = Clock.systemUTC();

    /**
     * @param token the bearer token, or null to send none
     */
    public HttpStateAdapter(URI baseUrl, Duration connectTimeout, Duration requestTimeout, String token) {
        this(baseUrl, connectTimeout, requestTimeout, token, false);
    }

    /**
     * @param token the bearer token, or null to send none
     * @param allowPlainHttp accept plain {@code http://} to a host other than loopback (a test network)
     */
    public HttpStateAdapter(URI baseUrl, Duration connectTimeout, Duration requestTimeout, String token,
            boolean allowPlainHttp) {
        String scheme = baseUrl.getScheme();
        if (scheme == null || !(scheme.equals("http") || scheme.equals("https")) || baseUrl.getHost() == null) {
            throw new IllegalArgumentException("the state API URL must be an http or https URL, got " + baseUrl);
        }
        if (scheme.equals("http") && !isLoopback(baseUrl.getHost()) && !allowPlainHttp) {
            throw new IllegalArgumentException("the state API must be reached over https (plain http is accepted only"
                    + " for a local simulated state on 127.0.0.1, or when explicitly allowed), got " + baseUrl);
        }
        // the server's address: given with the contract's path (as the contract shows it), a lookup would go to
        // …/v1/submissions/v1/submissions/KEY, whose 404 would read as "not held"
        this.baseUrl = URI.create(baseUrl.toString().replaceAll("/+$", "")
                .replaceFirst(java.util.regex.Pattern.quote(StateSimServer.PATH) + "$", ""));
        this.connectTimeout = positive(connectTimeout, "connect timeout");
        this.requestTimeout = positive(requestTimeout, "request timeout");
        this.token = token == null || token.isBlank() ? null : token.strip();
        this.executor = Executors.newCachedThreadPool(new NamedThreads("claimdesk-http"));
        this.client = HttpClient.newBuilder()
                .connectTimeout(this.connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(executor)
                .build();
    }

    /**
     * The state API this workstation is set up with when it is a real state's, not a simulated state on this machine
     * ({@code claimdesk state-sim} on a loopback address); empty otherwise. Demo data is never made where this is set:
     * its pending submissions would go to that state.
     */
    public static java.util.Optional<String> configuredRealState() {
        return configuredUrl().filter(url -> !onThisMachine(url));
    }

    /**
     * Whether the state API at {@code url} is served on this machine (a loopback host: {@code claimdesk state-sim} for
     * training), not a state's; false for an address that cannot be read.
     */
    public static boolean onThisMachine(String url) {
        try {
            String host = URI.create(url).getHost();
            return host != null && isLoopback(host);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Loopback by its literal name, without a DNS lookup: localhost, 127.x.x.x or ::1. */
    static boolean isLoopback(String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        return h.equalsIgnoreCase("localhost") || h.matches("127(\\.\\d{1,3}){3}") || h.equals("::1");
    }

    /** The state API's URL this workstation is set up with ({@value #URL_ENV}), stripped; empty when none. */
    public static java.util.Optional<String> configuredUrl() {
        String url = System.getProperty("claimdesk.stateUrl", System.getenv(URL_ENV));
        return url == null || url.isBlank() ? java.util.Optional.empty() : java.util.Optional.of(url.strip());
    }

    /** With the token from {@value #TOKEN_ENV}, if set. */
    public static HttpStateAdapter fromEnvironment(URI baseUrl, Duration connectTimeout, Duration requestTimeout) {
        return fromEnvironment(baseUrl, connectTimeout, requestTimeout, () -> System.getenv(TOKEN_ENV));
    }

    static HttpStateAdapter fromEnvironment(URI baseUrl, Duration connectTimeout, Duration requestTimeout,
            Supplier<String> env) {
        return new HttpStateAdapter(baseUrl, connectTimeout, requestTimeout, env.get());
    }

    /** With the token from {@value #TOKEN_ENV}, if set; {@code allowPlainHttp} as in the constructor. */
    public static HttpStateAdapter fromEnvironment(URI baseUrl, Duration connectTimeout, Duration requestTimeout,
            boolean allowPlainHttp) {
        return new HttpStateAdapter(baseUrl, connectTimeout, requestTimeout, System.getenv(TOKEN_ENV), allowPlainHttp);
    }

    private static Duration positive(Duration value, String what) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("the " + what + " must be positive");
        }
        return value;
    }

    @Override
    public String endpoint() {
        return baseUrl.toString();
    }

    @Override
    public boolean simulated() {
        return false;
    }

    @Override
    public Duration maxCallDuration() {
        return connectTimeout.plus(requestTimeout);
    }

    @Override
    public StateAnswer submit(String idempotencyKey, SubmissionPayload payload, String payloadJson) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + StateSimServer.PATH))
                .timeout(requestTimeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .header("Idempotency-Key", idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofString(payloadJson, StandardCharsets.UTF_8));
        return call(request, true);
    }

    @Override
    public StateAnswer lookup(String idempotencyKey) {
        URI uri = URI.create(baseUrl + StateSimServer.PATH + "/"
                + URLEncoder.encode(idempotencyKey, StandardCharsets.UTF_8).replace("+", "%20"));
        return call(HttpRequest.newBuilder(uri).timeout(requestTimeout).header("Accept", "application/json").GET(), false);
    }

    private StateAnswer call(HttpRequest.Builder builder, boolean submission) {
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        HttpRequest request = builder.build();
        long deadline = System.nanoTime() + requestTimeout.toNanos();
        try {
            HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
            String text = readCapped(response.body(), deadline);
            if (response.statusCode() >= 300 && response.statusCode() < 400) {
                String location = response.headers().firstValue("Location").orElse("(no Location header)");
                return new StateAnswer(AttemptOutcome.SYSTEMIC, response.statusCode(), null,
                        response.statusCode() + " redirect to " + location + " (ClaimDesk does not follow redirects:"
                                + " check the state API URL)", text, null, false);
            }
            Duration retryAfter = AnswerClassifier.retryAfter(
                    response.headers().firstValue("Retry-After").orElse(null), clock.instant());
            AnswerClassifier.Body body = AnswerClassifier.Body.parse(text);
            return submission ? AnswerClassifier.submission(response.statusCode(), body, text, retryAfter)
                    : AnswerClassifier.lookup(response.statusCode(), body, text, retryAfter);
        } catch (HttpConnectTimeoutException e) {
            return StateAnswer.unreachable("cannot connect to the state at " + baseUrl + ": no connection within "
                    + connectTimeout.toMillis() + " ms");
        } catch (HttpTimeoutException e) {
            return StateAnswer.noAnswer("timeout: no reply from the state within " + requestTimeout.toMillis() + " ms");
        } catch (ConnectException e) {
            return StateAnswer.unreachable("cannot connect to the state at " + baseUrl + ": "
                    + (e.getMessage() == null ? "connection refused" : e.getMessage()));
        } catch (UnresolvedAddressException e) {
            return StateAnswer.unreachable("cannot connect to the state at " + baseUrl + ": unknown host");
        } catch (IOException e) {
            // the client reports a TLS failure itself, or wrapped in its HTTP layer's error ("HTTP/1.1 header parser
            // received no bytes", the TLS failure as its cause), whichever thread noticed first
            javax.net.ssl.SSLException tls = tlsCause(e);
            if (tls != null && beforeTheRequest(tls)) {
                // the state never got the request: a certificate this workstation does not trust, an https address on
                // a port that does not speak TLS. Set-up, not a row's trouble: counted against no row, the worker
                // pauses
                return StateAnswer.unreachable("cannot connect to the state at " + baseUrl + ": the TLS connection"
                        + " failed (" + describe(tls) + "); check the state API's address and this workstation's"
                        + " trusted certificates");
            }
            // a TLS alert or a cut once the connection was made among them: the state may have the request
            return StateAnswer.noAnswer("connection lost before the state answered: " + describe(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return StateAnswer.noAnswer("interrupted while waiting for the state");
        } catch (RuntimeException e) {
            LOG.error("unexpected failure calling the state at {}", baseUrl, e);
            return StateAnswer.noAnswer("unexpected failure calling the state: " + describe(e));
        }
    }

    /**
     * Reads at most {@link #MAX_RESPONSE_BYTES} of the body before {@code deadline}: the request
     * timeout covers only the wait for the headers, so a reply trickling in is cut here.
     */
    private String readCapped(InputStream body, long deadline) throws IOException, InterruptedException {
        java.util.concurrent.Future<byte[]> read = executor.submit(() -> body.readNBytes(MAX_RESPONSE_BYTES + 1));
        byte[] bytes;
        try {
            bytes = read.get(Math.max(1, deadline - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            read.cancel(true);
            body.close();
            throw new HttpTimeoutException("the reply did not finish in time");
        } catch (java.util.concurrent.ExecutionException e) {
            body.close();
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException(e.getCause());
        }
        body.close();
        if (bytes.length > MAX_RESPONSE_BYTES) {
            return new String(bytes, 0, MAX_RESPONSE_BYTES, StandardCharsets.UTF_8) + "… [response cut at "
                    + MAX_RESPONSE_BYTES + " bytes]";
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** The TLS failure {@code e} is, or was caused by; null when none. */
    static javax.net.ssl.SSLException tlsCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof javax.net.ssl.SSLException tls) {
                return tls;
            }
        }
        return null;
    }

    /**
     * Whether a TLS failure came before any request could be sent: the handshake refused (a certificate not trusted,
     * no common protocol), or the far end not speaking TLS at all (the JDK's "Unrecognized SSL message, plaintext
     * connection?").
     */
    static boolean beforeTheRequest(javax.net.ssl.SSLException e) {
        return e instanceof javax.net.ssl.SSLHandshakeException
                || (e.getMessage() != null && e.getMessage().contains("nrecognized SSL message"));
    }

    private static String describe(Exception e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
    }

    /** Stops the client's worker threads. */
    @Override
    public void close() {
        executor.shutdownNow();
    }

    /** Names the endpoint only: the token never appears here. */
    @Override
    public String toString() {
        return "HttpStateAdapter[" + baseUrl + ", connect " + connectTimeout.toMillis() + " ms, request "
                + requestTimeout.toMillis() + " ms" + (token == null ? ", no token" : ", bearer token set") + "]";
    }
}
