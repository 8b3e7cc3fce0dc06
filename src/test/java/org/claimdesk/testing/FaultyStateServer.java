package org.claimdesk.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.StateSimServer;

/**
 * A real HTTP server on 127.0.0.1 implementing the state contract (through {@link SimulatedState})
 * with faults injected per request: 503, 429 with Retry-After, a reply that never comes, a dropped
 * connection, a submission accepted whose reply is lost (503 after recording it), 422, 401.
 */
public final class FaultyStateServer implements AutoCloseable {

    public enum Fault {
        NONE, UNAVAILABLE_503, RATE_LIMITED_429, NO_REPLY, DROP_CONNECTION, ACCEPTED_THEN_503, REJECT_422, UNAUTHORIZED_401,
        /** A token that may read submissions but not make them. */
        FORBIDDEN_403
    }

    /** Decides the fault for the {@code postNumber}-th POST (1-based) of {@code key}. */
    @FunctionalInterface
    public interface Plan {
        Fault decide(String key, int postNumber);
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final SimulatedState state;
    private final Duration noReplyFor;
    private final Map<String, AtomicInteger> posts = new ConcurrentHashMap<>();
    private final AtomicInteger lookups = new AtomicInteger();
    private final AtomicInteger concurrent = new AtomicInteger();
    private final AtomicInteger maxConcurrentPerKey = new AtomicInteger();
    private final Map<String, AtomicInteger> inFlightByKey = new ConcurrentHashMap<>();
    private volatile Plan plan;
    private volatile Fault lookupFault = Fault.NONE;
    private volatile int retryAfterSeconds = 1;
    private volatile long replyDelayMillis;
    private volatile java.util.concurrent.CountDownLatch together = new java.util.concurrent.CountDownLatch(0);

    private FaultyStateServer(SimulatedState state, Plan plan, Duration noReplyFor, int port) throws IOException {
        this.state = state;
        this.plan = plan;
        this.noReplyFor = noReplyFor;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 128);
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "test-state-server");
            t.setDaemon(true);
            return t;
        });
        server.createContext("/v1/submissions", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    public static FaultyStateServer start(Plan plan, Duration noReplyFor) throws IOException {
        return onPort(0, plan, noReplyFor);
    }

    /** On a given port of 127.0.0.1 (0 for any free one). */
    public static FaultyStateServer onPort(int port, Plan plan, Duration noReplyFor) throws IOException {
        return new FaultyStateServer(new SimulatedState(SimulatedState.Config.reliable()), plan, noReplyFor, port);
    }

    public static FaultyStateServer reliable() throws IOException {
        return start((key, n) -> Fault.NONE, Duration.ofSeconds(2));
    }

    public URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    public SimulatedState state() {
        return state;
    }

    public void plan(Plan value) {
        this.plan = value;
    }

    public void lookupFault(Fault value) {
        this.lookupFault = value;
    }

    /** Every POST waits this long before its fate is decided (the state's own latency). */
    public void replyDelayMillis(long value) {
        this.replyDelayMillis = value;
    }

    /**
     * The first {@code posts} POSTs wait for each other (10 s at most) before any is answered: a test's calls are all
     * under way before the first answer, however late their threads start.
     */
    public void answerTogether(int posts) {
        this.together = new java.util.concurrent.CountDownLatch(posts);
    }

    public void retryAfterSeconds(int value) {
        this.retryAfterSeconds = value;
    }

    /** POSTs per key, whatever their fate. */
    public Map<String, Integer> posts() {
        Map<String, Integer> copy = new HashMap<>();
        posts.forEach((k, v) -> copy.put(k, v.get()));
        return copy;
    }

    public int postsFor(String key) {
        AtomicInteger n = posts.get(key);
        return n == null ? 0 : n.get();
    }

    /** GETs of a key, whatever their answer. */
    public int lookups() {
        return lookups.get();
    }

    public int totalPosts() {
        return posts.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    /** The most POSTs of one key the server ever had under way at the same moment. */
    public int maxConcurrentPostsOfOneKey() {
        return maxConcurrentPerKey.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            if (exchange.getRequestMethod().equals("GET")) {
                String key = exchange.getRequestURI().getPath().substring("/v1/submissions/".length());
                lookups.incrementAndGet();
                if (lookupFault == Fault.UNAUTHORIZED_401) {
                    reply(exchange, new SimulatedState.Reply(401, null, "unauthorized", "token expired", null));
                } else if (lookupFault == Fault.UNAVAILABLE_503) {
                    reply(exchange, new SimulatedState.Reply(503, null, "unavailable", "maintenance", null));
                } else {
                    reply(exchange, state.lookup(key, auth));
                }
                return;
            }
            String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            int n = posts.computeIfAbsent(String.valueOf(key), k -> new AtomicInteger()).incrementAndGet();
            AtomicInteger perKey = inFlightByKey.computeIfAbsent(String.valueOf(key), k -> new AtomicInteger());
            maxConcurrentPerKey.accumulateAndGet(perKey.incrementAndGet(), Math::max);
            concurrent.incrementAndGet();
            try {
                serve(exchange, key, n, body, auth);
            } finally {
                perKey.decrementAndGet();
                concurrent.decrementAndGet();
            }
        }
    }

    private void serve(HttpExchange exchange, String key, int n, byte[] body, String auth) throws IOException {
        java.util.concurrent.CountDownLatch gate = together;
        gate.countDown();
        try {
            gate.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (replyDelayMillis > 0) {
            try {
                TimeUnit.MILLISECONDS.sleep(replyDelayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        Fault fault = plan.decide(key, n);
        switch (fault) {
            case UNAVAILABLE_503 -> reply(exchange, new SimulatedState.Reply(503, null, "unavailable", "state portal busy", null));
            case RATE_LIMITED_429 -> reply(exchange, new SimulatedState.Reply(429, null, "rate_limited", "slow down",
                    retryAfterSeconds));
            case REJECT_422 -> reply(exchange, new SimulatedState.Reply(422, null, "invalid_claim",
                    "holder id not found in the holder's report", null));
            case UNAUTHORIZED_401 -> reply(exchange, new SimulatedState.Reply(401, null, "unauthorized", "token expired", null));
            case FORBIDDEN_403 -> reply(exchange, new SimulatedState.Reply(403, null, "forbidden",
                    "this token may not submit", null));
            case NO_REPLY -> {
                try {
                    TimeUnit.MILLISECONDS.sleep(noReplyFor.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            case DROP_CONNECTION -> {
                // closing the exchange before any response header drops the connection
            }
            case ACCEPTED_THEN_503 -> {
                submitToState(key, body, auth);
                reply(exchange, new SimulatedState.Reply(503, null, "unavailable", "gateway lost the reply", null));
            }
            case NONE -> reply(exchange, submitToState(key, body, auth));
            default -> throw new IllegalStateException("unknown fault " + fault);
        }
    }

    private SimulatedState.Reply submitToState(String key, byte[] body, String auth) {
        return state.submit(key, auth, new String(body, StandardCharsets.UTF_8));
    }

    private static void reply(HttpExchange exchange, SimulatedState.Reply reply) throws IOException {
        StateSimServer.send(exchange, reply);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
