package org.claimdesk.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.claimdesk.domain.KeyPolicy;
import org.claimdesk.store.Json;

/**
 * A state that implements ClaimDesk's submission contract in memory, for demos, training, tests and
 * benchmarks. It is always presented as "simulated". It judges each submission by its content against
 * {@link StateRules}, so the same body gets the same answer every time; only transient trouble (503: the
 * portal busy) is drawn at random, at {@link Config#transientRate}, before anything is recorded. It answers 429
 * only under load, as a state asks to slow down: beyond {@link Config#perSecond} submissions a second, when set. It
 * remembers the body and the answer of every key it judged: a replay with the same body gets the same answer
 * (200 and the first case id for an accepted one), a key sent again with another body gets 422
 * idempotency_key_reused, and a claim sent under a second key after its acceptance gets 409 duplicate_claim.
 */
public final class SimulatedState {

    /**
     * @param latency how long every answer takes
     * @param transientRate share of submissions answered 503, before anything is recorded
     * @param token when not null, the bearer token every call must carry (else 401)
     * @param seed seed of the transient draws
     * @param perSecond the submissions taken in any second, beyond which the state answers 429; 0 for no limit
     */
    public record Config(Duration latency, double transientRate, String token, long seed, int perSecond) {
        public Config(Duration latency, double transientRate, String token, long seed) {
            this(latency, transientRate, token, seed, 0);
        }

        public Config {
            if (perSecond < 0) {
                throw new IllegalArgumentException("the submissions a second must not be negative, got " + perSecond);
            }
            if (latency == null || latency.isNegative()) {
                throw new IllegalArgumentException("the simulated latency must not be negative");
            }
            if (!(transientRate >= 0 && transientRate <= 1)) {
                throw new IllegalArgumentException("the transient failure rate must be between 0 and 1, got "
                        + transientRate);
            }
        }

        public static Config reliable() {
            return new Config(Duration.ZERO, 0, null, 1);
        }

        public Config withLatency(Duration value) {
            return new Config(value, transientRate, token, seed, perSecond);
        }

        /** Answers this share of submissions 503, at random. */
        public Config withTransientRate(double share) {
            return new Config(latency, share, token, seed, perSecond);
        }

        public Config withToken(String value) {
            return new Config(latency, transientRate, value, seed, perSecond);
        }

        /**
         * Answers 429 (Retry-After 1 s) to the submissions beyond {@code value} in any second, as a state's rate
         * limit does; 0 for none.
         */
        public Config withRateLimit(int value) {
            return new Config(latency, transientRate, token, seed, value);
        }
    }

    /**
     * One answer: status, JSON fields, and Retry-After seconds for 429.
     *
     * @param field the body field at fault, for a refusal that names one
     */
    public record Reply(int status, String caseId, String error, String field, String message,
            Integer retryAfterSeconds) {

        public Reply(int status, String caseId, String error, String message, Integer retryAfterSeconds) {
            this(status, caseId, error, null, message, retryAfterSeconds);
        }

        static Reply refused(StateRules.Refusal refusal) {
            return new Reply(refusal.status(), null, refusal.error(), refusal.field(), refusal.message(), null);
        }

        public String json() {
            Map<String, Object> body = new LinkedHashMap<>();
            if (caseId != null) {
                body.put("caseId", caseId);
            }
            if (error != null) {
                body.put("error", error);
            }
            if (field != null) {
                body.put("field", field);
            }
            if (message != null) {
                body.put("message", message);
            }
            return Json.write(body);
        }

        public AnswerClassifier.Body body() {
            return new AnswerClassifier.Body(caseId, error, field, message);
        }
    }

    /** What the state answered a key, and the digest of the body it answered. */
    private record Judged(String bodyDigest, Long claimId, Reply reply) {
    }

    private final Config config;
    private final StateRules rules;
    private final SplittableRandom random;
    private final Map<String, Judged> byKey = new HashMap<>();
    private final Map<Long, String> caseIdByClaim = new HashMap<>();
    private final Map<String, AtomicInteger> postsByKey = new ConcurrentHashMap<>();
    private final Map<Long, AtomicInteger> acceptancesByClaim = new ConcurrentHashMap<>();
    private int sequence = 100_000;
    /** When the submissions the rate limit let through in the last second came, oldest first; under its own lock. */
    private final java.util.ArrayDeque<Long> lastSecond = new java.util.ArrayDeque<>();
    private final java.util.function.LongSupplier nanos;

    public SimulatedState(Config config) {
        this(config, StateRules.standard());
    }

    public SimulatedState(Config config, StateRules rules) {
        this(config, rules, System::nanoTime);
    }

    /** @param nanos the monotonic clock the rate limit counts seconds on */
    SimulatedState(Config config, StateRules rules, java.util.function.LongSupplier nanos) {
        this.config = config;
        this.rules = rules;
        this.random = new SplittableRandom(config.seed());
        this.nanos = nanos;
    }

