package org.claimdesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.claimdesk.domain.DataChange;
import org.junit.jupiter.api.Test;

/** The live updates' spacing, on a clock and a scheduler the test moves by hand. */
class ChangeBatchesTest {
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final List<Long> delays = new ArrayList<>();
    private final List<Runnable> scheduled = new ArrayList<>();
    private final List<Set<DataChange>> handedOn = new ArrayList<>();
    private final ChangeBatches batches = new ChangeBatches((delay, task) -> {
        delays.add(delay);
        scheduled.add(task);
    }, 300, now::get, handedOn::add);

    @Test
    void theFirstChangeAfterAQuietSpellGoesOnAtOnce() {
        batches.offer(Set.of(DataChange.CLAIMS));

        assertThat(delays).containsExactly(0L);
        runScheduled();
        assertThat(handedOn).containsExactly(Set.of(DataChange.CLAIMS));
    }

    @Test
    void aBurstBecomesOneHandOverOfEveryKindAtTheEndOfTheSpacing() {
        batches.offer(Set.of(DataChange.CLAIMS));
        runScheduled();
        now.addAndGet(100);

        batches.offer(Set.of(DataChange.OUTBOX));
        batches.offer(Set.of(DataChange.AUDIT));
        batches.offer(Set.of(DataChange.OUTBOX, DataChange.WORKER));

        assertThat(delays).as("one hand-over waits out the rest of the spacing").containsExactly(0L, 200L);
        now.addAndGet(200);
        runScheduled();
        assertThat(handedOn).containsExactly(Set.of(DataChange.CLAIMS),
                Set.of(DataChange.OUTBOX, DataChange.AUDIT, DataChange.WORKER));
    }

    @Test
    void nothingIsScheduledForAnEmptyReport() {
        batches.offer(Set.of());

        assertThat(delays).isEmpty();
    }

    private void runScheduled() {
        List<Runnable> due = new ArrayList<>(scheduled);
        scheduled.clear();
        due.forEach(Runnable::run);
    }
}
