package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.claimdesk.delivery.WorkerSnapshot.RunState;
import org.claimdesk.store.DeliveryStore;
import org.junit.jupiter.api.Test;

/** The publisher driven tick by tick, with a clock of the test's own and row counts the test sets. */
class SnapshotPublisherTest {
    private final AtomicLong millis = new AtomicLong(1_000_000);
    private final AtomicLong pending = new AtomicLong(100);
    private final AtomicLong sent = new AtomicLong(1_000);
    private final AtomicLong done = new AtomicLong();
    private final AtomicInteger countReads = new AtomicInteger();
    private final AtomicInteger sentReads = new AtomicInteger();
    private final AtomicInteger snapshotsMade = new AtomicInteger();
    private final List<WorkerSnapshot> heard = new ArrayList<>();
    private volatile boolean countsFail;
    /** How long a read of the counts takes, on the test's clock. */
    private final AtomicLong countTakes = new AtomicLong();

    private final SnapshotPublisher publisher = new SnapshotPublisher("worker-test", new SnapshotPublisher.RowCounts() {
        @Override
        public DeliveryStore.Counts counts() {
            if (countsFail) {
                throw new IllegalStateException("database is locked");
            }
            countReads.incrementAndGet();
            millis.addAndGet(countTakes.get());
            return new DeliveryStore.Counts(pending.get(), 10, 1);
        }

        @Override
        public long sentTotal() {
            sentReads.incrementAndGet();
            return sent.get();
        }
    }, this::snapshot, millis::get);

    private WorkerSnapshot snapshot() {
        snapshotsMade.incrementAndGet();
        DeliveryStore.Counts c = publisher.counts();
        return new WorkerSnapshot(Instant.ofEpochMilli(millis.get()), RunState.RUNNING, null, false, "simulated state",
                c.pending(), c.due(), 0, done.get(), 0, 0, 0, 0, 0, publisher.sentTotal(), c.failed(), 0.0, null, null);
    }

    private void advance(long ms) {
        millis.addAndGet(ms);
        publisher.tick();
    }

    /** Counts slow to read (a backoff over a million rows) are read less often, as often again once they are quick. */
    @Test
    void aSlowReadOfTheCountsSpacesTheNextReadsByTwentyTimesItsDuration() {
        publisher.tick();
        assertThat(countReads).hasValue(1);
        countTakes.set(100);
        advance(250);
        assertThat(countReads).hasValue(2);
        // the read took 100 ms: the next one 2,000 ms after it began, the ticks' time spent counting included
        for (int i = 0; i < 18; i++) {
            advance(100);
        }
        assertThat(countReads).as("1,900 ms after the slow read began").hasValue(2);
        countTakes.set(0);
        advance(100);
        assertThat(countReads).hasValue(3);
        advance(250);
        assertThat(countReads).as("a quick read: every quarter second again").hasValue(4);
        publisher.refresh();
        assertThat(countReads).as("a refresh reads at once").hasValue(5);
        // a read held up for 2 s: the next one 10 s after it began, not 40 s
        countTakes.set(2_000);
        advance(250);
        assertThat(countReads).hasValue(6);
        countTakes.set(0);
        for (int i = 0; i < 79; i++) { // to 9,900 ms after that read began (it took 2,000 of them)
            advance(100);
        }
        assertThat(countReads).hasValue(6);
        advance(100);
        assertThat(countReads).as("at most ten seconds apart").hasValue(7);
    }

    @Test
    void rowCountsAreReadAtTheFirstTickThenEveryQuarterSecondAndTheSentCountEveryTwoSeconds() {
        publisher.tick();
        assertThat(countReads).hasValue(1);
        assertThat(sentReads).hasValue(1);
        assertThat(publisher.counts()).isEqualTo(new DeliveryStore.Counts(100, 10, 1));
        assertThat(publisher.sentTotal()).isEqualTo(1_000);

        pending.set(90);
        advance(100);
        advance(100);
        assertThat(countReads).hasValue(1);
        assertThat(publisher.counts().pending()).isEqualTo(100);
        advance(50);
        assertThat(countReads).hasValue(2);
        assertThat(publisher.counts().pending()).isEqualTo(90);
        assertThat(sentReads).hasValue(1);
        for (int i = 0; i < 18; i++) { // to 2,050 ms: counts read at 0, 250, 550, ... 2,050
            advance(100);
        }
        assertThat(sentReads).hasValue(2);
        assertThat(countReads).hasValue(8);
        assertThat(snapshotsMade).as("no listener, no snapshot").hasValue(0);
    }

