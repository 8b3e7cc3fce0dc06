package org.claimdesk.testing;

import java.net.URI;
import java.time.Duration;
import org.claimdesk.delivery.HttpStateAdapter;
import org.claimdesk.delivery.WorkerSettings;

/** Short intervals, backoffs and timeouts so delivery tests run in seconds. */
public final class Workers {
    private Workers() {
    }

    public static WorkerSettings fast() {
        return new WorkerSettings(Duration.ofMillis(50), 4, 8, Duration.ofMillis(10), Duration.ofMillis(50),
                Duration.ofSeconds(10));
    }

    /** HTTP adapter with a 1 s connect timeout and a {@code requestMillis} request timeout, no token. */
    public static HttpStateAdapter http(URI baseUrl, long requestMillis) {
        return new HttpStateAdapter(baseUrl, Duration.ofSeconds(1), Duration.ofMillis(requestMillis), null);
    }
}
