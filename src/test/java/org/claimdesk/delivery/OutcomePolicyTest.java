package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.concurrent.atomic.AtomicReference;
import org.claimdesk.delivery.OutcomePolicy.ClaimMove;
import org.claimdesk.delivery.OutcomePolicy.Decision;
import org.claimdesk.delivery.OutcomePolicy.StateHealth;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.SubmissionPayload;
import org.claimdesk.domain.TransitionRefusedException;
import org.claimdesk.domain.Transitions;
import org.claimdesk.store.DeliveryRecord;
import org.claimdesk.store.DeliveryRecord.Kind;
import org.claimdesk.store.Json;
import org.claimdesk.store.LeasedRow;
import org.junit.jupiter.api.Test;

/** Every outcome of one delivery, decided without threads, clocks or a database. */
class OutcomePolicyTest {
    private static final ZoneId OFFICE = ZoneId.of("America/Los_Angeles");
    /** 03:00 UTC: still the evening before in the office's zone. */
    private static final Instant STARTED = Instant.parse("2030-01-01T02:59:59.950Z");
    private static final Instant NOW = Instant.parse("2030-01-01T03:00:00Z");
    private static final Instant LEASE_END = NOW.plusSeconds(60);
    private static final SubmissionPayload PAYLOAD = new SubmissionPayload(7, "key-7", "CLM-7", "CA", "UPC-1",
            "Acme Bank", "HLD-1", "AC01", "OWNER", "Pat Doe", "1234", 10_000, "2029-12-01");
    /** Base 2 s, cap 10 min, at most 5 attempts. */
    private static final WorkerSettings SETTINGS = WorkerSettings.defaults().withMaxAttempts(5);

    private final AtomicReference<WorkerSettings> settings = new AtomicReference<>(SETTINGS);
    /** Jitter draws of one half: the wait is half the backoff ceiling. */
    private final OutcomePolicy policy = new OutcomePolicy(settings::get, Deadlines.statutory(), OFFICE, () -> 0.5);

    private static LeasedRow row(int attempts, int retryCount) {
        return new LeasedRow(70, 7, OutboxEvent.SUBMISSION_REQUESTED, Json.write(PAYLOAD), "key-7", attempts, retryCount,
                LEASE_END, "CA");
    }

    private Decision decide(LeasedRow row, StateAnswer answer) {
        return policy.decide(row, PAYLOAD, answer, STARTED, 50, NOW, 0);
    }

    private static StateAnswer submission(int status, String body, Duration retryAfter) {
        return AnswerClassifier.submission(status, AnswerClassifier.Body.parse(body), body, retryAfter);
    }

    @Test
    void aDeliveredSubmissionIsSentAndMovesItsClaimToSubmittedWithTheDecisionDateCountedFromTheOfficesDay() {
        Decision d = decide(row(1, 1), submission(201, "{\"caseId\":\"CA-2030-000001\"}", null));

        DeliveryRecord r = d.record();
        assertThat(r.kind()).isEqualTo(Kind.SENT);
        assertThat(r.outboxEventId()).isEqualTo(70);
        assertThat(r.claimId()).isEqualTo(7);
        assertThat(r.idempotencyKey()).isEqualTo("key-7");
        assertThat(r.caseId()).isEqualTo("CA-2030-000001");
        assertThat(r.attempts()).isEqualTo(2);
        assertThat(r.retryCount()).as("a delivery leaves the retry count").isEqualTo(1);
        assertThat(r.nextAttemptAt()).isNull();
        assertThat(r.lastError()).isNull();
        // 31 December in Los Angeles, and California decides within 180 days
        assertThat(r.decisionDueOn()).isEqualTo(LocalDate.of(2029, 12, 31).plusDays(180));
        assertThat(r.startedAt()).isEqualTo(STARTED);
        assertThat(r.durationMs()).isEqualTo(50);
        assertThat(r.outcome()).isEqualTo(AttemptOutcome.DELIVERED);
        assertThat(r.httpStatus()).isEqualTo(201);
        assertThat(r.detail()).startsWith("201 accepted: case id CA-2030-000001");
        assertThat(d.health()).isEqualTo(StateHealth.ANSWERED);
        assertThat(d.claimMove()).isEqualTo(new ClaimMove(ClaimStatus.SUBMITTING, ClaimStatus.SUBMITTED_TO_STATE));
        assertThat(Transitions.isAllowed(d.claimMove().from(), d.claimMove().to())).isTrue();
    }

