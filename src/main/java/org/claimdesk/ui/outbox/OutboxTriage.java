package org.claimdesk.ui.outbox;

import java.time.Instant;
import java.util.List;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.ui.common.TaskRunner;

/**
 * The outbox triage operations the console needs. Every method reads or writes the database and runs
 * on a background thread; writes are audited with the actor and the reason.
 */
public interface OutboxTriage {

    /** Re-queue sends a row again (its attempt history kept); abandon gives it up for good. */
    enum Action {
        REQUEUE("Re-queue", "re-queued"),
        ABANDON("Abandon", "abandoned");

        private final String verb;
        private final String past;

        Action(String verb, String past) {
            this.verb = verb;
            this.past = past;
        }

        public String verb() {
            return verb;
        }

        public String past() {
            return past;
        }
    }

    /** Failed rows sharing one error signature (the message with numbers and ids stripped). */
    record ErrorGroup(String signature, int count, Instant firstSeen, Instant lastSeen, String sampleError) {
    }

    /**
     * What an action would do right now: how many rows it would change, how many it would skip and why.
     *
     * @param basis what the implementation needs to apply exactly this preview (the rows as it saw them)
     */
    record Preview(Action action, int eligible, int skipped, String skippedWhy, Object basis) {
        public String describe() {
            return eligible + " will be " + action.past() + (skipped == 0 ? ""
                    : ", " + skipped + " skipped because " + skippedWhy);
        }
    }

    /**
     * What an action did.
     *
     * @param reconciled rows the state already had (found by idempotency key) and that were marked sent instead
     */
    record Result(Action action, int changed, int skipped, int reconciled, List<String> notes) {
    }

    /** Failed rows matching {@code filter} (its state ignored), grouped by signature, biggest group first. */
    List<ErrorGroup> errorGroups(OutboxQuery filter);

    /** Ids of the failed rows matching {@code filter} whose error has {@code signature}, oldest first. */
    List<Long> idsInGroup(OutboxQuery filter, String signature);

    /** Ids of every row matching {@code filter}, oldest first. */
    List<Long> ids(OutboxQuery filter);

    Preview preview(Action action, List<Long> ids);

    /**
     * Applies a preview to its rows that are still eligible; rows whose state changed since the preview are
     * skipped. With {@code reconcile}, each row is first looked up at the state by its idempotency key, and a
     * row the state already accepted is marked sent instead of being sent twice.
     */
    Result apply(Preview preview, String actor, String reason, boolean reconcile, TaskRunner.Progress progress);
}
