package org.claimdesk.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.claimdesk.app.DeadlineSettings;
import org.claimdesk.app.OutboxTriage;
import org.claimdesk.app.OutboxView;
import org.claimdesk.app.Queries;
import org.claimdesk.app.Resubmission;
import org.claimdesk.delivery.StateAdapter;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.FailureGroup;
import org.claimdesk.domain.KeyPolicy;
import org.claimdesk.domain.NotFoundException;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.Database;
import org.claimdesk.store.OutboxQuery;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "outbox", description = "Outbox rows: the submissions on their way to the state.",
        subcommands = {OutboxCommand.ListOutbox.class, OutboxCommand.Requeue.class, OutboxCommand.Resubmit.class,
            OutboxCommand.Abandon.class,
            OutboxCommand.Attempts.class, OutboxCommand.Failures.class})
final class OutboxCommand {

    @Command(name = "list", description = "Outbox rows, oldest first; every match unless --limit.")
    static final class ListOutbox extends CliSupport implements Callable<Integer> {
        @Option(names = "--state", paramLabel = "STATE", description = "pending, sent, failed, abandoned or superseded.")
        String state;

        @Mixin
        OutboxFilterOptions filter;

        @Option(names = "--limit", paramLabel = "N", description = "At most N rows.")
        Integer limit;

        @Option(names = "--json", description = "One JSON array.")
        boolean json;

