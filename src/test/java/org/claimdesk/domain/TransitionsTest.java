package org.claimdesk.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.claimdesk.domain.ClaimStatus.*;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TransitionsTest {

    /** The claims office's transition table, written out independently of the production table. */
    private static final Map<ClaimStatus, Set<ClaimStatus>> EXPECTED = Map.of(
            IDENTITY_PENDING, EnumSet.of(EVIDENCE_PENDING, WITHDRAWN),
            EVIDENCE_PENDING, EnumSet.of(IDENTITY_PENDING, READY_FOR_SUBMISSION, WITHDRAWN),
            READY_FOR_SUBMISSION, EnumSet.of(EVIDENCE_PENDING, SUBMITTING, WITHDRAWN),
            SUBMITTING, EnumSet.of(SUBMITTED_TO_STATE, READY_FOR_SUBMISSION),
            SUBMITTED_TO_STATE, EnumSet.of(NEEDS_INFO, APPROVED, REJECTED, WITHDRAWN),
            NEEDS_INFO, EnumSet.of(SUBMITTED_TO_STATE, REJECTED, WITHDRAWN),
            APPROVED, EnumSet.of(PAID),
            PAID, EnumSet.noneOf(ClaimStatus.class),
            REJECTED, EnumSet.of(EVIDENCE_PENDING),
            WITHDRAWN, EnumSet.noneOf(ClaimStatus.class));

    static Stream<Arguments> everyPair() {
        return Stream.of(ClaimStatus.values())
                .flatMap(from -> Stream.of(ClaimStatus.values()).map(to -> Arguments.of(from, to)));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("everyPair")
    void everyPairIsAllowedOrRefusedAsTheTableSays(ClaimStatus from, ClaimStatus to) {
        boolean expected = EXPECTED.get(from).contains(to);
        assertThat(Transitions.isAllowed(from, to)).isEqualTo(expected);
        if (expected) {
            Transitions.check(from, to);
        } else {
            assertThatThrownBy(() -> Transitions.check(from, to))
                    .isInstanceOf(TransitionRefusedException.class)
                    .hasMessageContaining(from.name())
                    .hasMessageContaining(to.name());
        }
    }

    @Test
    void refusalNamesTheAllowedTargets() {
        assertThatThrownBy(() -> Transitions.check(IDENTITY_PENDING, PAID))
                .hasMessage("cannot move a claim from IDENTITY_PENDING to PAID; allowed from IDENTITY_PENDING: "
                        + "EVIDENCE_PENDING, WITHDRAWN");
        assertThatThrownBy(() -> Transitions.check(PAID, WITHDRAWN))
                .hasMessageContaining("none (final status)");
    }

    @Test
    void withdrawalIsRefusedWhileASubmissionIsInFlight() {
        assertThat(Transitions.isAllowed(SUBMITTING, WITHDRAWN)).isFalse();
    }

    @Test
    void onlyPaidAndWithdrawnAreFinal() {
        assertThat(EnumSet.allOf(ClaimStatus.class).stream().filter(ClaimStatus::isFinal))
                .containsExactlyInAnyOrder(PAID, WITHDRAWN);
    }

    @Test
    void parseAcceptsFriendlySpellings() {
        assertThat(ClaimStatus.parse("ready-for-submission")).isEqualTo(READY_FOR_SUBMISSION);
        assertThat(ClaimStatus.parse(" needs info ")).isEqualTo(NEEDS_INFO);
        assertThatThrownBy(() -> ClaimStatus.parse("DONE")).hasMessageContaining("unknown status 'DONE'");
    }

    /**
     * The moves that need a reason: a withdrawal, a rejection, a request for information, every move back, and the
     * information the state asked for recorded as sent (the state's API takes submissions only, so the reason says
     * what went and how); the moves forward that the work itself explains do not.
     */
    @Test
    void theMovesThatNeedAReason() {
        assertThat(Transitions.needsReason(NEEDS_INFO, SUBMITTED_TO_STATE)).isTrue();
        assertThat(Transitions.needsReason(SUBMITTED_TO_STATE, NEEDS_INFO)).isTrue();
        assertThat(Transitions.needsReason(EVIDENCE_PENDING, WITHDRAWN)).isTrue();
        assertThat(Transitions.needsReason(READY_FOR_SUBMISSION, EVIDENCE_PENDING)).isTrue();
        assertThat(Transitions.needsReason(IDENTITY_PENDING, EVIDENCE_PENDING)).isFalse();
        assertThat(Transitions.needsReason(SUBMITTING, SUBMITTED_TO_STATE)).as("delivered").isFalse();
        assertThat(Transitions.needsReason(APPROVED, PAID)).as("the warrant, the amount paid, any offset").isTrue();
        assertThat(Transitions.needsReason(SUBMITTED_TO_STATE, APPROVED)).as("in full or in part").isTrue();
    }
}