    @Test
    void aSnapshotIsPublishedWhenItChangesAndOtherwiseOncePerSecond() {
        publisher.addListener(heard::add);

        publisher.tick();
        assertThat(heard).hasSize(1);
        for (int i = 0; i < 9; i++) {
            advance(100);
        }
        assertThat(heard).as("unchanged for 900 ms").hasSize(1);
        advance(100);
        assertThat(heard).as("repeated after a second").hasSize(2);

        done.set(5);
        advance(100);
        assertThat(heard).as("a change goes out at once").hasSize(3);
        assertThat(heard.get(2).drainDone()).isEqualTo(5);
        sent.set(1_001);
        for (int i = 0; i < 10 && heard.size() == 3; i++) {
            advance(100);
        }
        assertThat(heard).hasSize(4);
        assertThat(heard.get(3).sentTotal()).isEqualTo(1_001);
    }

    /** The database gone for a while: snapshots go on with the counts last read, and each failed read is told. */
    @Test
    void whileTheCountsCannotBeReadSnapshotsGoOnAndEachFailureIsTold() {
        List<Throwable> told = new ArrayList<>();
        List<WorkerSnapshot> seen = new ArrayList<>();
        SnapshotPublisher failing = new SnapshotPublisher("worker-test", new SnapshotPublisher.RowCounts() {
            @Override
            public DeliveryStore.Counts counts() {
                if (countsFail) {
                    throw new IllegalStateException("the team database at db1:5432/claims cannot be reached");
                }
                return new DeliveryStore.Counts(7, 1, 2);
            }

            @Override
            public long sentTotal() {
                return 3;
            }
        }, this::snapshot, millis::get, told::add);
        failing.addListener(seen::add);
        failing.tick();
        assertThat(failing.counts().pending()).isEqualTo(7);

        countsFail = true;
        for (int i = 0; i < 5; i++) {
            millis.addAndGet(SnapshotPublisher.REPEAT_EVERY_MS);
            failing.tick();
        }
        assertThat(told).hasSize(5).allSatisfy(e -> assertThat(e).hasMessageContaining("cannot be reached"));
        assertThat(seen).as("published throughout, with the counts last read").hasSize(6);
        assertThat(failing.counts().pending()).isEqualTo(7);

        countsFail = false;
        millis.addAndGet(SnapshotPublisher.REPEAT_EVERY_MS);
        failing.tick();
        assertThat(told).hasSize(5);
    }

    @Test
    void aListenerThatThrowsDoesNotKeepTheOthersFromHearingAndAFailedCountReadKeepsTheLastCounts() {
        List<WorkerSnapshot> second = new ArrayList<>();
        Consumer<WorkerSnapshot> broken = s -> {
            throw new IllegalStateException("listener bug");
        };
        publisher.addListener(broken);
        publisher.addListener(second::add);

        publisher.tick();
        assertThat(second).hasSize(1);

        countsFail = true;
        pending.set(50);
        advance(300);
        assertThat(publisher.counts().pending()).isEqualTo(100);
        countsFail = false;
        advance(300);
        assertThat(publisher.counts().pending()).isEqualTo(50);
        assertThat(second).hasSize(2);

        publisher.removeListener(broken);
        publisher.removeListener(second::add); // another instance: stays
        pending.set(40);
        advance(300);
        assertThat(second).hasSize(3);
    }

    @Test
    void refreshReadsEveryCountAtOnceAndPublishTellsEveryListenerWhatever() {
        publisher.addListener(heard::add);
        publisher.tick();
        millis.addAndGet(10);
        pending.set(7);

        publisher.refresh();

        assertThat(countReads).hasValue(2);
        assertThat(sentReads).hasValue(2);
        assertThat(heard).hasSize(2);
        assertThat(heard.get(1).pending()).isEqualTo(7);
        WorkerSnapshot last = snapshot();
        publisher.publish(last);
        publisher.publish(last);
        assertThat(heard).hasSize(4).endsWith(last, last);
    }
}
