package org.claimdesk.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.claimdesk.delivery.HttpStateAdapter;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.StateSimServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "state-sim", description = {
    "Serve the simulated state over HTTP (the contract in resources/state-api.yaml) for demos and training.",
    "Everything it answers is simulated; nothing reaches a real state."})
final class StateSimCommand extends CliSupport implements Callable<Integer> {
    @Option(names = "--port", required = true, paramLabel = "P", description = "TCP port (0 picks a free one).")
    int port;

    @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1", description = "Address to listen on (default ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "--latency-ms", paramLabel = "L", defaultValue = "0", description = "Latency of every answer (default ${DEFAULT-VALUE}).")
    long latencyMs;

    @Option(names = "--failure-rate", paramLabel = "F", defaultValue = "0", description =
        "Share of submissions answered 503 (busy), at random: 0 to 1 (default ${DEFAULT-VALUE})."
        + " Refusals are never random: the state refuses a submission only for what it contains (docs/delivery.md).")
    double failureRate;

    @Option(names = "--rate-limit", paramLabel = "N", defaultValue = "0", description = "Answer 429 (Retry-After 1 s)"
            + " to the submissions beyond N in any second, as a state's rate limit does (default ${DEFAULT-VALUE}: none).")
    int rateLimit;

    @Option(names = "--require-token", description = "Answer 401 unless the bearer token equals $" + HttpStateAdapter.TOKEN_ENV + ".")
    boolean requireToken;

    @Option(names = "--for-seconds", paramLabel = "S", description = "Stop after this many seconds (default: until interrupted).")
    Long forSeconds;

    @Override
    public Integer call() throws InterruptedException {
        if (latencyMs < 0) {
            throw new UsageException("--latency-ms must not be negative");
        }
        if (port < 0 || port > 65_535) {
            throw new UsageException("--port must be between 0 and 65535 (0 picks a free one)");
        }
        if (!(failureRate >= 0 && failureRate <= 1)) {
            throw new UsageException("--failure-rate must be between 0 and 1 (the share of submissions answered 503)");
        }
        String token = null;
        if (requireToken) {
            token = System.getenv(HttpStateAdapter.TOKEN_ENV);
            if (token == null || token.isBlank()) {
                throw new IllegalArgumentException("--require-token needs $" + HttpStateAdapter.TOKEN_ENV + " to be set");
            }
            // read as the client reads it (HttpStateAdapter strips it): spaces around it are not the token's
            token = token.strip();
        }
        if (rateLimit < 0) {
            throw new UsageException("--rate-limit must not be negative");
        }
        SimulatedState state = new SimulatedState(new SimulatedState.Config(Duration.ofMillis(latencyMs), failureRate,
                token, System.nanoTime(), rateLimit));
        InetAddress address;
        try {
            address = InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new UsageException("cannot listen on " + bind + ": unknown address");
        }
        CountDownLatch stop = new CountDownLatch(1);
        StateSimServer server;
        try {
            server = StateSimServer.start(state, new InetSocketAddress(address, port));
        } catch (IOException e) {
            // a port in use, or one the system keeps for itself: the user's to change, not ClaimDesk's failure
            throw new org.claimdesk.domain.ClaimDeskException("cannot listen on " + bind + ":" + port + ": "
                    + (e instanceof java.net.BindException ? "the port is in use or not allowed (" + e.getMessage()
                            + "); choose another with --port" : e.getMessage()), e);
        }
        Thread hook = new Thread(() -> {
            server.close();
            stop.countDown();
        }, "claimdesk-state-sim-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            out().printf(Locale.ROOT, "simulated state listening on %s (latency %d ms, failure rate %.2f%s%s)%n",
                    server.baseUrl(), latencyMs, failureRate,
                    rateLimit == 0 ? "" : ", at most " + rateLimit + " submissions a second",
                    token == null ? "" : ", token required");
            out().flush();
            if (forSeconds == null) {
                stop.await();
            } else {
                stop.await(forSeconds, TimeUnit.SECONDS);
            }
        } finally {
            server.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running already
            }
        }
        return ClaimDeskCommand.EXIT_OK;
    }
}
