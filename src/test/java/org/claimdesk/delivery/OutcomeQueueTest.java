package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.claimdesk.store.DeliveryRecord;
import org.junit.jupiter.api.Test;

class OutcomeQueueTest {

    private static OutcomeQueue holding(int records) {
        OutcomeQueue queue = new OutcomeQueue();
        for (int id = 1; id <= records; id++) {
            queue.add(DeliveryRecord.released(id, java.time.Instant.EPOCH));
        }
        return queue;
    }

    private static List<Long> ids(List<DeliveryRecord> batch) {
        return batch.stream().map(DeliveryRecord::outboxEventId).toList();
    }

    @Test
    void aBatchTakesEveryOutcomeWaitingInTheOrderTheyCame() {
        OutcomeQueue queue = holding(5);
        List<DeliveryRecord> batch = new ArrayList<>();

        queue.nextBatch(batch, 2, () -> false);

        assertThat(ids(batch)).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void aBatchHoldsAtMostTheLargestTransactionsWorth() {
        OutcomeQueue queue = holding(OutcomeQueue.MAX_BATCH + 500);
        List<DeliveryRecord> batch = new ArrayList<>();

        queue.nextBatch(batch, 16, () -> false);
        assertThat(batch).hasSize(OutcomeQueue.MAX_BATCH);
        assertThat(batch.get(0).outboxEventId()).isEqualTo(1);

        batch.clear();
        queue.nextBatch(batch, 16, () -> false);
        assertThat(batch).hasSize(500);
        assertThat(batch.get(0).outboxEventId()).isEqualTo(OutcomeQueue.MAX_BATCH + 1);
    }

    @Test
    void fewerOutcomesThanSendersAreGatheredForAFewMillisecondsAndNothingComesBackEmpty() {
        OutcomeQueue queue = holding(3);
        List<DeliveryRecord> batch = new ArrayList<>();

        long started = System.nanoTime();
        queue.nextBatch(batch, 16, () -> false);
        long gatheredMs = (System.nanoTime() - started) / 1_000_000;
        assertThat(batch).hasSize(3);
        assertThat(gatheredMs).isGreaterThanOrEqualTo(OutcomeQueue.GATHER_MS - 1);

        batch.clear();
        queue.nextBatch(batch, 16, () -> false);
        assertThat(batch).isEmpty();
    }
}
