package org.claimdesk.domain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StateFieldsTest {
    @Test
    void aRefusedSubmissionFieldIsTheClaimFieldStaffFix() {
        assertThat(StateFields.onTheClaim("taxIdLast4")).isEqualTo("taxId");
        assertThat(StateFields.onTheClaim(" holderId ")).isEqualTo("holderId");
        assertThat(StateFields.onTheClaim("evidence.address")).isEqualTo("evidence.address");
        assertThat(StateFields.onTheClaim("evidence[2].kind")).isEqualTo("evidence");
        assertThat(StateFields.onTheClaim("evidence[0]")).isEqualTo("evidence");
        assertThat(StateFields.onTheClaim(null)).isEmpty();
        // every field of the payload the state may name, but its last four digits, is a claim field of that name
        for (java.lang.reflect.RecordComponent c : SubmissionPayload.class.getRecordComponents()) {
            String onTheClaim = StateFields.onTheClaim(c.getName());
            if (ClaimField.byName(c.getName()).isPresent() || c.getName().equals("taxIdLast4")) {
                assertThat(ClaimField.byName(onTheClaim)).as(c.getName()).isPresent();
            }
        }
    }
}