    @Test
    void theDecisionDateFollowsTheDeadlineTableAndAReplayOrADuplicateCountsAsDelivered() {
        OutcomePolicy ninety = new OutcomePolicy(settings::get, Deadlines.statutory().with("CA", 90), ZoneId.of("UTC"),
                () -> 0.5);
        Decision replay = ninety.decide(row(0, 0), PAYLOAD, submission(200, "{\"caseId\":\"CA-1\"}", null), STARTED, 5,
                NOW, 0);
        Decision duplicate = decide(row(0, 0),
                submission(409, "{\"error\":\"duplicate_claim\",\"caseId\":\"CA-2\"}", null));

        assertThat(replay.record().kind()).isEqualTo(Kind.SENT);
        assertThat(replay.record().decisionDueOn()).isEqualTo(LocalDate.of(2030, 1, 1).plusDays(90));
        assertThat(replay.record().httpStatus()).isEqualTo(200);
        assertThat(duplicate.record().kind()).isEqualTo(Kind.SENT);
        assertThat(duplicate.record().caseId()).isEqualTo("CA-2");
        assertThat(duplicate.record().httpStatus()).isEqualTo(409);
    }

    /**
     * An amended claim's submission names the case the state rejected: a 409 naming that very case is the state not
     * taking the amendment, never the claim delivered under a case already decided. A new case id is a delivery.
     */
    @Test
    void anAmendmentAnsweredWithTheCaseItAmendsFailsForGoodAndWithANewCaseIsDelivered() {
        SubmissionPayload amended = PAYLOAD.amending("CA-2029-000042");
        Decision refused = policy.decide(row(0, 0), amended, submission(409,
                "{\"error\":\"duplicate_claim\",\"caseId\":\"CA-2029-000042\"}", null), STARTED, 50, NOW, 0);
        assertThat(refused.record().kind()).isEqualTo(Kind.FAILED);
        assertThat(refused.record().outcome()).isEqualTo(AttemptOutcome.PERMANENT);
        assertThat(refused.record().lastError()).contains("case CA-2029-000042")
                .contains("did not take the amendment");
        assertThat(refused.claimMove()).isNull();

        Decision anew = policy.decide(row(0, 0), amended, submission(201, "{\"caseId\":\"CA-2030-000007\"}", null),
                STARTED, 50, NOW, 0);
        assertThat(anew.record().kind()).isEqualTo(Kind.SENT);
        assertThat(anew.record().caseId()).isEqualTo("CA-2030-000007");
        // a state that takes the amendment by reopening the case it decided answers 201 with it: delivered
        Decision reopened = policy.decide(row(0, 0), amended,
                submission(201, "{\"caseId\":\"CA-2029-000042\"}", null), STARTED, 50, NOW, 0);
        assertThat(reopened.record().kind()).isEqualTo(Kind.SENT);

        // a row queued before submissions named the case they amend: the claim's own case id tells
        LeasedRow queuedBefore = new LeasedRow(70, 7, OutboxEvent.SUBMISSION_REQUESTED, Json.write(PAYLOAD), "key-7",
                0, 0, LEASE_END, "CA", "CA-2029-000042");
        Decision legacy = policy.decide(queuedBefore, PAYLOAD, submission(409,
                "{\"error\":\"duplicate_claim\",\"caseId\":\"CA-2029-000042\"}", null), STARTED, 50, NOW, 0);
        assertThat(legacy.record().kind()).isEqualTo(Kind.FAILED);
    }

    @Test
    void aTransientFailureWaitsAJitteredExponentialBackoffAndCountsTowardTheLimit() {
        Decision d = decide(row(3, 2), submission(503, "{\"error\":\"busy\",\"message\":\"state portal busy\"}", null));

        DeliveryRecord r = d.record();
        assertThat(r.kind()).isEqualTo(Kind.RETRY);
        assertThat(r.attempts()).isEqualTo(4);
        assertThat(r.retryCount()).isEqualTo(3);
        // third counted failure: ceiling 2 s * 2^2 = 8 s, half of it with a draw of one half
        assertThat(r.nextAttemptAt()).isEqualTo(NOW.plusSeconds(4));
        assertThat(r.lastError()).isEqualTo("503 busy: state portal busy");
        assertThat(r.outcome()).isEqualTo(AttemptOutcome.TRANSIENT);
        assertThat(r.httpStatus()).isEqualTo(503);
        assertThat(r.caseId()).isNull();
        assertThat(d.health()).isEqualTo(StateHealth.ANSWERED);
        assertThat(d.claimMove()).isNull();
    }