        @Override
        public Integer call() {
            DeliveryState wanted = parseState(state);
            int max = limit(limit);
            try (Database db = openDatabase()) {
                OutboxQuery query = filter.narrow(OutboxQuery.all().withState(wanted)).withPage(0, max);
                Queries queries = new Queries(db, clock(db));
                // written as read: a million rows go out in bounded memory
                if (json) {
                    // closed only once every row is out: a list cut short by a failure is not valid JSON
                    JsonArray array = jsonArray();
                    queries.eachOutbox(query, e -> array.add(OutboxView.of(e)));
                    array.close();
                } else {
                    out().printf("%-8s %-8s %-10s %8s %-40s %s%n", "ID", "CLAIM", "STATE", "ATTEMPTS", "KEY", "LAST ERROR");
                    long[] count = {0};
                    queries.eachOutbox(query, e -> {
                        OutboxView r = OutboxView.of(e);
                        out().printf("%-8d %-8d %-10s %8d %-40s %s%n", r.outboxEventId(), r.claimId(), r.deliveryState(),
                                r.attempts(), r.idempotencyKey(), r.lastError() == null ? "" : r.lastError());
                        count[0]++;
                    });
                    out().printf("%d row(s)%n", count[0]);
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

        @Option(names = "--all-failed", description = "Every failed row matching the filter options.")
        boolean allFailed;

        @Mixin
        OutboxFilterOptions filter;

        @Option(names = "--actor", required = true, paramLabel = "NAME", description = "Who does it.")
        String actor;

        @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "Why (kept in the audit trail)."
                + " For rows the state refused for good and whose claim is unchanged, also the confirmation that they"
                + " may be sent again unchanged (the key policy, docs/delivery.md).")
        String reason;

        @Option(names = "--reconcile", description = "Ask the state by idempotency key first; complete rows it already holds.")
        boolean reconcile;

        @Option(names = "--send-old-data", description = "Re-queue rows whose claim was corrected since they were"
            + " queued as they are: with the data first queued, under their old key (refused otherwise: outbox resubmit"
            + " sends the corrections under a new key).")
        boolean sendOldData;

        @Mixin
        StateOptions state;

        @Option(names = "--dry-run", description = "Only preview how many rows would be re-queued.")
        boolean dryRun;

        @Option(names = "--json", description = "Print the result as JSON.")
        boolean json;

        @Override
        public Integer call() {
            OutboxQuery rows = filter.rows(ids, allFailed);
            state.check(reconcile ? null : "--reconcile");
            // only a state's API can say what it holds: the simulated state a command starts knows no submission
            StateAdapter asked = reconcile ? state.toAsk() : null;
            if (asked != null && asked.refusal().isPresent()) {
                asked.close();
                throw new UsageException("--reconcile asks the state about each row's key: "
                        + asked.refusal().get() + "; nothing was re-queued");
            }
            try (StateAdapter adapter = asked; Database db = openDatabase()) {
                OutboxTriage triage = new OutboxTriage(db, clock(db), DeadlineSettings.current(db), adapter);
                OutboxTriage.Preview preview = triage.preview(OutboxTriage.Action.REQUEUE, rows);
                preview.notFailed().forEach((id, st) -> err().printf(
                        "outbox row %d is %s: only failed rows are re-queued; skipped%n", id, st.dbValue()));
                if (dryRun) {
                    if (json) {
                        printJson(fields("dryRun", true, "wouldRequeue", preview.eligible(), "ids",
                                preview.targetIds(), "refusedUnchangedIds", preview.refusedUnchanged(),
                                "claimCorrectedIds", preview.claimCorrected(), "warning", preview.confirmation()));
                    } else {
                        out().printf("would re-queue %d failed row(s)%s%n", preview.eligible(),
                                reconcile ? " (after asking the " + StateOptions.describe(adapter) + " about each)" : "");
                        if (!preview.refusedUnchanged().isEmpty()) {
                            err().printf("warning: %d of them (%s): %s; --reason confirms sending them again%n",
                                    preview.refusedUnchanged().size(), someIds(preview.refusedUnchanged()),
                                    KeyPolicy.UNCHANGED_REFUSAL_WARNING);
                        }
                        if (!preview.claimCorrected().isEmpty()) {
                            err().printf("warning: %d of them (%s): %s; %s%n", preview.claimCorrected().size(),
                                    someIds(preview.claimCorrected()), KeyPolicy.CORRECTED_REQUEUE_WARNING, sendOldData
                                            ? "--send-old-data re-queues them as they are"
                                            : "without --send-old-data nothing is re-queued");
                        }
                    }
                    return ClaimDeskCommand.EXIT_OK;
                }
                if (preview.eligible() == 0) {
                    throw new ClaimDeskException("no failed row matches: nothing was re-queued");
                }
                if (!preview.claimCorrected().isEmpty() && !sendOldData) {
                    // the console shows this before staff confirm; here nothing is changed until it is asked for
                    throw new ClaimDeskException(preview.claimCorrected().size() + " of the rows ("
                            + someIds(preview.claimCorrected())
                            + (preview.claimCorrected().size() > IDS_SHOWN ? "; --dry-run --json lists them all" : "")
                            + "): " + KeyPolicy.CORRECTED_REQUEUE_WARNING + ". Resubmit them"
                            + " (outbox resubmit), or give --send-old-data to re-queue them as they are; nothing was"
                            + " re-queued");
                }
                if (preview.confirmation() != null) {
                    // the required --reason is the confirmation the key policy asks for
                    err().printf("warning: %s (confirmed by --reason)%n", preview.confirmation());
                }
                if (adapter != null && !json) {
                    out().printf("reconciling with the %s%n", StateOptions.describe(adapter));
                }
                OutboxTriage.Result result = triage.apply(preview, actor, reason, reconcile, done -> {
                    if (!json && preview.eligible() > OutboxTriage.CHUNK) {
                        err().printf("requeue: %d of %d%n", done, preview.eligible());
                        err().flush();
                    }
                });
                if (json) {
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("requeued", result.changed());
                    out.put("reconciled", result.reconciled());
                    out.put("unconfirmed", result.unconfirmed());
                    out.put("skipped", result.changedSinceIds().size());
                    out.put("requeuedIds", result.changedIds());
                    out.put("reconciledIds", result.reconciledIds());
                    out.put("skippedIds", result.changedSinceIds());
                    out.put("notReachedIds", result.notReachedIds());
                    out.put("failure", result.failure());
                    printJson(out);
                } else {
                    out().printf("re-queued %d row(s), reconciled %d with the state's case id,"
                            + " skipped %d that (or whose claim) changed since the preview%s%n",
                            result.changed(), result.reconciled(), result.changedSinceIds().size(),
                            result.unconfirmed() == 0 ? "" : "; " + result.unconfirmed()
                                    + " re-queued without an answer from the state (resending under the same key is safe)");
                }
                stoppedMidway(result);
                if (result.changed() == 0 && result.reconciled() == 0) {
                    throw new ClaimDeskException("nothing was re-queued: every row (or its claim) changed since the"
                            + " preview");
                }
            }
            return ClaimDeskCommand.EXIT_OK;
        }
    }

    @Command(name = "resubmit", description = {
        "Send failed rows' corrected claims as new submissions under new idempotency keys.",
        "Each row becomes superseded (its attempts kept) by a new pending row; the claim stays SUBMITTING.",
        "One ROW_ID: refused when the row is not failed, was already resubmitted, or its claim has not changed since",
        "the refusal. Many (--id, or --all-failed with filters): such rows are skipped with the reason, one line each;",
        "the count is previewed first (--dry-run stops there).",
        "",
        "A row whose last attempt had no answer from the state (timeouts, 5xx) may have been accepted all the same:",
        "the state is asked about its key first, and a row it holds, or does not answer about, is refused. The state",
        "is the one --state-api or CLAIMDESK_STATE_URL names: such a row is refused when neither names one (the",
        "simulated state a command starts knows no earlier submission)."})
    static final class Resubmit extends CliSupport implements Callable<Integer> {
        @Parameters(paramLabel = "ROW_ID", arity = "0..1", description = "One failed outbox row.")
        Long id;

        @Option(names = "--id", paramLabel = "ID", split = ",", description = "Outbox row ids.")
        List<Long> ids;

        @Option(names = "--all-failed", description = "Every failed row matching the filter options.")
        boolean allFailed;

        @Mixin
        OutboxFilterOptions filter;

        @Option(names = "--actor", required = true, paramLabel = "NAME", description = "Who does it.")
        String actor;

        @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "Why (kept in the audit trail).")
        String reason;

        @Mixin
        StateOptions state;

        @Option(names = "--evidence-dir", paramLabel = "FOLDER",
                description = {"For a team database: the shared folder its evidence files are in (default:",
                    "$CLAIMDESK_EVIDENCE_DIR), where each file a resubmission names is checked whole first."})
        String evidenceDir;

        @Option(names = "--dry-run", description = "With --id or --all-failed: only preview which rows would be resubmitted.")
        boolean dryRun;

        @Option(names = "--json", description = "Print the result as JSON.")
        boolean json;

        @Override
        public Integer call() {
            boolean byIds = ids != null && !ids.isEmpty();
            int ways = (id != null ? 1 : 0) + (byIds ? 1 : 0) + (allFailed ? 1 : 0);
            if (ways != 1) {
                throw new UsageException("choose the rows with one ROW_ID, --id or --all-failed");
            }
            if (!allFailed && filter.given()) {
                throw new UsageException("filters go with --all-failed, not with a row id");
            }
            if (id != null && dryRun) {
                throw new UsageException("--dry-run goes with --id or --all-failed");
            }
            state.check(null);
            OutboxQuery rows = id != null ? null : filter.rows(ids, allFailed);
            try (Database db = openDatabase();
                    StateAdapter adapter = dryRun ? null : state.toAsk()) {
                Resubmission resubmission = new Resubmission(db, clock(db), adapter,
                        org.claimdesk.app.DataDirectory.evidenceFiles(db, evidenceDir));
                if (id != null) {
                    printOne(resubmission.resubmit(id, actor, reason));
                    return ClaimDeskCommand.EXIT_OK;
                }
                Resubmission.BulkPreview preview = resubmission.preview(rows);
                if (dryRun) {
                    if (json) {
                        printJson(fields("dryRun", true, "wouldResubmit", preview.eligible(),
                                "askingTheStateFirst", preview.askingTheStateFirst(),
                                "ids", preview.targets().stream().map(Resubmission.Check::outboxEventId).toList(),
                                "skippedReasons", preview.skipped()));
                    } else {
                        preview.skipped().values().forEach(r -> out().println(r + "; skipped"));
                        out().printf("would resubmit %d row(s)%s, skip %d%n", preview.eligible(),
                                preview.askingTheStateFirst() == 0 ? "" : " (" + preview.askingTheStateFirst()
                                        + " after asking the state whether it holds the first submission)",
                                preview.skipped().size());
                    }
                    return ClaimDeskCommand.EXIT_OK;
                }
                if (!json) {
                    preview.skipped().values().forEach(r -> err().println(r + "; skipped"));
                }
                if (preview.eligible() == 0) {
                    throw new ClaimDeskException("nothing was resubmitted: no selected row is failed with a corrected claim");
                }
                Resubmission.BulkResult result = resubmission.resubmitAll(preview, actor, reason, done -> {
                    if (!json && preview.eligible() >= 100 && done % 100 == 0) {
                        err().printf("resubmit: %d of %d%n", done, preview.eligible());
                        err().flush();
                    }
                }, null);
                if (json) {
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("resubmitted", result.resubmitted().size());
                    out.put("rows", result.resubmitted().stream().map(Resubmit::view).toList());
                    out.put("skippedReasons", result.skipped());
                    out.put("failure", result.failure());
                    printJson(out);
                } else {
                    result.resubmitted().forEach(r -> out().printf("outbox row %d superseded by row %d (claim %s), new key %s%n",
                            r.oldOutboxEventId(), r.newOutboxEventId(), r.claimNumber(), r.newKey()));
                    result.skipped().forEach((row, why) -> {
                        if (!preview.skipped().containsKey(row)) {
                            err().println(why + "; skipped");
                        }
                    });
                    out().println(result.describe());
                }
                if (result.failure() != null) {
                    throw new ClaimDeskException(result.describe());
                }
                if (result.resubmitted().isEmpty()) {
                    throw new ClaimDeskException("nothing was resubmitted: each row was skipped, as said above");
                }
            }
            return ClaimDeskCommand.EXIT_OK;
        }

        private void printOne(Resubmission.Result r) {
            if (json) {
                printJson(view(r));
            } else {
                out().printf("outbox row %d superseded by row %d (claim %s), new key %s%n", r.oldOutboxEventId(),
                        r.newOutboxEventId(), r.claimNumber(), r.newKey());
                r.diff().changes().forEach(c -> out().printf("  %s%n", c));
            }
        }

        private static Map<String, Object> view(Resubmission.Result r) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("oldOutboxEventId", r.oldOutboxEventId());
            out.put("newOutboxEventId", r.newOutboxEventId());
            out.put("claimId", r.claimId());
            out.put("claimNumber", r.claimNumber());
            out.put("oldIdempotencyKey", r.oldKey());
            out.put("newIdempotencyKey", r.newKey());
            out.put("refusedWith", r.refusedWith());
            out.put("changes", r.diff().changes());
            return out;
        }
    }

