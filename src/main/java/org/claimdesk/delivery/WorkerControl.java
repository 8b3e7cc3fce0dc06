package org.claimdesk.delivery;

import java.util.Optional;
import java.util.function.Consumer;

/**
 * What the console and the CLI may do with the delivery worker. Every method returns at once; the
 * work happens on the worker's own threads and shows up in the next {@link WorkerSnapshot}.
 */
public interface WorkerControl extends AutoCloseable {

    /**
     * Starts taking due rows every {@link WorkerSettings#interval()}; refused with the reason (a
     * {@code ClaimDeskException}) when {@link #refusal} says why it cannot deliver.
     */
    void start();

    /** Why this worker cannot deliver and does not start, when its state is not set ({@link StateNotSet}). */
    default Optional<String> refusal() {
        return Optional.empty();
    }

    /** Stops taking new rows; deliveries under way finish. */
    void pause(String reason);

    /** Resumes after a pause by staff or by the worker itself. */
    void resume();

    /** Looks for due rows now instead of at the next tick. */
    void drainNow();

    /** Counts pending, due and failed rows now and publishes them (a worker counts only while it runs). */
    void refreshCounts();

    WorkerSettings settings();

    /** Takes effect from the next tick. */
    void updateSettings(WorkerSettings settings);

    WorkerSnapshot snapshot();

    /** Snapshots go to {@code listener} on a worker thread, at most every 100 ms. */
    void addListener(Consumer<WorkerSnapshot> listener);

    void removeListener(Consumer<WorkerSnapshot> listener);

    /** Stops taking rows, finishes or releases in-flight leases, and ends every worker thread. */
    @Override
    void close();
}