    @Test
    void theStatesRetryAfterIsAFloorUnderTheBackoff() {
        Decision longer = decide(row(0, 0), submission(503, "{}", Duration.ofSeconds(30)));

        assertThat(longer.record().kind()).isEqualTo(Kind.RETRY);
        assertThat(longer.record().retryCount()).isEqualTo(1);
        assertThat(longer.record().nextAttemptAt()).isEqualTo(NOW.plusSeconds(30));
        assertThat(longer.record().lastError()).contains("Retry-After 30 s");
        assertThat(longer.health()).isEqualTo(StateHealth.ANSWERED);
        // seventh counted failure with the limit raised: ceiling 2 s * 2^6 = 128 s, half of it
        settings.set(SETTINGS.withMaxAttempts(10));
        Decision shorter = decide(row(6, 6), submission(503, "{}", Duration.ofSeconds(1)));
        assertThat(shorter.record().nextAttemptAt()).isEqualTo(NOW.plusSeconds(64));
    }

    @Test
    void aRateLimitIsNotTheRowsFailureItWaitsWhatTheStateAskedAndHoldsTheWorker() {
        // at the limit: a counted failure would fail the row for good
        Decision asked = decide(row(4, 4), submission(429, "{\"error\":\"rate_limited\"}", Duration.ofSeconds(30)));

        DeliveryRecord r = asked.record();
        assertThat(r.kind()).isEqualTo(Kind.RETRY);
        assertThat(r.retryCount()).as("not counted toward the limit").isEqualTo(4);
        assertThat(r.attempts()).as("the attempt is kept").isEqualTo(5);
        assertThat(r.nextAttemptAt()).as("the state's wait, not a jittered draw").isEqualTo(NOW.plusSeconds(30));
        assertThat(r.outcome()).isEqualTo(AttemptOutcome.TRANSIENT);
        assertThat(r.httpStatus()).isEqualTo(429);
        assertThat(r.lastError()).startsWith("429 rate_limited").contains("Retry-After 30 s");
        assertThat(asked.health()).isEqualTo(StateHealth.THROTTLED);
        assertThat(asked.claimMove()).isNull();

        // the backoff ceiling of the worker's holds in a row, 2 s * 2^n, the state's Retry-After a floor under it
        Decision sooner = policy.decide(row(0, 0), PAYLOAD, submission(429, "{}", Duration.ofSeconds(1)), STARTED, 50,
                NOW, 3);
        assertThat(sooner.record().nextAttemptAt()).as("a state still answering 429 gets fewer calls")
                .isEqualTo(NOW.plusSeconds(16));
        Decision first = policy.decide(row(0, 0), PAYLOAD, submission(429, "{}", null), STARTED, 50, NOW, 0);
        Decision fourth = policy.decide(row(0, 0), PAYLOAD, submission(429, "{}", Duration.ZERO), STARTED, 50, NOW, 3);
        Decision capped = policy.decide(row(0, 0), PAYLOAD, submission(429, "{}", null), STARTED, 50, NOW, 30);
        assertThat(first.record().nextAttemptAt()).isEqualTo(NOW.plusSeconds(2));
        assertThat(fourth.record().nextAttemptAt()).isEqualTo(NOW.plusSeconds(16));
        assertThat(capped.record().nextAttemptAt()).isEqualTo(NOW.plus(Duration.ofMinutes(10)));
        assertThat(first.health()).isEqualTo(StateHealth.THROTTLED);

        // a backoff base of 0 and no wait from the state: a second all the same, not the row sent again at once
        settings.set(new WorkerSettings(Duration.ofSeconds(2), 8, 5, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(60)));
        Decision noBackoff = policy.decide(row(0, 0), PAYLOAD, submission(429, "{}", Duration.ZERO), STARTED, 50, NOW, 0);
        assertThat(noBackoff.record().nextAttemptAt()).isEqualTo(NOW.plusSeconds(1));
    }

    @Test
    void aPermanentRejectionFailsTheRowAtOnceWithTheStatesMessage() {
        Decision d = decide(row(0, 0),
                submission(422, "{\"error\":\"invalid_claim\",\"message\":\"holder id not found\"}", null));

        DeliveryRecord r = d.record();
        assertThat(r.kind()).isEqualTo(Kind.FAILED);
        assertThat(r.attempts()).isEqualTo(1);
        assertThat(r.retryCount()).isEqualTo(1);
        assertThat(r.lastError()).isEqualTo("422 invalid_claim: holder id not found");
        assertThat(r.nextAttemptAt()).isNull();
        assertThat(r.outcome()).isEqualTo(AttemptOutcome.PERMANENT);
        assertThat(r.httpStatus()).isEqualTo(422);
        assertThat(d.health()).isEqualTo(StateHealth.ANSWERED);
        assertThat(d.claimMove()).isNull();
    }

