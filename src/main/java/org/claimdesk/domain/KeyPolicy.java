package org.claimdesk.domain;

import java.util.List;
import java.util.UUID;

/**
 * Which idempotency key a submission travels under, written once (docs/delivery.md repeats it for staff).
 * The state treats a key as one submission: it answers a replay with its first answer, and refuses the same
 * key with a different body. So:
 * <ul>
 *   <li>a payload that changed always gets a {@link #newKey() new key} (a resubmission, a new outbox row);</li>
 *   <li>an unchanged payload is re-queued under its old key (resending is safe, the state deduplicates);</li>
 *   <li>re-queueing a row the state refused for a permanent reason, unchanged, needs a confirmation with a
 *       reason ({@link #UNCHANGED_REFUSAL_WARNING}): sent unchanged it will be refused again.</li>
 * </ul>
 * "Changed" compares the payload built now from the claim with the row's payload, the key left out
 * ({@link PayloadDiff}).
 */
public final class KeyPolicy {
    /** What staff are told before re-queueing rows the state refused for good, unchanged. */
    public static final String UNCHANGED_REFUSAL_WARNING =
            "the state refused this data; sent unchanged it will be refused again";
    /** What staff are told before re-queueing rows whose claim was corrected since they were queued. */
    public static final String CORRECTED_REQUEUE_WARNING =
            "their claim was corrected since; a re-queue sends the old data under the old key, Resubmit sends the"
                    + " corrected data under a new one";

    /** What may be done with a failed row. */
    public enum Decision {
        /** Unchanged, failed for a reason a retry can fix: re-queue under the old key. */
        REQUEUE,
        /** Unchanged, refused for a permanent reason: re-queue under the old key only when confirmed with a reason. */
        REQUEUE_NEEDS_CONFIRMATION,
        /** Changed: resubmit as a new row under a new key; the old key must not carry the new data. */
        RESUBMIT
    }

    private KeyPolicy() {
    }

    /** The error code of a key the state first judged with another body (it holds something under that key). */
    public static final String KEY_REUSED = "idempotency_key_reused";

    /**
     * Whether the state may hold a row's submission though none of its {@code attempts} recorded an acceptance: one
     * of them went without a definite answer (a timeout, a lost connection, a 5xx or 429: the state may have recorded
     * it before failing to answer), and none was the state's refusal of it. A refusal settles it: the state answers a
     * key it accepted with that acceptance every time, and refuses the same body the same way every time (except
     * {@value #KEY_REUSED}, which says the key is held, with another body). Attempts that never reached the state
     * (unreachable, a row refused by ClaimDesk before any call, credentials refused) say nothing either way.
     */
    public static boolean stateMayHold(List<DeliveryAttempt> attempts) {
        boolean unanswered = false;
        for (DeliveryAttempt a : attempts) {
            if (a.outcome() == AttemptOutcome.PERMANENT && a.httpStatus() != null
                    && (a.detail() == null || !a.detail().startsWith(a.httpStatus() + " " + KEY_REUSED))) {
                return false;
            }
            unanswered |= a.outcome() == AttemptOutcome.TRANSIENT || a.outcome() == AttemptOutcome.DELIVERED;
        }
        return unanswered;
    }

    /** The longest idempotency key the state's contract takes. */
    public static final int MAX_KEY_CHARS = 200;

    /**
     * Why {@code key} cannot carry a submission, or null when it can: it travels in the Idempotency-Key header, so it
     * is 1 to {@value #MAX_KEY_CHARS} printable ASCII characters (letters, digits, punctuation, inner spaces), as the
     * state's contract and HTTP take them. Never echoes the key: the message may be printed or logged.
     */
    public static String keyRefusal(String key) {
        if (key == null || key.isEmpty()) {
            return "the idempotency key is empty";
        }
        if (key.length() > MAX_KEY_CHARS) {
            return "the idempotency key is longer than " + MAX_KEY_CHARS + " characters";
        }
        if (key.charAt(0) == ' ' || key.charAt(key.length() - 1) == ' '
                || !key.chars().allMatch(c -> c >= 0x20 && c <= 0x7e)) {
            return "the idempotency key may hold only printable ASCII characters (letters, digits, punctuation and"
                    + " inner spaces): an HTTP header cannot carry it";
        }
        return null;
    }

    /** A fresh idempotency key for a new submission of a claim. */
    public static String newKey() {
        return "sub-" + UUID.randomUUID();
    }

    /**
     * @param payloadChanged the claim's payload now differs from the failed row's
     * @param lastOutcome how the row's last attempt ended; null when it was never tried
     */
    public static Decision decide(boolean payloadChanged, AttemptOutcome lastOutcome) {
        if (payloadChanged) {
            return Decision.RESUBMIT;
        }
        return lastOutcome == AttemptOutcome.PERMANENT ? Decision.REQUEUE_NEEDS_CONFIRMATION : Decision.REQUEUE;
    }
}
