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
