package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.SubmissionPayload;
import org.claimdesk.store.Json;
import org.claimdesk.testing.StatePayloads;
import org.junit.jupiter.api.Test;

class SimulatedStateTest {

    @Test
    void caseIdsNameTheJurisdictionTheYearAndASixDigitSequence() {
        SimulatedState state = new SimulatedState(SimulatedState.Config.reliable());
        int year = LocalDate.now(ZoneOffset.UTC).getYear();
        String ny = StatePayloads.valid(1).put("jurisdiction", "NY")
                .put("statePropertyId", PropertyLedger.openPropertyId("NY", 1)).toString();
        SimulatedState.Reply first = state.submit("k-1", null, ny);
        SimulatedState.Reply second = state.submit("k-2", null, StatePayloads.valid(2).toString());
        assertThat(first.status()).as(first.json()).isEqualTo(201);
        assertThat(first.caseId()).isEqualTo("NY-" + year + "-100001");
        assertThat(second.caseId()).isEqualTo("CA-" + year + "-100002");
        SimulatedState.Reply replay = state.submit("k-1", null, ny);
        assertThat(replay.status()).as("a replayed key").isEqualTo(200);
        assertThat(replay.caseId()).isEqualTo(first.caseId());
        SimulatedState.Reply duplicate = state.submit("k-other", null, ny);
        assertThat(duplicate.status()).isEqualTo(409);
        assertThat(duplicate.error()).isEqualTo("duplicate_claim");
        assertThat(duplicate.caseId()).isEqualTo(first.caseId());
        assertThat(state.acceptances()).containsEntry(1L, 1).containsEntry(2L, 1);
    }

    @Test
    void preparingTheAdapterSendsNothingToTheStateAndTheAdapterSendsTheRowsPayloadText() {
        SimulatedState state = new SimulatedState(SimulatedState.Config.reliable());
        SimulatedStateAdapter adapter = new SimulatedStateAdapter(state);
        adapter.prepare();
        assertThat(state.posts()).isEmpty();
        SubmissionPayload payload = new SubmissionPayload(7, "k-7", "UPC-2026-000007", "CA", "40000007",
                "Wells Fargo Bank NA", "HLD-100200", "AC01", "OWNER", "Claimant", "1234", 100, "2026-11-01");
        StateAnswer answer = adapter.submit("k-7", payload, Json.write(payload));
        assertThat(answer.outcome()).isEqualTo(AttemptOutcome.DELIVERED);
        assertThat(state.postsFor("k-7")).isEqualTo(1);

        SubmissionPayload unknownHolder = new SubmissionPayload(8, "k-8", "UPC-2026-000008", "CA", "40000008",
                "Holder", "HLD-000001", "AC01", "OWNER", "Claimant", "1234", 100, "2026-11-01");
        StateAnswer refused = adapter.submit("k-8", unknownHolder, Json.write(unknownHolder));
        assertThat(refused.outcome()).isEqualTo(AttemptOutcome.PERMANENT);
        assertThat(refused.httpStatus()).isEqualTo(422);
        assertThat(refused.field()).isEqualTo("holderId");
        assertThat(refused.message()).isEqualTo("422 invalid_claim: holder id HLD-000001 is not in CA's holder registry");
    }

    @Test
    void theSamePayloadIsRefusedIdenticallyEveryTimeAndByEveryInstance() {
        String body = StatePayloads.valid(3).put("holderId", HolderRegistry.standard().unregisteredHolderId(3)).toString();
        SimulatedState one = new SimulatedState(SimulatedState.Config.reliable());
        SimulatedState other = new SimulatedState(new SimulatedState.Config(Duration.ZERO, 0, null, 99));
        SimulatedState.Reply first = one.submit("a", null, body);
        SimulatedState.Reply again = one.submit("a", null, body);
        SimulatedState.Reply underAnotherKey = one.submit("b", null, body);
        SimulatedState.Reply elsewhere = other.submit("c", null, body);
        assertThat(first.status()).isEqualTo(422);
        assertThat(first.error()).isEqualTo("invalid_claim");
        assertThat(first.field()).isEqualTo("holderId");
        assertThat(again).isEqualTo(first);
        assertThat(underAnotherKey).isEqualTo(first);
        assertThat(elsewhere).isEqualTo(first);
        assertThat(one.acceptances()).isEmpty();
        assertThat(one.lookup("a", null).status()).as("nothing was accepted under the key").isEqualTo(404);
    }

    @Test
    void aKeySentAgainWithAnotherBodyIsRefusedAndNeverAcceptedTwice() {
        SimulatedState state = new SimulatedState(SimulatedState.Config.reliable());
        String body = StatePayloads.valid(4).toString();
        SimulatedState.Reply accepted = state.submit("k", null, body);
        assertThat(accepted.status()).isEqualTo(201);

        SimulatedState.Reply changed = state.submit("k", null, StatePayloads.valid(4).put("amountCents", 12_346).toString());
        assertThat(changed.status()).isEqualTo(422);
        assertThat(changed.error()).isEqualTo("idempotency_key_reused");
        assertThat(changed.message()).contains("claim 4").contains("a changed submission needs a new key");

        String reordered = "{\"filedOn\":\"2026-03-01\", \"amountCents\": 12345.0, "
                + body.substring(1, body.indexOf(",\"amountCents\"")) + "}";
        SimulatedState.Reply replay = state.submit("k", null, reordered);
        assertThat(replay.status()).as("the same body, keys in another order: %s", reordered).isEqualTo(200);
        assertThat(replay.caseId()).isEqualTo(accepted.caseId());

        String refusedBody = StatePayloads.valid(5).put("taxIdLast4", "12").toString();
        assertThat(state.submit("r", null, refusedBody).error()).isEqualTo("invalid_field");
        SimulatedState.Reply fixedUnderTheOldKey = state.submit("r", null, StatePayloads.valid(5).toString());
        assertThat(fixedUnderTheOldKey.status()).isEqualTo(422);
        assertThat(fixedUnderTheOldKey.error()).as("a fixed payload needs a new key").isEqualTo("idempotency_key_reused");
        assertThat(state.submit("r2", null, StatePayloads.valid(5).toString()).status()).isEqualTo(201);
        assertThat(state.acceptances().values()).containsOnly(1);
    }

