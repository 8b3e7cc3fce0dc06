package org.claimdesk.cli;

import java.net.URI;
import java.time.Duration;
import org.claimdesk.delivery.HttpStateAdapter;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.delivery.StateAdapter;
import org.claimdesk.delivery.StateNotSet;
import picocli.CommandLine.Option;

/**
 * Where submissions go: the state's API over HTTP ({@code --state-api}, else the workstation's
 * {@value HttpStateAdapter#URL_ENV}, as the console), or the simulated state (the default for a database file
 * without either; a team database's rows go to the simulated state only when it is chosen with {@code --simulated}).
 */
final class StateOptions {
    @Option(names = "--state-api", paramLabel = "URL",
            description = "The state's submission API (default: $" + HttpStateAdapter.URL_ENV + ", as the console's;"
                    + " token from $" + HttpStateAdapter.TOKEN_ENV + ").")
    String stateApi;

    @Option(names = "--simulated",
            description = "Use the simulated state in process (the default for a database file when no state API is"
                    + " named; a team database needs it said).")
    boolean simulated;

    @Option(names = "--connect-timeout-ms", paramLabel = "MS", defaultValue = "5000",
            description = "Connect timeout for the state API (default ${DEFAULT-VALUE}).")
    long connectTimeoutMs;

    @Option(names = "--request-timeout-ms", paramLabel = "MS", defaultValue = "15000",
            description = "Request timeout for the state API (default ${DEFAULT-VALUE}).")
    long requestTimeoutMs;

    @Option(names = "--allow-plain-http",
            description = "Accept a plain http:// state API URL on a host other than this machine (test networks only).")
    boolean allowPlainHttp;

    @Option(names = "--sim-latency-ms", paramLabel = "MS", defaultValue = "0",
            description = "Simulated state only: latency of every answer (default ${DEFAULT-VALUE}).")
    long simLatencyMs;

    @Option(names = "--sim-failure-rate", paramLabel = "F", defaultValue = "0",
            description = "Simulated state only: share of submissions answered 503 (busy) (default ${DEFAULT-VALUE}).")
    double simFailureRate;

    /**
     * The state API named: {@code --state-api}, else the workstation's, unless the simulated state was chosen
     * ({@code --simulated}, or one of its own options).
     */
    private String api() {
        return stateApi != null ? stateApi : simulatedChosen() ? null : HttpStateAdapter.configuredUrl().orElse(null);
    }

    private boolean simulatedChosen() {
        return simulated || simLatencyMs != 0 || simFailureRate != 0;
    }

    /**
     * The state a command asks what it holds: only a state's API can say; the simulated state a command starts knows
     * no earlier submission. None named, or one that cannot be opened, is a state that cannot be asked, with the
     * reason; a command that need not ask anything goes on.
     */
    StateAdapter toAsk() {
        requireOneState();
        if (simulatedChosen()) {
            return new StateNotSet("the simulated state a command starts knows no earlier submission: leave out"
                    + " --simulated and the --sim-… options, and name the state's API (--state-api URL or "
                    + HttpStateAdapter.URL_ENV + ")");
        }
        String api = api();
        if (api == null) {
            return new StateNotSet("no state API is named (--state-api URL or " + HttpStateAdapter.URL_ENV + ")");
        }
        try {
            return open(false);
        } catch (RuntimeException e) {
            return new StateNotSet(e.getMessage());
        }
    }

    /**
     * The options' usage errors, before a command does anything: a state API named and the simulated state chosen
     * (whichever command they are given to), a simulated latency or failure rate out of range, and, when
     * {@code onlyWith} names the option without which the command asks no state, a state named all the same.
     */
    void check(String onlyWith) {
        requireOneState();
        if (onlyWith != null && (stateApi != null || simulatedChosen() || allowPlainHttp)) {
            throw new UsageException("the state options (--state-api, --simulated, --sim-…, --allow-plain-http) go with "
                    + onlyWith + ": without it no state is asked");
        }
    }

    private void requireOneState() {
        if (stateApi != null && simulatedChosen()) {
            throw new UsageException("choose either --state-api or --simulated, not both");
        }
        if (simLatencyMs < 0) {
            throw new UsageException("--sim-latency-ms must not be negative");
        }
        if (!(simFailureRate >= 0 && simFailureRate <= 1)) {
            throw new UsageException("--sim-failure-rate must be between 0 and 1");
        }
    }

    /** @param teamDatabase whether the rows are a team database's, which never go to the simulated state unasked */
    StateAdapter open(boolean teamDatabase) {
        requireOneState();
        String api = api();
        if (api == null && !simulatedChosen() && teamDatabase) {
            throw new IllegalArgumentException("this is a team database: name the state's API with --state-api URL"
                    + " or " + HttpStateAdapter.URL_ENV + " (or pass --simulated to send its rows to the simulated state)");
        }
        if (api == null) {
            return new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable()
                    .withLatency(Duration.ofMillis(simLatencyMs)).withTransientRate(simFailureRate)));
        }
        URI uri;
        try {
            uri = URI.create(api.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the state API URL is not a valid URL: " + api);
        }
        return HttpStateAdapter.fromEnvironment(uri, Duration.ofMillis(connectTimeoutMs),
                Duration.ofMillis(requestTimeoutMs), allowPlainHttp);
    }

    /** "simulated state" or "state API at URL", for output. */
    static String describe(StateAdapter state) {
        return state.simulated() ? "simulated state" : "state API at " + state.endpoint();
    }
}
