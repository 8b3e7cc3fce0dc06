package org.claimdesk.ui.claims;

import java.util.ArrayList;
import java.util.List;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.EvidenceChecklist;
import org.claimdesk.domain.EvidenceKind;
import org.claimdesk.domain.Transitions;

/**
 * A button in the claim's action bar: one transition the workflow allows from the claim's status.
 *
 * @param submit true for "Submit to state", which queues the submission in the outbox
 * @param reasonRequired withdrawals, rejections, requests for information, moves back, approvals and payments need a
 *     reason ({@link Transitions#needsReason})
 */
public record ClaimAction(ClaimStatus from, ClaimStatus target, String label, boolean submit, boolean reasonRequired) {

    /**
     * The actions for a claim in {@code status}, in the transition table's order. A claim in SUBMITTING has
     * none here: delivery moves it on, or staff abandon its outbox row in the Outbox view.
     */
    public static List<ClaimAction> from(ClaimStatus status) {
        List<ClaimAction> actions = new ArrayList<>();
        if (status == ClaimStatus.SUBMITTING) {
            return actions;
        }
        for (ClaimStatus target : Transitions.allowedFrom(status)) {
            actions.add(new ClaimAction(status, target, label(status, target), target == ClaimStatus.SUBMITTING,
                    Transitions.needsReason(status, target)));
        }
        return actions;
    }


    static String label(ClaimStatus from, ClaimStatus to) {
        return switch (to) {
            case EVIDENCE_PENDING -> switch (from) {
                case IDENTITY_PENDING -> "Identity verified";
                case REJECTED -> "Amend claim";
                default -> "Back to evidence";
            };
            case IDENTITY_PENDING -> "Back to identity check";
            case READY_FOR_SUBMISSION -> "Evidence complete";
            case SUBMITTING -> "Submit to state";
            case SUBMITTED_TO_STATE -> "Information sent to state";
            case NEEDS_INFO -> "State asked for information";
            case APPROVED -> "Record approval";
            case PAID -> "Record payment";
            case REJECTED -> "Record rejection";
            case WITHDRAWN -> "Withdraw";
        };
    }

    /**
     * The question asked before the action runs, for a claim of {@code type} with {@code onFile} (null: not known yet):
     * marking it ready or submitting it adds what the evidence checklist finds missing.
     */
    public String confirmation(String claimNumber, ClaimType type, java.util.Collection<EvidenceKind> onFile) {
        String question = confirmation(claimNumber);
        if ((target == ClaimStatus.READY_FOR_SUBMISSION || submit) && type != null && onFile != null) {
            return EvidenceChecklist.warning(type, onFile)
                    .map(w -> question + " " + w + " The state may refuse a claim without them.").orElse(question);
        }
        return question;
    }

    /** The question asked before the action runs. */
    public String confirmation(String claimNumber) {
        if (submit) {
            return "Submit claim " + claimNumber + " to the state? It is queued in the outbox and delivered by the worker.";
        }
        if (from == ClaimStatus.NEEDS_INFO && target == ClaimStatus.SUBMITTED_TO_STATE) {
            return "Record that the information the state asked for on claim " + claimNumber + " was sent? ClaimDesk"
                    + " sends the state submissions only: send the documents by the state's own channel (mail, its"
                    + " portal) first, and say in the reason what went and how.";
        }
        return switch (target) {
            case APPROVED -> "Record that the state approved claim " + claimNumber + "? Say in the reason whether in"
                    + " full or in part, and the amount approved.";
            case PAID -> "Record that the state paid claim " + claimNumber + "? A payment is final: say in the reason"
                    + " the warrant or check number, the amount paid and any offset for debts owed.";
            case REJECTED -> "Record that the state rejected claim " + claimNumber + "? Say in the reason the state's"
                    + " reason code and why; an amended claim can go back to evidence.";
            case WITHDRAWN -> from == ClaimStatus.SUBMITTED_TO_STATE || from == ClaimStatus.NEEDS_INFO
                    ? "Withdraw claim " + claimNumber + "? ClaimDesk does not tell the state: send the claimant's"
                            + " written withdrawal by the state's own channel, and say in the reason what went and"
                            + " how. A withdrawal is final."
                    : "Withdraw claim " + claimNumber + "? The claimant withdrew in writing; a withdrawal is final.";
            default -> "Move claim " + claimNumber + " from " + from.label() + " to " + target.label() + "?";
        };
    }
}
