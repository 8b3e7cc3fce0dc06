package org.claimdesk.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The brief's checklist: identity, proof of address and ownership; heirship for an heir, authority for a business. */
class EvidenceChecklistTest {
    @Test
    void eachClaimTypeNeedsItsDocuments() {
        assertThat(EvidenceChecklist.required(ClaimType.OWNER))
                .containsExactly(EvidenceKind.IDENTITY, EvidenceKind.ADDRESS, EvidenceKind.OWNERSHIP);
        assertThat(EvidenceChecklist.required(ClaimType.HEIR)).endsWith(EvidenceKind.HEIRSHIP);
        assertThat(EvidenceChecklist.required(ClaimType.BUSINESS)).endsWith(EvidenceKind.BUSINESS);
        assertThat(EvidenceChecklist.required(ClaimType.ON_BEHALF)).hasSize(3);
    }

    @Test
    void whatIsMissingIsNamedInTheChecklistsOrder() {
        assertThat(EvidenceChecklist.missing(ClaimType.HEIR, List.of(EvidenceKind.ADDRESS, EvidenceKind.IDENTITY)))
                .containsExactly(EvidenceKind.OWNERSHIP, EvidenceKind.HEIRSHIP);
        assertThat(EvidenceChecklist.warning(ClaimType.HEIR, List.of(EvidenceKind.IDENTITY)))
                .hasValue("Not on file by the evidence checklist: Proof of address, Proof of ownership, Heirship.");
        assertThat(EvidenceChecklist.warning(ClaimType.OWNER, List.of(EvidenceKind.OWNERSHIP, EvidenceKind.ADDRESS,
                EvidenceKind.IDENTITY, EvidenceKind.IDENTITY))).isEmpty();
    }
}
