package org.claimdesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** An audit entry's details in words, as the Audit page and a claim's Audit tab show them. */
class AuditDetailsTest {

    @Test
    void aStatusChangeIsSaidByItsStatusesNames() {
        String advance = "{\"from\":\"IDENTITY_PENDING\",\"to\":\"EVIDENCE_PENDING\",\"claimNumber\":\"UPC-2025-000216\"}";
        assertThat(AuditDetails.summary(advance, false)).isEqualTo("Identity pending → Evidence pending");
        assertThat(AuditDetails.summary(advance, true))
                .isEqualTo("Identity pending → Evidence pending, claimNumber UPC-2025-000216");
        assertThat(AuditDetails.summary("{\"from\":\"LATER\",\"to\":\"PAID\"}", false)).isEqualTo("LATER → Paid");
    }

    @Test
    void aFieldsChangeIsSaidBeforeAndAfter() {
        assertThat(AuditDetails.summary("{\"field\":\"statePropertyId\",\"before\":\"1234567\",\"after\":\"123456789\"}",
                false)).isEqualTo("statePropertyId: 1234567 → 123456789");
        assertThat(AuditDetails.summary("{\"field\":\"claimantEmail\",\"before\":\"\",\"after\":\"a@b.example\"}", false))
                .isEqualTo("claimantEmail: — → a@b.example");
        // on one line and short, as long as the table's row; a value that is not text as written
        assertThat(AuditDetails.summary("{\"field\":\"claimantAddress\",\"before\":\"1 Main St\\nApt 2\","
                + "\"after\":\"" + "y".repeat(300) + "\"}", false)).startsWith("claimantAddress: 1 Main St Apt 2 → yyy")
                .hasSize(200).endsWith("…");
        assertThat(AuditDetails.summary("{\"field\":\"amountCents\",\"before\":100,\"after\":{\"cents\":250}}", false))
                .isEqualTo("amountCents: 100 → {\"cents\":250}");
    }

    @Test
    void otherDetailsAreTheirValuesInTurnAndTextThatIsNotAnObjectAsWritten() {
        assertThat(AuditDetails.summary("{\"outboxEventId\":2813,\"idempotencyKey\":\"sub-1\",\"claimNumber\":\"UPC-1\","
                + "\"previous\":null,\"overrides\":{\"by\":\"kim\"}}", false))
                .isEqualTo("outboxEventId 2813, idempotencyKey sub-1, overrides {\"by\":\"kim\"}");
        assertThat(AuditDetails.summary("not json\nat all", true)).isEqualTo("not json at all");
        assertThat(AuditDetails.summary("[1,2]", true)).isEqualTo("[1,2]");
        assertThat(AuditDetails.summary(null, true)).isEmpty();
        assertThat(AuditDetails.summary("{\"reason\":\"" + "x".repeat(300) + "\"}", true)).hasSize(200).endsWith("…");
    }
}
