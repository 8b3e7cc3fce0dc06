package org.claimdesk.domain;

import static org.claimdesk.domain.ClaimStatus.*;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The workflow's transition table, held as data in one place: the single authority on status changes.
 * Staff paths write a claim's status only through the store's {@code ClaimStore.changeStatus}, which
 * checks here first; the delivery worker writes only {@link #DELIVERED}, a change taken from this table.
 */
public final class Transitions {

    private static final Map<ClaimStatus, Set<ClaimStatus>> TABLE = new EnumMap<>(ClaimStatus.class);

    static {
        allow(IDENTITY_PENDING, EVIDENCE_PENDING, WITHDRAWN);
        allow(EVIDENCE_PENDING, IDENTITY_PENDING, READY_FOR_SUBMISSION, WITHDRAWN);
        allow(READY_FOR_SUBMISSION, EVIDENCE_PENDING, SUBMITTING, WITHDRAWN);
        // A submission is in flight: no withdrawal until it is delivered or abandoned.
        allow(SUBMITTING, SUBMITTED_TO_STATE, READY_FOR_SUBMISSION);
        allow(SUBMITTED_TO_STATE, NEEDS_INFO, APPROVED, REJECTED, WITHDRAWN);
        allow(NEEDS_INFO, SUBMITTED_TO_STATE, REJECTED, WITHDRAWN);
        allow(APPROVED, PAID);
        allow(REJECTED, EVIDENCE_PENDING);
        allow(PAID);
        allow(WITHDRAWN);
    }

    /** One allowed status change. */
    public record Change(ClaimStatus from, ClaimStatus to) {
        public Change {
            check(from, to);
        }
    }

    /**
     * Where a new claim may start: IDENTITY_PENDING, or a status reachable from it along the table before a
     * submission (SUBMITTING) or a final status; a later start needs a reason.
     */
    public static final ClaimStatus FIRST = IDENTITY_PENDING;

    private static final Set<ClaimStatus> STARTS = starts();

    private static Set<ClaimStatus> starts() {
        Set<ClaimStatus> found = EnumSet.of(FIRST);
        java.util.ArrayDeque<ClaimStatus> todo = new java.util.ArrayDeque<>(found);
        while (!todo.isEmpty()) {
            for (ClaimStatus next : TABLE.get(todo.poll())) {
                if (next != SUBMITTING && !TABLE.get(next).isEmpty() && found.add(next)) {
                    todo.add(next);
                }
            }
        }
        return Collections.unmodifiableSet(found);
    }

    /** The statuses a new claim may start in (see {@link #FIRST}), in declaration order. */
    public static Set<ClaimStatus> startingStatuses() {
        return STARTS;
    }

    /** Throws {@link ClaimDeskException} naming the statuses a new claim may start in. */
    public static void checkStart(ClaimStatus status) {
        if (!STARTS.contains(status)) {
            throw new ClaimDeskException("a new claim cannot start in " + status + "; it starts in one of " + STARTS);
        }
    }

    /** What delivery does when the state acknowledges a submission: SUBMITTING to SUBMITTED_TO_STATE. */
    public static final Change DELIVERED = new Change(SUBMITTING, SUBMITTED_TO_STATE);

    private Transitions() {
    }

    private static void allow(ClaimStatus from, ClaimStatus... targets) {
        Set<ClaimStatus> set = EnumSet.noneOf(ClaimStatus.class);
        Collections.addAll(set, targets);
        TABLE.put(from, Collections.unmodifiableSet(set));
    }

    /** The statuses a claim in {@code from} may move to, in declaration order; empty for final statuses. */
    public static Set<ClaimStatus> allowedFrom(ClaimStatus from) {
        return TABLE.get(from);
    }

    public static boolean isAllowed(ClaimStatus from, ClaimStatus to) {
        return TABLE.get(from).contains(to);
    }

    /**
     * Whether staff must say why a claim moves from {@code from} to {@code to}: a withdrawal, a rejection, a request
     * for information, every move back, and the state's approval and payment, whose reason records what the state
     * decided (approved in full or in part, and the amount; the warrant or check number, the amount paid and any
     * offset for debts owed). The console asks for the reason; the workflow refuses the move without one.
     */
    public static boolean needsReason(ClaimStatus from, ClaimStatus to) {
        return switch (to) {
            case WITHDRAWN, REJECTED, NEEDS_INFO, IDENTITY_PENDING, APPROVED, PAID -> true;
            case EVIDENCE_PENDING -> from != ClaimStatus.IDENTITY_PENDING;
            // the state's API takes submissions only: what was sent, and how, is known from the reason alone
            case SUBMITTED_TO_STATE -> from == ClaimStatus.NEEDS_INFO;
            default -> false;
        };
    }

    /** Throws {@link TransitionRefusedException} naming both statuses and the allowed ones. */
    public static void check(ClaimStatus from, ClaimStatus to) {
        if (!isAllowed(from, to)) {
            throw new TransitionRefusedException(from, to, allowedFrom(from));
        }
    }
}