    /** Whether a submission now goes beyond the rate limit; one that does not is counted. */
    private boolean beyondRateLimit() {
        if (config.perSecond() == 0) {
            return false;
        }
        synchronized (lastSecond) {
            long now = nanos.getAsLong();
            while (!lastSecond.isEmpty() && now - lastSecond.peekFirst() >= 1_000_000_000L) {
                lastSecond.pollFirst();
            }
            if (lastSecond.size() >= config.perSecond()) {
                return true;
            }
            lastSecond.addLast(now);
            return false;
        }
    }

    public Config config() {
        return config;
    }

    public StateRules rules() {
        return rules;
    }

    /**
     * POST /v1/submissions.
     *
     * @param authorization the Authorization header, or null
     * @param body the request body as sent
     */
    public Reply submit(String idempotencyKey, String authorization, String body) {
        if (!authorized(authorization)) {
            return new Reply(401, null, "unauthorized", "a valid bearer token is required", null);
        }
        if (idempotencyKey == null || idempotencyKey.isBlank()) {
            return new Reply(400, null, "missing_idempotency_key", "the Idempotency-Key header is required", null);
        }
        postsByKey.computeIfAbsent(idempotencyKey, k -> new AtomicInteger()).incrementAndGet();
        if (beyondRateLimit()) {
            return new Reply(429, null, "rate_limited", "more than " + config.perSecond()
                    + " submissions a second; retry later", 1);
        }
        JsonNode node = parse(body);
        if (node == null || !node.isObject()) {
            return new Reply(400, null, "invalid_body", "the body must be a JSON object", null);
        }
        String digest;
        try {
            digest = CanonicalJson.sha256(node);
        } catch (NumberFormatException outOfRange) {
            // 1e400 reads as infinity: a number no submission field can hold
            return new Reply(400, null, "invalid_body", "a number in the body is out of range", null);
        }
        JsonNode claimIdNode = node.get("claimId");
        Long claimId = claimIdNode != null && claimIdNode.isIntegralNumber() && claimIdNode.canConvertToLong()
                ? claimIdNode.asLong() : null;
        synchronized (this) {
            Judged known = byKey.get(idempotencyKey);
            if (known != null) {
                if (!known.bodyDigest().equals(digest)) {
                    return new Reply(422, null, KeyPolicy.KEY_REUSED, null, "this Idempotency-Key was first sent"
                            + (known.claimId() == null ? "" : " for claim " + known.claimId())
                            + " with a different body; a changed submission needs a new key", null);
                }
                return known.reply();
            }
            String existing = claimId == null ? null : caseIdByClaim.get(claimId);
            JsonNode amends = node.get("amends");
            // an amendment of the case held for this claim is a new filing, judged anew (the state decided that case)
            if (existing != null && !(amends != null && amends.isTextual() && existing.equals(amends.asText()))) {
                return new Reply(409, existing, "duplicate_claim", "claim " + claimId
                        + " was already accepted under another key", null);
            }
            if (random.nextDouble() < config.transientRate()) {
                return new Reply(503, null, "unavailable", "state portal busy", null);
            }
            Optional<StateRules.Refusal> refusal = rules.judge(node);
            if (refusal.isPresent()) {
                Reply reply = Reply.refused(refusal.get());
                byKey.put(idempotencyKey, new Judged(digest, claimId, reply));
                return reply;
            }
            return new Reply(201, accept(idempotencyKey, digest, claimId, node.get("jurisdiction").asText()), null,
                    null, null);
        }
    }

    /** Judges one sample body without recording anything, so the rules' classes are loaded before the first call. */
    public void prepare() {
        rules.judge(parse("{\"claimId\":1}"));
        CanonicalJson.sha256(parse("{\"claimId\":1}"));
    }

    private static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            return Json.mapper().readTree(body);
        } catch (IOException notJson) {
            return null;
        }
    }

    /** Records a submission as accepted and returns its new case id; the caller holds the lock. */
    private String accept(String idempotencyKey, String digest, long claimId, String jurisdiction) {
        // the sequence starts at 100,001: six digits without padding
        String caseId = jurisdiction + "-" + LocalDate.now(ZoneOffset.UTC).getYear() + "-" + ++sequence;
        byKey.put(idempotencyKey, new Judged(digest, claimId, new Reply(200, caseId, null, null, null)));
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
            Judged known = byKey.get(idempotencyKey);
            return known == null || known.reply().caseId() == null
                    ? new Reply(404, null, "not_found", "no submission accepted under this key", null)
                    : new Reply(200, known.reply().caseId(), null, null, null);
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

    /**
     * How many times each claim was accepted (201); a correct client keeps every count at 1, but for an amended claim
     * (its new filing names the case decided before: one more).
     */
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
