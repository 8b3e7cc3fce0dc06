package org.claimdesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A reason typed for a try that failed is offered again for a while, not the next week. */
class RetryReasonsTest {

    @Test
    void aReasonIsOfferedAgainUntilTheActionGoesThroughOrAnHourHasPassed() {
        AtomicLong nanos = new AtomicLong(1_000);
        RetryReasons reasons = new RetryReasons(nanos::get);

        reasons.failed("42:APPROVED", "approved in full, $1,200");
        reasons.failed("43:PAID", "warrant W-1");
        assertThat(reasons.recall("42:APPROVED")).isEqualTo("approved in full, $1,200");
        reasons.succeeded("42:APPROVED");
        assertThat(reasons.recall("42:APPROVED")).isEmpty();

        nanos.addAndGet(RetryReasons.KEPT_FOR.toNanos());
        assertThat(reasons.recall("43:PAID")).as("an hour after its try").isEqualTo("warrant W-1");
        nanos.addAndGet(1);
        assertThat(reasons.recall("43:PAID")).as("past the hour").isEmpty();

        reasons.failed("44:REJECTED", "  ");
        assertThat(reasons.recall("44:REJECTED")).isEmpty();
    }
}
