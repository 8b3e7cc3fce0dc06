package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.store.DeliveryRecord;
import org.claimdesk.store.DeliveryRecord.Attempt;
import org.claimdesk.store.LeasedRow;
import org.junit.jupiter.api.Test;

class WorkerCountersTest {
    private static final long SECOND = 1_000_000_000L;

    private static LeasedRow row(long id) {
        return new LeasedRow(id, id, "state_claim_submission_requested", "{}", "key-" + id, 0, 0, Instant.EPOCH, "CA");
    }

    private static Attempt attempt(AttemptOutcome outcome) {
        return new Attempt(Instant.EPOCH, 1, outcome, null, outcome.name());
    }

    @Test
    void writtenOutcomesCountAsSentRetriedOrFailedAndTheirErrorBecomesTheLastOne() {
        WorkerCounters counters = new WorkerCounters();
        List<DeliveryRecord> batch = List.of(
                DeliveryRecord.delivered(row(1), "CA-1", null, attempt(AttemptOutcome.DELIVERED)),
                DeliveryRecord.retry(row(2), 1, "503 busy", Instant.EPOCH, attempt(AttemptOutcome.TRANSIENT)),
                DeliveryRecord.retry(row(3), 0, "401 unauthorized", Instant.EPOCH, attempt(AttemptOutcome.SYSTEMIC)),
                DeliveryRecord.failed(row(4), 1, "422 invalid_claim", attempt(AttemptOutcome.PERMANENT)),
                DeliveryRecord.released(row(5)),
                DeliveryRecord.delivered(row(6), "CA-6", null, attempt(AttemptOutcome.DELIVERED)));

        counters.recorded(batch, new boolean[] {true, true, true, true, true, false}, 0);

        assertThat(counters.sent()).as("the row another worker took over is not sent by this one").isEqualTo(1);
        assertThat(counters.retried()).as("only transient failures count as retried").isEqualTo(1);
        assertThat(counters.failed()).isEqualTo(1);
        assertThat(counters.attempts()).as("every attempt, applied or not; a release is none").isEqualTo(5);
        assertThat(counters.drainDone()).isEqualTo(4);
        assertThat(counters.lastError()).isEqualTo("422 invalid_claim");
        assertThat(counters.perSecond(0)).isEqualTo(4.0);
    }

    @Test
    void aDrainsTotalStartsFromTheRowsDueAndNeverFallsBelowWhatIsDoneAndHeld() {
        WorkerCounters counters = new WorkerCounters();

        counters.leased(32, 100, 32);
        assertThat(counters.drainTotal()).isEqualTo(100);
        counters.leased(32, 0, 64);
        assertThat(counters.drainTotal()).isEqualTo(100);

        counters.recorded(List.of(DeliveryRecord.delivered(row(1), "CA-1", null, attempt(AttemptOutcome.DELIVERED))),
                new boolean[] {true}, 0);
        counters.leased(200, 0, 200);
        assertThat(counters.drainTotal()).as("one done and 200 held").isEqualTo(201);

        counters.drainEnded();
        assertThat(counters.drainDone()).isZero();
        assertThat(counters.drainTotal()).isZero();
        counters.leased(10, 0, 10);
        assertThat(counters.drainTotal()).as("a new drain of fewer rows than counted due").isEqualTo(10);
    }

    @Test
    void activityCountsEveryLeaseAndOutcomeTransactionAndCallsInFlightComeAndGo() {
        WorkerCounters counters = new WorkerCounters();
        long before = counters.activity();

        counters.leased(1, 1, 1);
        counters.outcomesCommitted();
        counters.outcomesCommitted();
        counters.callStarted();
        counters.callStarted();
        counters.callEnded();
        counters.error("cannot lease rows: disk I/O error");

        assertThat(counters.activity()).isEqualTo(before + 3);
        assertThat(counters.leases()).isEqualTo(1);
        assertThat(counters.commits()).isEqualTo(2);
        assertThat(counters.inFlight()).isEqualTo(1);
        assertThat(counters.lastError()).isEqualTo("cannot lease rows: disk I/O error");
    }

    @Test
    void theRateCountsRowsFinishedOverTheLastFewSeconds() {
        WorkerCounters counters = new WorkerCounters();
        List<DeliveryRecord> ten = java.util.stream.LongStream.rangeClosed(1, 10)
                .mapToObj(id -> DeliveryRecord.delivered(row(id), "CA-" + id, null, attempt(AttemptOutcome.DELIVERED)))
                .toList();
        boolean[] all = new boolean[10];
        java.util.Arrays.fill(all, true);

        counters.recorded(ten, all, 0);
        counters.recorded(ten, all, 2 * SECOND);

        assertThat(counters.perSecond(2 * SECOND)).isEqualTo(10.0);
        assertThat(counters.perSecond(20 * SECOND)).isZero();
    }
}