    @Test
    void theLastAllowedTransientFailureFailsTheRowForGoodAndTheLimitIsReadAtEachDecision() {
        Decision last = decide(row(4, 4), submission(500, "{}", null));
        Decision oneBefore = decide(row(3, 3), submission(500, "{}", null));
        settings.set(SETTINGS.withMaxAttempts(4));
        Decision lowered = decide(row(3, 3), submission(500, "{}", null));

        assertThat(last.record().kind()).isEqualTo(Kind.FAILED);
        assertThat(last.record().retryCount()).isEqualTo(5);
        assertThat(last.record().attempts()).isEqualTo(5);
        assertThat(last.record().lastError()).isEqualTo("500 Internal Server Error (gave up after 5 attempts)");
        assertThat(last.record().outcome()).isEqualTo(AttemptOutcome.TRANSIENT);
        assertThat(last.record().nextAttemptAt()).isNull();
        assertThat(oneBefore.record().kind()).isEqualTo(Kind.RETRY);
        assertThat(lowered.record().kind()).isEqualTo(Kind.FAILED);
        assertThat(lowered.record().lastError()).endsWith("(gave up after 4 attempts)");
    }

    @Test
    void aRefusalByTheStateIsDueAgainAtOnceWithoutCountingAndTellsTheWorkerToPause() {
        Decision d = decide(row(2, 2), submission(401, "{\"error\":\"unauthorized\"}", null));

        DeliveryRecord r = d.record();
        assertThat(r.kind()).isEqualTo(Kind.RETRY);
        assertThat(r.attempts()).isEqualTo(3);
        assertThat(r.retryCount()).as("not counted toward the limit").isEqualTo(2);
        assertThat(r.nextAttemptAt()).isEqualTo(NOW);
        assertThat(r.outcome()).isEqualTo(AttemptOutcome.SYSTEMIC);
        assertThat(r.httpStatus()).isEqualTo(401);
        assertThat(r.lastError()).contains("CLAIMDESK_STATE_TOKEN");
        assertThat(d.health()).isEqualTo(StateHealth.REFUSING);
    }

    @Test
    void anUnreachableStateGivesTheFirstBackoffStepWithoutCounting() {
        Decision d = decide(row(2, 2), StateAnswer.unreachable("cannot connect to https://state.example: refused"));

        DeliveryRecord r = d.record();
        assertThat(r.kind()).isEqualTo(Kind.RETRY);
        assertThat(r.attempts()).isEqualTo(3);
        assertThat(r.retryCount()).isEqualTo(2);
        assertThat(r.nextAttemptAt()).isEqualTo(NOW.plusSeconds(1));
        assertThat(r.outcome()).isEqualTo(AttemptOutcome.SYSTEMIC);
        assertThat(r.httpStatus()).isNull();
        assertThat(d.health()).isEqualTo(StateHealth.UNREACHABLE);
    }

    @Test
    void hostileAnswersAreTransientAndNeverMarkAClaimSubmittedWithoutACaseId() {
        Decision noCaseId = decide(row(0, 0), submission(200, "{\"status\":\"ok\"}", null));
        Decision html = decide(row(0, 0), submission(502, "<html><title>Bad Gateway</title></html>", null));
        byte[] bytes = {(byte) 0xff, (byte) 0xfe, 'x'};
        Decision garbage = decide(row(0, 0), submission(503, new String(bytes, StandardCharsets.UTF_8), null));

        for (Decision d : new Decision[] {noCaseId, html, garbage}) {
            assertThat(d.record().kind()).isEqualTo(Kind.RETRY);
            assertThat(d.record().outcome()).isEqualTo(AttemptOutcome.TRANSIENT);
            assertThat(d.record().caseId()).isNull();
            assertThat(d.claimMove()).isNull();
        }
        assertThat(noCaseId.record().lastError()).contains("no case id");
        assertThat(html.record().lastError()).isEqualTo("502 Bad Gateway: Bad Gateway");
    }

