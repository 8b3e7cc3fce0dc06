package org.claimdesk.cli;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.claimdesk.app.DeadlineSettings;
import org.claimdesk.app.OutboxOperations;
import org.claimdesk.app.OutboxView;
import org.claimdesk.app.Queries;
import org.claimdesk.delivery.StateAdapter;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.FailureGroup;
import org.claimdesk.domain.NotFoundException;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.Database;
import org.claimdesk.store.OutboxQuery;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "outbox", description = "Outbox rows: the submissions on their way to the state.",
        subcommands = {OutboxCommand.ListOutbox.class, OutboxCommand.Requeue.class, OutboxCommand.Abandon.class,
            OutboxCommand.Attempts.class, OutboxCommand.Failures.class})
final class OutboxCommand {

    @Command(name = "list", description = "Outbox rows, oldest first; every match unless --limit.")
    static final class ListOutbox extends CliSupport implements Callable<Integer> {
        @Option(names = "--state", paramLabel = "STATE", description = "pending, sent, failed or abandoned.")
        String state;

        @Option(names = "--jurisdiction", paramLabel = "J", description = "Only rows of claims in this jurisdiction.")
        String jurisdiction;

        @Option(names = "--error-like", paramLabel = "TEXT", description = "Text in the last error.")
        String errorLike;

        @Option(names = "--limit", paramLabel = "N", description = "At most N rows.")
        int limit;

        @Option(names = "--json", description = "One JSON array.")
        boolean json;

        @Override
        public Integer call() {
            DeliveryState wanted = parseState(state);
            try (Database db = openDatabase()) {
                OutboxQuery query = OutboxQuery.all().withState(wanted).withJurisdiction(jurisdiction)
                        .withErrorText(errorLike).withPage(0, Math.max(0, limit));
                List<OutboxView> rows = new Queries(db, clock()).outbox(query).stream().map(OutboxView::of).toList();
                if (json) {
                    printJson(rows);
                } else {
                    out().printf("%-8s %-8s %-10s %8s %-40s %s%n", "ID", "CLAIM", "STATE", "ATTEMPTS", "KEY", "LAST ERROR");
                    for (OutboxView r : rows) {
                        out().printf("%-8d %-8d %-10s %8d %-40s %s%n", r.outboxEventId(), r.claimId(), r.deliveryState(),
                                r.attempts(), r.idempotencyKey(), r.lastError() == null ? "" : r.lastError());
                    }
                    out().printf("%d row(s)%n", rows.size());
                }
            }
            return 0;
        }
    }

    @Command(name = "requeue", description = {
        "Put failed rows back to pending, due now, with their backoff restarted; attempt history is kept.",
        "Rows are chosen by id or by filter; the count is previewed first (--dry-run stops there)."})
    static final class Requeue extends CliSupport implements Callable<Integer> {
        @Option(names = "--id", paramLabel = "ID", split = ",", description = "Outbox row ids.")
        List<Long> ids;

        @Option(names = "--all-failed", description = "Every failed row matching the filters below.")
        boolean allFailed;

        @Option(names = "--error-like", paramLabel = "TEXT", description = "With --all-failed: text in the last error (any case).")
        String errorLike;

        @Option(names = "--signature", paramLabel = "SIGNATURE", description = "With --all-failed: this error signature (see outbox failures).")
        String signature;

        @Option(names = "--jurisdiction", paramLabel = "J", description = "With --all-failed: claims in this jurisdiction.")
        String jurisdiction;

        @Option(names = "--failed-before", paramLabel = "INSTANT", description = "With --all-failed: rows failed before this instant (e.g. 2026-11-29T00:00:00Z).")
        Instant failedBefore;

        @Option(names = "--actor", required = true, paramLabel = "NAME", description = "Who does it.")
        String actor;

        @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "Why (kept in the audit trail).")
        String reason;

        @Option(names = "--reconcile", description = "Ask the state by idempotency key first; complete rows it already holds.")
        boolean reconcile;

        @Mixin
        StateOptions state;

        @Option(names = "--dry-run", description = "Only preview how many rows would be re-queued.")
        boolean dryRun;

        @Option(names = "--json", description = "Print the result as JSON.")
        boolean json;

