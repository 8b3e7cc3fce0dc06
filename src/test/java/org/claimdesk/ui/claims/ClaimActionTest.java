package org.claimdesk.ui.claims;

import static org.assertj.core.api.Assertions.assertThat;

import org.claimdesk.domain.ClaimStatus;
import org.junit.jupiter.api.Test;

/** What the console asks before a claim's action: what the reason must record, and what ClaimDesk does not do. */
class ClaimActionTest {
    private static ClaimAction action(ClaimStatus from, ClaimStatus to) {
        return ClaimAction.from(from).stream().filter(a -> a.target() == to).findFirst().orElseThrow();
    }

    @Test
    void anApprovalAPaymentAndARejectionAskForWhatTheStateDecided() {
        ClaimAction approve = action(ClaimStatus.SUBMITTED_TO_STATE, ClaimStatus.APPROVED);
        assertThat(approve.reasonRequired()).isTrue();
        assertThat(approve.confirmation("UPC-2026-000042")).contains("UPC-2026-000042")
                .contains("in full or in part").contains("amount approved");
        ClaimAction pay = action(ClaimStatus.APPROVED, ClaimStatus.PAID);
        assertThat(pay.reasonRequired()).isTrue();
        assertThat(pay.confirmation("UPC-2026-000042")).contains("final").contains("warrant or check number")
                .contains("offset");
        assertThat(action(ClaimStatus.SUBMITTED_TO_STATE, ClaimStatus.REJECTED).confirmation("UPC-2026-000042"))
                .contains("reason code");
    }

    /** Marking a claim ready, or submitting it, names what the evidence checklist finds missing; other steps do not. */
    @Test
    void markingReadyAndSubmittingSayWhatTheChecklistMisses() {
        java.util.List<org.claimdesk.domain.EvidenceKind> identityOnly = java.util.List.of(
                org.claimdesk.domain.EvidenceKind.IDENTITY);
        String ready = action(ClaimStatus.EVIDENCE_PENDING, ClaimStatus.READY_FOR_SUBMISSION)
                .confirmation("UPC-2026-000042", org.claimdesk.domain.ClaimType.HEIR, identityOnly);
        assertThat(ready).contains("Not on file by the evidence checklist: Proof of address, Proof of ownership,"
                + " Heirship.").endsWith("The state may refuse a claim without them.");
        assertThat(action(ClaimStatus.READY_FOR_SUBMISSION, ClaimStatus.SUBMITTING)
                .confirmation("UPC-2026-000042", org.claimdesk.domain.ClaimType.OWNER, identityOnly))
                .startsWith("Submit claim UPC-2026-000042 to the state?").contains("Proof of ownership");
        assertThat(action(ClaimStatus.EVIDENCE_PENDING, ClaimStatus.READY_FOR_SUBMISSION)
                .confirmation("UPC-2026-000042", org.claimdesk.domain.ClaimType.HEIR, null))
                .as("the evidence not read yet: nothing said of it").doesNotContain("checklist");
        assertThat(action(ClaimStatus.READY_FOR_SUBMISSION, ClaimStatus.EVIDENCE_PENDING)
                .confirmation("UPC-2026-000042", org.claimdesk.domain.ClaimType.HEIR, identityOnly))
                .doesNotContain("checklist");
    }

    @Test
    void aWithdrawalOnceTheStateHasTheClaimSaysClaimDeskDoesNotTellTheState() {
        for (ClaimStatus from : new ClaimStatus[] {ClaimStatus.SUBMITTED_TO_STATE, ClaimStatus.NEEDS_INFO}) {
            assertThat(action(from, ClaimStatus.WITHDRAWN).confirmation("UPC-2026-000042")).as(from.name())
                    .contains("ClaimDesk does not tell the state").contains("written withdrawal").contains("final");
        }
        assertThat(action(ClaimStatus.EVIDENCE_PENDING, ClaimStatus.WITHDRAWN).confirmation("UPC-2026-000042"))
                .doesNotContain("tell the state").contains("final");
        assertThat(action(ClaimStatus.IDENTITY_PENDING, ClaimStatus.EVIDENCE_PENDING).confirmation("UPC-2026-000042"))
                .isEqualTo("Move claim UPC-2026-000042 from " + ClaimStatus.IDENTITY_PENDING.label() + " to "
                        + ClaimStatus.EVIDENCE_PENDING.label() + "?");
    }
}
