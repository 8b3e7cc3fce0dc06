package org.claimdesk.domain;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The evidence a claim should have on file before it is ready for submission, as the domain brief's checklist has it:
 * identity verified, a proof of address linking the claimant to the holder's report and a proof of ownership; for an
 * heir's claim, proof of heirship (a death certificate and letters or a small-estate affidavit); for a business's, its
 * proof of authority. A state may refuse a claim without them. Staff are told what is missing when they mark a claim
 * ready or submit it; the rule does not refuse the step, as documents may be on paper the state gets another way.
 */
public final class EvidenceChecklist {
    private EvidenceChecklist() {
    }

    /** The kinds a claim of {@code type} should have on file, in the checklist's order. */
    public static List<EvidenceKind> required(ClaimType type) {
        List<EvidenceKind> kinds = new ArrayList<>(List.of(EvidenceKind.IDENTITY, EvidenceKind.ADDRESS,
                EvidenceKind.OWNERSHIP));
        if (type == ClaimType.HEIR) {
            kinds.add(EvidenceKind.HEIRSHIP);
        }
        if (type == ClaimType.BUSINESS) {
            kinds.add(EvidenceKind.BUSINESS);
        }
        return List.copyOf(kinds);
    }

    /** The required kinds not among {@code onFile}, in the checklist's order. */
    public static List<EvidenceKind> missing(ClaimType type, Collection<EvidenceKind> onFile) {
        return required(type).stream().filter(k -> !onFile.contains(k)).toList();
    }

    /** As {@link #warning(ClaimType, Collection)} for the claim's {@code references}: a withdrawn one does not count. */
    public static Optional<String> warningFor(ClaimType type, List<Evidence> references) {
        return warning(type, Evidence.kindsOnFile(references));
    }

    /** "Not on file by the evidence checklist: Proof of ownership, Heirship." when something is missing. */
    public static Optional<String> warning(ClaimType type, Collection<EvidenceKind> onFile) {
        List<EvidenceKind> missing = missing(type, onFile);
        return missing.isEmpty() ? Optional.empty() : Optional.of("Not on file by the evidence checklist: "
                + missing.stream().map(EvidenceKind::label).collect(Collectors.joining(", ")) + ".");
    }
}