        @Override
        public Integer call() {
            boolean byId = ids != null && !ids.isEmpty();
            if (byId == allFailed) {
                throw new IllegalArgumentException("choose the rows with either --id or --all-failed");
            }
            if (byId && (errorLike != null || signature != null || jurisdiction != null || failedBefore != null)) {
                throw new IllegalArgumentException("filters go with --all-failed, not with --id");
            }
            OutboxOperations.RequeueFilter filter = byId ? OutboxOperations.RequeueFilter.byIds(ids)
                    : OutboxOperations.RequeueFilter.allFailed().withErrorText(errorLike).withSignature(signature)
                            .withJurisdiction(jurisdiction).withFailedBefore(failedBefore);
            try (Database db = openDatabase()) {
                OutboxOperations operations = new OutboxOperations(db, clock(), DeadlineSettings.current());
                OutboxOperations.Preview preview = operations.preview(filter);
                preview.notFailed().forEach((id, st) ->
                        err().printf("outbox row %d is %s: only failed rows are re-queued; skipped%n", id, st));
                if (dryRun) {
                    if (json) {
                        printJson(Map.of("dryRun", true, "wouldRequeue", preview.count(),
                                "ids", preview.targets().stream().map(OutboxOperations.Target::outboxEventId).toList()));
                    } else {
                        out().printf("would re-queue %d failed row(s)%s%n", preview.count(),
                                reconcile ? " (after asking the state about each)" : "");
                    }
                    return ClaimDeskCommand.EXIT_OK;
                }
                if (preview.count() == 0) {
                    throw new ClaimDeskException("no failed row matches: nothing was re-queued");
                }
                OutboxOperations.RequeueResult result;
                try (StateAdapter adapter = reconcile ? state.open() : null) {
                    if (adapter != null && !json) {
                        out().printf("reconciling with the %s%n", StateOptions.describe(adapter));
                    }
                    result = operations.requeue(preview, actor, reason, adapter, done -> {
                        if (!json && preview.count() > OutboxOperations.CHUNK) {
                            err().printf("requeue: %d of %d%n", done, preview.count());
                            err().flush();
                        }
                    });
                }
                if (json) {
                    printJson(result);
                } else {
                    out().printf("re-queued %d row(s), reconciled %d with the state's case id, skipped %d changed since the preview%s%n",
                            result.requeued(), result.reconciled(), result.skipped(),
                            result.unconfirmed() == 0 ? "" : "; " + result.unconfirmed()
                                    + " re-queued without an answer from the state (resending under the same key is safe)");
                }
            }
            return ClaimDeskCommand.EXIT_OK;
        }
    }

    @Command(name = "abandon", description = "Give up failed rows: abandoned, and their claims back to READY_FOR_SUBMISSION.")
    static final class Abandon extends CliSupport implements Callable<Integer> {
        @Option(names = "--id", required = true, paramLabel = "ID", split = ",", description = "Outbox row ids.")
        List<Long> ids;

        @Option(names = "--actor", required = true, paramLabel = "NAME", description = "Who does it.")
        String actor;

        @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "Why (kept in the audit trail).")
        String reason;

        @Option(names = "--json", description = "Print the result as JSON.")
        boolean json;

        @Override
        public Integer call() {
            try (Database db = openDatabase()) {
                OutboxOperations.AbandonResult result = new OutboxOperations(db, clock(), DeadlineSettings.current())
                        .abandon(ids, actor, reason);
                if (json) {
                    printJson(result);
                } else {
                    result.skippedReasons().values().forEach(r -> err().println(r + "; skipped"));
                    out().printf("abandoned %d row(s); their claims are back in READY_FOR_SUBMISSION%n", result.abandoned());
                }
                if (result.abandoned() == 0) {
                    throw new ClaimDeskException("nothing was abandoned: none of the rows is failed");
                }
            }
            return ClaimDeskCommand.EXIT_OK;
        }
    }

    @Command(name = "attempts", description = "Every delivery attempt of one outbox row, first to last.")
    static final class Attempts extends CliSupport implements Callable<Integer> {
        @Parameters(paramLabel = "ID", description = "Outbox row id.")
        long id;

        @Option(names = "--json", description = "One JSON array.")
        boolean json;

        @Override
        public Integer call() {
            try (Database db = openDatabase()) {
                Queries queries = new Queries(db, clock());
                OutboxEvent row = queries.outboxEvent(id).orElseThrow(() -> new NotFoundException("no outbox row with id " + id));
                List<DeliveryAttempt> attempts = queries.attempts(id);
                if (json) {
                    printJson(attempts);
                    return ClaimDeskCommand.EXIT_OK;
                }
                out().printf("outbox row %d (claim %d) %s, %d attempt(s), key %s%n", row.outboxEventId(), row.aggregateId(),
                        row.deliveryState().dbValue(), row.attempts(), row.idempotencyKey());
                for (DeliveryAttempt a : attempts) {
                    String detail = a.detail() == null ? "" : a.detail().replaceAll("\\s+", " ");
                    out().printf("  #%-3d %s %6d ms  %-9s %-4s %s%s%n", a.attemptNo(), a.startedAt(), a.durationMs(),
                            a.outcome(), a.httpStatus() == null ? "-" : a.httpStatus(),
                            a.field() == null ? "" : "[field " + a.field() + "] ",
                            detail.length() > 160 ? detail.substring(0, 159) + "…" : detail);
                }
            }
            return ClaimDeskCommand.EXIT_OK;
        }
    }

    @Command(name = "failures", description = "Failed rows grouped by error signature, largest group first.")
    static final class Failures extends CliSupport implements Callable<Integer> {
        @Option(names = "--json", description = "One JSON array.")
        boolean json;

        @Override
        public Integer call() {
            try (Database db = openDatabase()) {
                List<FailureGroup> groups = new Queries(db, clock()).failureGroups();
                if (json) {
                    printJson(groups);
                    return ClaimDeskCommand.EXIT_OK;
                }
                out().printf("%7s  %-20s  %-20s  %s%n", "ROWS", "FIRST", "LAST", "SIGNATURE");
                for (FailureGroup g : groups) {
                    out().printf("%7d  %-20s  %-20s  %s%n", g.count(), g.firstSeen().truncatedTo(ChronoUnit.SECONDS),
                            g.lastSeen().truncatedTo(ChronoUnit.SECONDS), g.signature());
                }
                out().printf("%d group(s)%n", groups.size());
            }
            return ClaimDeskCommand.EXIT_OK;
        }
    }

    static DeliveryState parseState(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return DeliveryState.fromDb(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown delivery state '" + text
                    + "'; expected pending, sent, failed or abandoned");
        }
    }
}