    @Test
    void anAnswerTheAdapterLeftUnclassifiedOrDeliveredWithoutACaseIdIsRetriedUpToTheLimit() {
        StateAnswer deliveredBlank = new StateAnswer(AttemptOutcome.DELIVERED, 201, " ", "201 accepted", null, null,
                false);
        StateAnswer noOutcome = new StateAnswer(null, 299, null, "299 odd", null, null, false);

        Decision blank = decide(row(0, 0), deliveredBlank);
        Decision unclassified = decide(row(0, 0), noOutcome);
        Decision nothing = decide(row(0, 0), null);
        Decision nothingAtTheLimit = decide(row(4, 4), null);

        assertThat(blank.record().kind()).isEqualTo(Kind.RETRY);
        assertThat(blank.record().lastError()).isEqualTo("201 accepted (no case id: not counted as delivered)");
        assertThat(blank.record().httpStatus()).isEqualTo(201);
        assertThat(blank.claimMove()).isNull();
        assertThat(unclassified.record().kind()).isEqualTo(Kind.RETRY);
        assertThat(unclassified.record().lastError()).isEqualTo("the state adapter gave no classified answer: 299 odd");
        assertThat(unclassified.record().retryCount()).isEqualTo(1);
        assertThat(nothing.record().kind()).isEqualTo(Kind.RETRY);
        assertThat(nothing.record().lastError()).isEqualTo("the state adapter gave no classified answer");
        assertThat(nothing.record().outcome()).isEqualTo(AttemptOutcome.TRANSIENT);
        assertThat(nothingAtTheLimit.record().kind()).isEqualTo(Kind.FAILED);
    }

    @Test
    void rowsThatCannotBeSentFailForGoodWithoutACall() {
        LeasedRow unknownType = new LeasedRow(70, 7, "state_claim_withdrawn", Json.write(PAYLOAD), "key-7", 0, 0,
                LEASE_END, "CA");
        LeasedRow claimGone = new LeasedRow(70, 7, OutboxEvent.SUBMISSION_REQUESTED, Json.write(PAYLOAD), "key-7", 0, 0,
                LEASE_END, null);
        LeasedRow malformed = new LeasedRow(70, 7, OutboxEvent.SUBMISSION_REQUESTED, "{not json", "key-7", 0, 0,
                LEASE_END, "CA");
        LeasedRow otherClaim = new LeasedRow(70, 8, OutboxEvent.SUBMISSION_REQUESTED, Json.write(PAYLOAD), "key-7", 0, 0,
                LEASE_END, "CA");

        assertThat(OutcomePolicy.sendable(unknownType).refusal())
                .isEqualTo("unknown event type 'state_claim_withdrawn': this worker delivers only "
                        + OutboxEvent.SUBMISSION_REQUESTED);
        assertThat(OutcomePolicy.sendable(claimGone).refusal())
                .isEqualTo("claim 7 no longer exists: there is nothing to submit");
        assertThat(OutcomePolicy.sendable(malformed).refusal()).startsWith("malformed payload: the payload is not a");
        assertThat(OutcomePolicy.sendable(otherClaim).refusal())
                .isEqualTo("malformed payload: the payload names claim 7 but the row belongs to claim 8");
        OutcomePolicy.Sendable fine = OutcomePolicy.sendable(row(0, 0));
        assertThat(fine.refusal()).isNull();
        assertThat(fine.payload()).isEqualTo(PAYLOAD);

        DeliveryRecord r = OutcomePolicy.refused(row(2, 1), "claim 7 no longer exists: there is nothing to submit",
                STARTED);
        assertThat(r.kind()).isEqualTo(Kind.FAILED);
        assertThat(r.attempts()).isEqualTo(3);
        assertThat(r.retryCount()).isEqualTo(2);
        assertThat(r.lastError()).isEqualTo("claim 7 no longer exists: there is nothing to submit");
        assertThat(r.detail()).isEqualTo(r.lastError());
        assertThat(r.outcome()).isEqualTo(AttemptOutcome.PERMANENT);
        assertThat(r.httpStatus()).isNull();
        assertThat(r.durationMs()).isZero();
        assertThat(r.startedAt()).isEqualTo(STARTED);
    }

    @Test
    void aClaimMoveIsMadeOnlyThroughTheTransitionTable() {
        assertThatThrownBy(() -> new ClaimMove(ClaimStatus.SUBMITTING, ClaimStatus.APPROVED))
                .isInstanceOf(TransitionRefusedException.class)
                .hasMessageContaining("cannot move a claim from SUBMITTING to APPROVED");
        assertThatThrownBy(() -> new ClaimMove(ClaimStatus.SUBMITTED_TO_STATE, ClaimStatus.SUBMITTED_TO_STATE))
                .isInstanceOf(TransitionRefusedException.class);
    }
}
