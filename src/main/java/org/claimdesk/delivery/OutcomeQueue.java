package org.claimdesk.delivery;

import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.claimdesk.store.DeliveryRecord;

/**
 * The outcomes the senders (and the loader, for rows it gives back) hand to the committer, taken out in
 * batches. {@link #nextBatch} waits up to {@value #POLL_MS} ms for a first outcome, then adds those
 * already waiting and, while the batch holds fewer than one per sender, those that arrive within
 * {@value #GATHER_MS} ms. With a state that answers in tens of milliseconds the senders finish one
 * after the other; committing each outcome as it came would make a transaction, a lease scan and a
 * write of every touched page per handful of rows. Waiting a few milliseconds adds that much to an
 * outcome's commit and nothing to the lease, which is held until the commit.
 */
final class OutcomeQueue {
    /** Most outcomes written in one transaction. */
    static final int MAX_BATCH = 1_000;
    /** How long the committer waits for more outcomes when it has fewer than one per sender. */
    static final long GATHER_MS = 5;
    /** How long one wait for a first outcome lasts before the committer looks whether it should stop. */
    static final long POLL_MS = 20;

    private final LinkedBlockingQueue<DeliveryRecord> queue = new LinkedBlockingQueue<>();

    void add(DeliveryRecord record) {
        queue.add(record);
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    /**
     * Fills the empty {@code batch} with the next outcomes: none when nothing came within {@value #POLL_MS}
     * ms or the thread was interrupted; otherwise up to {@value #MAX_BATCH}, gathered while fewer than
     * {@code senders} and the gathering time is not over, and not once {@code stopping} says so.
     */
    void nextBatch(List<DeliveryRecord> batch, int senders, BooleanSupplier stopping) {
        DeliveryRecord first;
        try {
            first = queue.poll(POLL_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            return;
        }
        if (first == null) {
            return;
        }
        batch.add(first);
        gather(batch, Math.min(MAX_BATCH, senders), stopping);
    }

    private void gather(List<DeliveryRecord> batch, int enough, BooleanSupplier stopping) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GATHER_MS);
        while (true) {
            queue.drainTo(batch, MAX_BATCH - batch.size());
            long left = deadline - System.nanoTime();
            if (batch.size() >= enough || left <= 0 || stopping.getAsBoolean()) {
                return;
            }
            try {
                DeliveryRecord next = queue.poll(left, TimeUnit.NANOSECONDS);
                if (next == null) {
                    return;
                }
                batch.add(next);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
