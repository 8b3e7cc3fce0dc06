package org.claimdesk.delivery;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.claimdesk.store.Json;

/**
 * A state that implements ClaimDesk's submission contract in memory, for demos, training, tests and
 * benchmarks. It is always presented as "simulated". It remembers every accepted key and claim, so a
 * replayed key gets 200 with the same case id and a claim sent under a second key gets 409
 * duplicate_claim; a configurable share of submissions fails (503 or 429 with Retry-After, or 422).
 */
public final class SimulatedState {

    /**
     * @param latency how long every answer takes
     * @param transientRate share of submissions answered 503 or 429 (Retry-After 1 s), before anything is recorded
     * @param rejectRate share of submissions answered 422 invalid_claim
     * @param token when not null, the bearer token every call must carry (else 401)
     * @param seed seed of the failure draws
     */
    public record Config(Duration latency, double transientRate, double rejectRate, String token, long seed) {
        public Config {
            if (latency == null || latency.isNegative()) {
                throw new IllegalArgumentException("the simulated latency must not be negative");
            }
            if (transientRate < 0 || rejectRate < 0 || transientRate + rejectRate > 1) {
                throw new IllegalArgumentException("failure rates must be between 0 and 1, got " + transientRate
                        + " and " + rejectRate);
            }
        }

        public static Config reliable() {
            return new Config(Duration.ZERO, 0, 0, null, 1);
        }

        public Config withLatency(Duration value) {
            return new Config(value, transientRate, rejectRate, token, seed);
        }

        public Config withFailures(double transientShare, double rejectShare) {
            return new Config(latency, transientShare, rejectShare, token, seed);
        }

        public Config withToken(String value) {
            return new Config(latency, transientRate, rejectRate, value, seed);
        }
    }

    /** One answer: status, JSON fields, and Retry-After seconds for 429. */
    public record Reply(int status, String caseId, String error, String message, Integer retryAfterSeconds) {
        public String json() {
            Map<String, Object> body = new LinkedHashMap<>();
            if (caseId != null) {
                body.put("caseId", caseId);
            }
            if (error != null) {
                body.put("error", error);
            }
            if (message != null) {
                body.put("message", message);
            }
            return Json.write(body);
        }

        public AnswerClassifier.Body body() {
            return new AnswerClassifier.Body(caseId, error, message);
        }
    }

    private record Accepted(long claimId, String caseId) {
    }

    private final Config config;
    private final SplittableRandom random;
    private final Map<String, Accepted> byKey = new HashMap<>();
    private final Map<Long, String> caseIdByClaim = new HashMap<>();
    private final Map<String, AtomicInteger> postsByKey = new ConcurrentHashMap<>();
    private final Map<Long, AtomicInteger> acceptancesByClaim = new ConcurrentHashMap<>();
    private int sequence = 100_000;

    public SimulatedState(Config config) {
        this.config = config;
        this.random = new SplittableRandom(config.seed());
    }

    public Config config() {
        return config;
    }

    /**
     * POST /v1/submissions.
     *
     * @param authorization the Authorization header, or null
     * @param claimId the body's claimId, or null when it is missing or not a number
     */
    public Reply submit(String idempotencyKey, String authorization, Long claimId, String jurisdiction) {
        if (!authorized(authorization)) {
            return new Reply(401, null, "unauthorized", "a valid bearer token is required", null);
        }
        if (idempotencyKey == null || idempotencyKey.isBlank()) {
            return new Reply(400, null, "missing_idempotency_key", "the Idempotency-Key header is required", null);
        }
        postsByKey.computeIfAbsent(idempotencyKey, k -> new AtomicInteger()).incrementAndGet();
        if (claimId == null) {
            return new Reply(400, null, "invalid_body", "the body must be JSON with a numeric claimId", null);
        }
        synchronized (this) {
            Accepted known = byKey.get(idempotencyKey);
            if (known != null) {
                if (known.claimId() != claimId) {
                    return new Reply(422, null, "key_reused", "this Idempotency-Key was used for claim "
                            + known.claimId(), null);
                }
                return new Reply(200, known.caseId(), null, null, null);
            }
            String existing = caseIdByClaim.get(claimId);
            if (existing != null) {
                return new Reply(409, existing, "duplicate_claim", "claim " + claimId
                        + " was already accepted under another key", null);
            }
            double draw = random.nextDouble();
            if (draw < config.transientRate()) {
                return draw < config.transientRate() / 3
                        ? new Reply(429, null, "rate_limited", "too many submissions; retry later", 1)
                        : new Reply(503, null, "unavailable", "state portal busy", null);
            }
            if (draw < config.transientRate() + config.rejectRate()) {
                return new Reply(422, null, "invalid_claim", "state property id not found in the holder's report",
                        null);
            }
            return new Reply(201, accept(idempotencyKey, claimId, jurisdiction), null, null, null);
        }
    }

    /** Records a submission as accepted and returns its new case id; the caller holds the lock. */
    private String accept(String idempotencyKey, long claimId, String jurisdiction) {
        String prefix = jurisdiction == null || jurisdiction.isBlank() ? "ST" : jurisdiction.strip().toUpperCase(Locale.ROOT);
        // the sequence starts at 100,001: six digits without padding
        String caseId = prefix + "-" + LocalDate.now(ZoneOffset.UTC).getYear() + "-" + ++sequence;
        byKey.put(idempotencyKey, new Accepted(claimId, caseId));
        caseIdByClaim.put(claimId, caseId);
        acceptancesByClaim.computeIfAbsent(claimId, k -> new AtomicInteger()).incrementAndGet();
        return caseId;
    }

    /** GET /v1/submissions/{key}. */
    public Reply lookup(String idempotencyKey, String authorization) {
        if (!authorized(authorization)) {
            return new Reply(401, null, "unauthorized", "a valid bearer token is required", null);
        }
        synchronized (this) {
            Accepted known = byKey.get(idempotencyKey);
            return known == null ? new Reply(404, null, "not_found", "no submission under this key", null)
                    : new Reply(200, known.caseId(), null, null, null);
        }
    }

    private boolean authorized(String authorization) {
        return config.token() == null || ("Bearer " + config.token()).equals(authorization);
    }

    /** How many POSTs carried {@code idempotencyKey}. */
    public int postsFor(String idempotencyKey) {
        AtomicInteger n = postsByKey.get(idempotencyKey);
        return n == null ? 0 : n.get();
    }

    /** Every key POSTed and how many times. */
    public Map<String, Integer> posts() {
        Map<String, Integer> copy = new HashMap<>();
        postsByKey.forEach((k, v) -> copy.put(k, v.get()));
        return copy;
    }

    /** How many times each claim was accepted (201); a correct client keeps every count at 1. */
    public Map<Long, Integer> acceptances() {
        Map<Long, Integer> copy = new HashMap<>();
        acceptancesByClaim.forEach((k, v) -> copy.put(k, v.get()));
        return copy;
    }

    /** The case id the state holds for each accepted claim. */
    public synchronized Map<Long, String> caseIds() {
        return new HashMap<>(caseIdByClaim);
    }
}