    /** A claim the state holds, amended after its case was decided: the submission naming that case is judged anew. */
    @Test
    void anAmendmentNamingTheCaseHeldIsANewFilingAndAnythingElseADuplicate() {
        SimulatedState state = new SimulatedState(SimulatedState.Config.reliable());
        SimulatedState.Reply first = state.submit("k1", null, StatePayloads.valid(6).toString());
        assertThat(first.status()).isEqualTo(201);

        SimulatedState.Reply plain = state.submit("k2", null, StatePayloads.valid(6).toString());
        assertThat(plain.status()).isEqualTo(409);
        assertThat(plain.caseId()).isEqualTo(first.caseId());
        SimulatedState.Reply otherCase = state.submit("k3", null,
                StatePayloads.valid(6).put("amends", "CA-1999-000001").toString());
        assertThat(otherCase.status()).as("naming a case the state does not hold for it").isEqualTo(409);

        SimulatedState.Reply amended = state.submit("k4", null,
                StatePayloads.valid(6).put("amends", first.caseId()).toString());
        assertThat(amended.status()).isEqualTo(201);
        assertThat(amended.caseId()).isNotEqualTo(first.caseId());
        SimulatedState.Reply again = state.submit("k5", null, StatePayloads.valid(6).toString());
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.caseId()).as("the new filing's case is the one held").isEqualTo(amended.caseId());
    }

    @Test
    void beyondItsRateLimitTheStateAsksToSlowDownAndJudgesNothing() {
        java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong(5_000_000_000L);
        SimulatedState state = new SimulatedState(SimulatedState.Config.reliable().withRateLimit(2),
                StateRules.standard(), nanos::get);
        String body = StatePayloads.valid(6).toString();

        assertThat(state.submit("a", null, body).status()).isEqualTo(201);
        nanos.addAndGet(400_000_000L);
        assertThat(state.submit("b", null, StatePayloads.valid(7).toString()).status()).isEqualTo(201);
        SimulatedState.Reply limited = state.submit("c", null, StatePayloads.valid(8).toString());
        assertThat(limited.status()).isEqualTo(429);
        assertThat(limited.error()).isEqualTo("rate_limited");
        assertThat(limited.retryAfterSeconds()).isEqualTo(1);
        assertThat(state.acceptances()).doesNotContainKey(8L);

        nanos.addAndGet(600_000_000L); // a second after the first: one place free
        assertThat(state.submit("c", null, StatePayloads.valid(8).toString()).status()).isEqualTo(201);
        assertThat(state.submit("d", null, StatePayloads.valid(9).toString()).status()).isEqualTo(429);
        assertThat(new SimulatedState(SimulatedState.Config.reliable()).submit("e", null, body).status())
                .as("no limit unless set").isEqualTo(201);
    }

    @Test
    void aNumberNoFieldCanHoldIsABadBodyNotAnAnswerLost() {
        SimulatedState state = new SimulatedState(SimulatedState.Config.reliable());
        SimulatedState.Reply reply = state.submit("big", null, "{\"claimId\": 1, \"amountCents\": 1e400}");
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.error()).isEqualTo("invalid_body");
        assertThat(reply.message()).contains("out of range");
    }

    @Test
    void transientTroubleIsDrawnAtItsRateAndRecordsNothing() {
        SimulatedState state = new SimulatedState(SimulatedState.Config.reliable().withTransientRate(1));
        String body = StatePayloads.valid(6).toString();
        for (int i = 0; i < 30; i++) {
            SimulatedState.Reply reply = state.submit("k", null, body);
            assertThat(reply.status()).isEqualTo(503);
            assertThat(reply.retryAfterSeconds()).isNull();
        }
        assertThat(state.postsFor("k")).isEqualTo(30);
        assertThat(state.acceptances()).isEmpty();
        assertThat(state.submit("k", null, "{\"claimId\":6}").status()).as("the key was never judged").isEqualTo(503);

        assertThatThrownBy(() -> SimulatedState.Config.reliable().withTransientRate(1.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("between 0 and 1");
    }

    @Test
    void aBodyThatIsNotAJsonObjectIsRefusedAsSuch() {
        SimulatedState state = new SimulatedState(SimulatedState.Config.reliable());
        assertThat(state.submit("k", null, "not json").error()).isEqualTo("invalid_body");
        assertThat(state.submit("k", null, "[1]").error()).isEqualTo("invalid_body");
        assertThat(state.submit("", null, "{}").error()).isEqualTo("missing_idempotency_key");
        assertThat(new SimulatedState(SimulatedState.Config.reliable().withToken("t")).submit("k", "Bearer x", "{}")
                .status()).isEqualTo(401);
    }
}
