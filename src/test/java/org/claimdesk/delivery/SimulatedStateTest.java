package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.time.ZoneOffset;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.SubmissionPayload;
import org.junit.jupiter.api.Test;

class SimulatedStateTest {

    @Test
    void caseIdsNameTheJurisdictionTheYearAndASixDigitSequence() {
        SimulatedState state = new SimulatedState(SimulatedState.Config.reliable());
        int year = LocalDate.now(ZoneOffset.UTC).getYear();
        SimulatedState.Reply first = state.submit("k-1", null, 1L, " ny ");
        SimulatedState.Reply second = state.submit("k-2", null, 2L, null);
        assertThat(first.status()).isEqualTo(201);
        assertThat(first.caseId()).isEqualTo("NY-" + year + "-100001");
        assertThat(second.caseId()).isEqualTo("ST-" + year + "-100002");
        assertThat(state.submit("k-1", null, 1L, "NY").caseId()).as("a replayed key").isEqualTo(first.caseId());
        SimulatedState.Reply duplicate = state.submit("k-other", null, 1L, "NY");
        assertThat(duplicate.status()).isEqualTo(409);
        assertThat(duplicate.caseId()).isEqualTo(first.caseId());
    }

    @Test
    void preparingTheAdapterSendsNothingToTheState() {
        SimulatedState state = new SimulatedState(SimulatedState.Config.reliable());
        SimulatedStateAdapter adapter = new SimulatedStateAdapter(state);
        adapter.prepare();
        assertThat(state.posts()).isEmpty();
        SubmissionPayload payload = new SubmissionPayload(7, "k-7", "UPC-2026-000007", "CA", "40000007", "Holder",
                "HLD-1", "AC01", "OWNER", "Claimant", "1234", 100, "2026-11-01");
        StateAnswer answer = adapter.submit("k-7", payload, "{}");
        assertThat(answer.outcome()).isEqualTo(AttemptOutcome.DELIVERED);
        assertThat(state.postsFor("k-7")).isEqualTo(1);
    }
}
