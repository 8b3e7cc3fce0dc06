package org.claimdesk.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeyPolicyTest {
    @Test
    void aChangedPayloadAlwaysGetsANewKey() {
        for (AttemptOutcome outcome : AttemptOutcome.values()) {
            assertThat(KeyPolicy.decide(true, outcome)).isEqualTo(KeyPolicy.Decision.RESUBMIT);
        }
        assertThat(KeyPolicy.decide(true, null)).isEqualTo(KeyPolicy.Decision.RESUBMIT);
    }

    @Test
    void anUnchangedPayloadIsRequeuedUnderItsKeyAndAPermanentRefusalNeedsConfirmation() {
        assertThat(KeyPolicy.decide(false, AttemptOutcome.TRANSIENT)).isEqualTo(KeyPolicy.Decision.REQUEUE);
        assertThat(KeyPolicy.decide(false, AttemptOutcome.SYSTEMIC)).isEqualTo(KeyPolicy.Decision.REQUEUE);
        assertThat(KeyPolicy.decide(false, null)).isEqualTo(KeyPolicy.Decision.REQUEUE);
        assertThat(KeyPolicy.decide(false, AttemptOutcome.PERMANENT)).isEqualTo(KeyPolicy.Decision.REQUEUE_NEEDS_CONFIRMATION);
        assertThat(KeyPolicy.UNCHANGED_REFUSAL_WARNING)
                .isEqualTo("the state refused this data; sent unchanged it will be refused again");
    }

    @Test
    void aKeyIsPrintableAsciiAsAnHttpHeaderCarriesIt() {
        assertThat(KeyPolicy.keyRefusal(KeyPolicy.newKey())).isNull();
        assertThat(KeyPolicy.keyRefusal("office key 7/2026:#1")).isNull();
        assertThat(KeyPolicy.keyRefusal("k".repeat(KeyPolicy.MAX_KEY_CHARS))).isNull();
        assertThat(KeyPolicy.keyRefusal("k".repeat(KeyPolicy.MAX_KEY_CHARS + 1))).contains("longer than 200");
        for (String bad : List.of("sub\u20132026-17", "clé-1", "tab\there", "line\nbreak", " padded", "padded ")) {
            assertThat(KeyPolicy.keyRefusal(bad)).as(bad).contains("printable ASCII").doesNotContain(bad.strip());
        }
        assertThat(KeyPolicy.keyRefusal("")).isNotNull();
    }

    private static DeliveryAttempt attempt(AttemptOutcome outcome, Integer status, String detail) {
        return new DeliveryAttempt(1, 7, 1, java.time.Instant.EPOCH, 10, outcome, status, detail, "w1", null);
    }

    @Test
    void theStateMayHoldARowOnlyWhenAnAttemptWentUnansweredAndNoneWasItsRefusal() {
        DeliveryAttempt timeout = attempt(AttemptOutcome.TRANSIENT, null, "timeout: no reply from the state within 15000 ms");
        DeliveryAttempt unavailable = attempt(AttemptOutcome.TRANSIENT, 503, "503 unavailable: maintenance");
        DeliveryAttempt refused = attempt(AttemptOutcome.PERMANENT, 422, "422 invalid_claim: holder id not found");
        DeliveryAttempt keyReused = attempt(AttemptOutcome.PERMANENT, 422,
                "422 idempotency_key_reused: this Idempotency-Key was first sent with a different body");
        DeliveryAttempt unreachable = attempt(AttemptOutcome.SYSTEMIC, null, "connection refused");
        DeliveryAttempt credentials = attempt(AttemptOutcome.SYSTEMIC, 401, "401 unauthorized: token expired");
        DeliveryAttempt malformed = attempt(AttemptOutcome.PERMANENT, null, "malformed payload: amountCents missing");

        assertThat(KeyPolicy.stateMayHold(List.of())).as("never sent").isFalse();
        assertThat(KeyPolicy.stateMayHold(List.of(timeout))).isTrue();
        assertThat(KeyPolicy.stateMayHold(List.of(unavailable, unavailable))).isTrue();
        assertThat(KeyPolicy.stateMayHold(List.of(refused))).isFalse();
        assertThat(KeyPolicy.stateMayHold(List.of(timeout, refused))).as("refused: not accepted before").isFalse();
        assertThat(KeyPolicy.stateMayHold(List.of(refused, timeout))).as("refused: never accepted after").isFalse();
        assertThat(KeyPolicy.stateMayHold(List.of(timeout, malformed))).as("ClaimDesk's own refusal says nothing")
                .isTrue();
        assertThat(KeyPolicy.stateMayHold(List.of(timeout, keyReused))).as("the key is held, with another body")
                .isTrue();
        assertThat(KeyPolicy.stateMayHold(List.of(unreachable, credentials, malformed))).as("never reached it")
                .isFalse();
    }

    @Test
    void newKeysAreDistinctAndInTheSubmissionFormat() {
        String a = KeyPolicy.newKey();
        String b = KeyPolicy.newKey();
        assertThat(a).matches("sub-[0-9a-f-]{36}").isNotEqualTo(b);
    }

    @Test
    void theDiffIgnoresTheKeyAndListsChangedFieldsInOrder() {
        Map<String, Object> before = new LinkedHashMap<>();
        before.put("claimId", 7);
        before.put("idempotencyKey", "sub-old");
        before.put("holderId", "HLD");
        before.put("taxIdLast4", "4567");
        before.put("amountCents", 100);
        Map<String, Object> after = new LinkedHashMap<>(before);
        after.put("idempotencyKey", "sub-new");
        after.put("holderId", "HLD-100200");
        after.put("amountCents", 100L);
        after.put("evidence", List.of(Map.of("kind", "address")));

        PayloadDiff diff = PayloadDiff.of(before, after);

        assertThat(diff.fields()).containsExactly("holderId", "evidence");
        assertThat(diff.changes().get(0)).hasToString("holderId: \"HLD\" -> \"HLD-100200\"");
        assertThat(diff.changes().get(1).before()).isNull();
        assertThat(diff.describeFields()).isEqualTo("holderId, evidence");
        assertThat(PayloadDiff.of(before, before).isEmpty()).isTrue();
        assertThat(PayloadDiff.of(before, before).describeFields()).isEqualTo("nothing");
    }
}
