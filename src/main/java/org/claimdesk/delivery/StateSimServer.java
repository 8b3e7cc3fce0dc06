package org.claimdesk.delivery;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The simulated state served over real HTTP ({@code claimdesk state-sim}), implementing
 * {@code resources/state-api.yaml}: POST /v1/submissions and GET /v1/submissions/{key}.
 */
public final class StateSimServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StateSimServer.class);
    static final int MAX_BODY_BYTES = 256 * 1024;
    static final String PATH = "/v1/submissions";
    /**
     * The JDK server's switch for TCP_NODELAY on the connections it accepts. Off, it sends an answer's headers and
     * its body as two segments and holds the second back until the client acknowledges the first, which a client
     * on Linux delays by 40 ms: every answer came about 40 ms later than the simulated latency. The server reads it
     * once, when its first instance in the JVM is made, so it is set before that unless given on the command line.
     */
    static final String NODELAY_PROPERTY = "sun.net.httpserver.nodelay";

    static {
        if (System.getProperty(NODELAY_PROPERTY) == null) {
            System.setProperty(NODELAY_PROPERTY, "true");
        }
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final SimulatedState state;

    private StateSimServer(HttpServer server, ExecutorService executor, SimulatedState state) {
        this.server = server;
        this.executor = executor;
        this.state = state;
    }

    /** Starts serving on {@code address} (port 0 picks a free port). */
    public static StateSimServer start(SimulatedState state, InetSocketAddress address) throws IOException {
        HttpServer server = HttpServer.create(address, 128);
        ExecutorService executor = Executors.newCachedThreadPool(new NamedThreads("claimdesk-state-sim"));
        StateSimServer sim = new StateSimServer(server, executor, state);
        server.createContext(PATH, sim::handle);
        server.setExecutor(executor);
        server.start();
        LOG.info("simulated state listening on {}", sim.baseUrl());
        return sim;
    }

    public URI baseUrl() {
        InetSocketAddress address = server.getAddress();
        String host = address.getAddress().isAnyLocalAddress() ? "127.0.0.1" : address.getAddress().getHostAddress();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return URI.create("http://" + host + ":" + address.getPort());
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public SimulatedState state() {
        return state;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getRawPath();
            String method = exchange.getRequestMethod();
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            SimulatedState.Reply reply;
            if (path.equals(PATH) || path.equals(PATH + "/")) {
                if (!method.equals("POST")) {
                    reply = new SimulatedState.Reply(405, null, "method_not_allowed", "use POST", null);
                } else {
                    reply = submit(exchange, authorization);
                }
            } else if (path.startsWith(PATH + "/") && method.equals("GET")) {
                String key = URLDecoder.decode(path.substring(PATH.length() + 1), StandardCharsets.UTF_8);
                latency();
                reply = state.lookup(key, authorization);
            } else {
                reply = new SimulatedState.Reply(404, null, "not_found", "no such resource", null);
            }
            send(exchange, reply);
        } catch (RuntimeException e) {
            LOG.error("simulated state failed to answer", e);
            throw e;
        }
    }

    private SimulatedState.Reply submit(HttpExchange exchange, String authorization) throws IOException {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readNBytes(MAX_BODY_BYTES + 1);
        }
        latency();
        if (body.length > MAX_BODY_BYTES) {
            return new SimulatedState.Reply(413, null, "too_large", "the body exceeds " + MAX_BODY_BYTES + " bytes", null);
        }
        return state.submit(exchange.getRequestHeaders().getFirst("Idempotency-Key"), authorization,
                new String(body, StandardCharsets.UTF_8));
    }

    private void latency() {
        long millis = state.config().latency().toMillis();
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Writes one answer of the contract: its status, its JSON body and, for 429, Retry-After. */
    public static void send(HttpExchange exchange, SimulatedState.Reply reply) throws IOException {
        byte[] bytes = reply.json().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        if (reply.retryAfterSeconds() != null) {
            exchange.getResponseHeaders().set("Retry-After", Integer.toString(reply.retryAfterSeconds()));
        }
        exchange.sendResponseHeaders(reply.status(), bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
