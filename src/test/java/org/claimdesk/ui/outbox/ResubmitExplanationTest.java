package org.claimdesk.ui.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.claimdesk.app.Resubmission;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.PayloadDiff;
import org.junit.jupiter.api.Test;

/** What the Resubmit dialog says will happen, by the row's last attempt and whether its claim was corrected. */
class ResubmitExplanationTest {

    private static Resubmission.Check check(AttemptOutcome last, boolean corrected) {
        return check(last, corrected, last == AttemptOutcome.TRANSIENT);
    }

    private static Resubmission.Check check(AttemptOutcome last, boolean corrected, boolean stateMayHoldIt) {
        PayloadDiff diff = PayloadDiff.of(Map.of("claimantName", "Maria Garcia"),
                Map.of("claimantName", corrected ? "Maria L. Garcia" : "Maria Garcia"));
        return new Resubmission.Check(12, 3, "UPC-2026-000003", ClaimStatus.SUBMITTING, DeliveryState.FAILED, null,
                "sub-1", "timeout: no reply from the state within 15000 ms", last, diff, 4, 1_000, stateMayHoldIt);
    }

    @Test
    void aCorrectedRowWhoseAnswerNeverCameSaysTheStateIsAskedFirst() {
        assertThat(ResubmitDialogView.explanation(check(AttemptOutcome.TRANSIENT, true))).isEqualTo(
                "Resubmitting sends the claim as it is now under a new idempotency key; row 12 is kept, marked"
                        + " superseded, with its attempts. Its last attempt had no answer from the state, so the state"
                        + " is asked first whether it holds the row; if it does, nothing is resubmitted.");
        assertThat(ResubmitDialogView.explanation(check(AttemptOutcome.PERMANENT, true)))
                .as("a refusal says the state does not hold it").doesNotContain("asked first");
    }

    @Test
    void anUnchangedRowThatDidNotFailForItsContentMayBeRequeued() {
        assertThat(ResubmitDialogView.explanation(check(AttemptOutcome.TRANSIENT, false)))
                .endsWith("It did not fail for its content: re-queueing it unchanged under its key is safe.");
    }
}
