package org.claimdesk.cli;

import java.time.Instant;
import java.util.List;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.store.OutboxQuery;
import picocli.CommandLine.Option;

/** Which outbox rows, on the command line: the criteria of the console's Outbox page, read into one {@link OutboxQuery}. */
final class OutboxFilterOptions {
    @Option(names = "--jurisdiction", paramLabel = "J", description = "Only rows of claims in this jurisdiction.")
    String jurisdiction;

    @Option(names = "--error-like", paramLabel = "TEXT",
            description = "Text in the last error, in any case (%%, _ and quotes are plain characters).")
    String errorLike;

    @Option(names = "--signature", paramLabel = "SIGNATURE", description = "This error signature (see outbox failures).")
    String signature;

    @Option(names = {"--changed-before", "--failed-before"}, paramLabel = "INSTANT",
            description = "Rows that last changed before this instant (a failed row: when it failed), e.g. 2026-11-29T00:00:00Z.")
    Instant changedBefore;

    /** Whether any criterion was given. */
    boolean given() {
        return jurisdiction != null || errorLike != null || signature != null || changedBefore != null;
    }

    /**
     * The rows a bulk command acts on: the given ids, or with {@code allFailed} every failed row these criteria
     * select; refused when both or neither are given, or criteria come with ids.
     */
    OutboxQuery rows(List<Long> ids, boolean allFailed) {
        boolean byId = ids != null && !ids.isEmpty();
        if (byId == allFailed) {
            throw new UsageException("choose the rows with either --id or --all-failed");
        }
        if (byId && given()) {
            throw new UsageException("filters go with --all-failed, not with --id");
        }
        return byId ? OutboxQuery.byIds(ids) : narrow(OutboxQuery.all().withState(DeliveryState.FAILED));
    }

    /** {@code query} narrowed by the given criteria. */
    OutboxQuery narrow(OutboxQuery query) {
        return query.withJurisdiction(CliSupport.criterion("--jurisdiction", jurisdiction))
                .withErrorText(CliSupport.criterion("--error-like", errorLike))
                .withSignature(CliSupport.criterion("--signature", signature))
                .withChangedBefore(changedBefore);
    }
}