    @Command(name = "abandon", description = {
        "Give up failed rows: abandoned, and their claims back to READY_FOR_SUBMISSION.",
        "A row whose attempt ended without the state's answer may be held by the state: the state's API (--state-api",
        "or CLAIMDESK_STATE_URL) is asked first; a row it holds is marked sent with its case id, one it cannot be asked",
        "about is kept failed (re-queue it: the same key is safe)."})
    static final class Abandon extends CliSupport implements Callable<Integer> {
        @Option(names = "--id", required = true, paramLabel = "ID", split = ",", description = "Outbox row ids.")
        List<Long> ids;

        @Option(names = "--actor", required = true, paramLabel = "NAME", description = "Who does it.")
        String actor;

        @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "Why (kept in the audit trail).")
        String reason;

        @Mixin
        StateOptions state;

        @Option(names = "--dry-run", description = "Only preview which rows would be abandoned; nothing is changed.")
        boolean dryRun;

        @Option(names = "--json", description = "Print the result as JSON.")
        boolean json;

        @Override
        public Integer call() {
            state.check(null);
            try (Database db = openDatabase(); StateAdapter adapter = dryRun ? null : state.toAsk()) {
                OutboxTriage triage = new OutboxTriage(db, clock(db), DeadlineSettings.current(db), adapter);
                OutboxTriage.Preview preview = triage.preview(OutboxTriage.Action.ABANDON, OutboxQuery.byIds(ids));
                if (dryRun) {
                    preview.notFailed().forEach((id, st) -> err().printf(
                            "outbox row %d is %s: only failed rows can be abandoned; skipped%n", id, st.dbValue()));
                    if (json) {
                        printJson(fields("dryRun", true, "wouldAbandon", preview.eligible(), "ids",
                                preview.targetIds()));
                    } else {
                        out().printf("%s; their claims would go back to READY_FOR_SUBMISSION (--dry-run: nothing was"
                                + " changed)%n", preview.describe());
                        preview.targetIds().forEach(id -> out().printf("  outbox row %d%n", id));
                    }
                    return ClaimDeskCommand.EXIT_OK;
                }
                OutboxTriage.Result result = triage.apply(preview, actor, reason, false, null);
                Map<Long, String> skipped = new LinkedHashMap<>();
                result.notFailed().forEach((id, st) -> skipped.put(id,
                        "outbox row " + id + " is " + st.dbValue() + ": only failed rows can be abandoned"));
                result.changedSinceIds().forEach(id -> skipped.put(id, "outbox row " + id + " changed meanwhile"));
                skipped.putAll(result.keptReasons());
                result.reconciledIds().forEach(id -> err().println("outbox row " + id + " is already at the state:"
                        + " marked sent with its case id, not abandoned"));
                if (json) {
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("abandoned", result.changed());
                    out.put("skipped", result.skipped());
                    out.put("abandonedIds", result.changedIds());
                    out.put("reconciledIds", result.reconciledIds());
                    out.put("skippedReasons", skipped);
                    out.put("notReachedIds", result.notReachedIds());
                    out.put("failure", result.failure());
                    printJson(out);
                } else {
                    skipped.values().forEach(r -> err().println(r + "; skipped"));
                    if (result.changed() > 0) {
                        out().printf("abandoned %d row(s); their claims are back in READY_FOR_SUBMISSION%n",
                                result.changed());
                    }
                }
                stoppedMidway(result);
                if (result.changed() == 0 && result.reconciled() == 0) {
                    throw new ClaimDeskException("nothing was abandoned: "
                            + (result.notFailed().size() == ids.size() ? "none of the rows is failed"
                                    : "each row was skipped, as said above"));
                }
            }
            return ClaimDeskCommand.EXIT_OK;
        }
    }

    /** A run the database stopped: what it did is printed above; the refusal says so and which rows were not reached. */
    static void stoppedMidway(OutboxTriage.Result result) {
        if (result.failure() != null) {
            throw new ClaimDeskException("the database stopped the run after " + result.changed() + " row(s) were "
                    + result.action().past() + ": " + result.failure() + "; not reached: "
                    + CliSupport.someIds(result.notReachedIds()) + " (run it again for them)");
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
                Queries queries = new Queries(db, clock(db));
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
                    out().printf("  #%-3d %s %6d ms  %-9s %-4s %s%s%n", a.attemptNo(),
                            shown(a.startedAt(), clock(db).getZone()), a.durationMs(),
                            a.outcome(), a.httpStatus() == null ? "-" : a.httpStatus(),
                            a.field() == null ? "" : "[field " + a.field() + "] ",
                            detail.length() > 160 ? detail.substring(0, 159) + "…" : detail);
                }
            }
            return ClaimDeskCommand.EXIT_OK;
        }
    }

    @Command(name = "failures", description = "Failed rows matching the filter, grouped by error signature, largest group first.")
    static final class Failures extends CliSupport implements Callable<Integer> {
        @Mixin
        OutboxFilterOptions filter;

        @Option(names = "--json", description = "One JSON array.")
        boolean json;

        @Override
        public Integer call() {
            try (Database db = openDatabase()) {
                List<FailureGroup> groups = new OutboxTriage(db, clock(db), DeadlineSettings.current(db), null)
                        .groups(filter.narrow(OutboxQuery.all()));
                if (json) {
                    printJson(groups);
                    return ClaimDeskCommand.EXIT_OK;
                }
                out().printf("%7s  %-25s  %-25s  %s%n", "ROWS", "FIRST", "LAST", "SIGNATURE");
                java.time.ZoneId zone = clock(db).getZone();
                for (FailureGroup g : groups) {
                    out().printf("%7d  %-25s  %-25s  %s%n", g.count(), shown(g.firstSeen(), zone),
                            shown(g.lastSeen(), zone), g.signature());
                }
                out().printf("%d group(s)%n", groups.size());
            }
            return ClaimDeskCommand.EXIT_OK;
        }
    }

    static DeliveryState parseState(String text) {
        if (CliSupport.criterion("--state", text) == null) {
            return null;
        }
        try {
            return DeliveryState.fromDb(text.strip());
        } catch (IllegalArgumentException e) {
            throw new UsageException("unknown delivery state '" + text
                    + "'; expected pending, sent, failed, abandoned or superseded");
        }
    }
}
