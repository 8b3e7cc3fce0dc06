package org.claimdesk.cli;

import java.time.LocalDate;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.store.ClaimQuery;
import picocli.CommandLine.Option;

/** Which claims, on the command line: the criteria of `claims list`, read into one {@link ClaimQuery}. */
final class ClaimFilterOptions {
    @Option(names = "--status", split = ",", paramLabel = "STATUS", completionCandidates = StatusNames.class,
            description = "Only these statuses, separated by commas (READY_FOR_SUBMISSION,SUBMITTING): one of"
                    + " ${COMPLETION-CANDIDATES}.")
    List<String> statuses;

    @Option(names = "--jurisdiction", paramLabel = "J", description = "Only this jurisdiction (e.g. CA).")
    String jurisdiction;

    @Option(names = "--search", paramLabel = "TEXT",
            description = "Text in the claim number, claimant, state property id or case id.")
    String search;

    @Option(names = "--overdue", description = "Only claims past their statutory decision date.")
    boolean overdue;

    /** The criteria, read and checked before any database is opened: a mistaken one is a usage error (exit 2). */
    ClaimQuery criteria() {
        Set<ClaimStatus> wanted = EnumSet.noneOf(ClaimStatus.class);
        if (statuses != null) {
            statuses.forEach(s -> wanted.add(CliSupport.status("--status", s)));
        }
        return ClaimQuery.all().withStatuses(wanted)
                .withJurisdiction(CliSupport.criterion("--jurisdiction", jurisdiction))
                .withSearch(CliSupport.criterion("--search", search));
    }

    /** The claims {@code criteria} select, {@code today} deciding what is overdue. */
    ClaimQuery asOf(ClaimQuery criteria, LocalDate today) {
        return overdue ? criteria.withOverdueOn(today) : criteria;
    }
}
