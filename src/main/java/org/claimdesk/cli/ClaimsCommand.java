package org.claimdesk.cli;

import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.claimdesk.app.DataDirectory;
import org.claimdesk.app.DeadlineSettings;
import org.claimdesk.app.AdvanceResult;
import org.claimdesk.app.ClaimEditing;
import org.claimdesk.app.ClaimEvidence;
import org.claimdesk.app.ClaimView;
import org.claimdesk.app.EditResult;
import org.claimdesk.app.FieldChange;
import org.claimdesk.app.Queries;
import org.claimdesk.app.SubmitResult;
import org.claimdesk.app.Workflow;
import org.claimdesk.domain.Amounts;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.NotFoundException;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.StatusChange;
import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.Database;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "claims",
        description = "List, show, create, import, edit (one claim, or one field on many), advance and submit claims;"
                + " add, list and withdraw their evidence.",
        subcommands = {ClaimsCommand.ListClaims.class, ClaimsCommand.Show.class, ClaimCreateCommand.class,
            ClaimImportCommand.class, ClaimExportCommand.class, ClaimsCommand.Edit.class,
            ClaimSetCommand.class, EvidenceCommand.class, ClaimsCommand.Advance.class, ClaimsCommand.Submit.class})
final class ClaimsCommand {

    static Claim find(Queries queries, String idOrNumber) {
        // what was typed is not logged: a tax id typed for a claim's number would be kept there whole
        return queries.claim(idOrNumber).orElseThrow(() -> new NotFoundException("no claim " + idOrNumber,
                "no claim with the id or number given"));
    }

    @Command(name = "list", description = "Claims matching the filters, oldest first; every match unless --limit.")
    static final class ListClaims extends CliSupport implements Callable<Integer> {
        @Mixin
        ClaimFilterOptions filter;

        @Option(names = "--limit", paramLabel = "N", description = "At most N claims.")
        Integer limit;

        @Option(names = "--json", description = "One JSON array.")
        boolean json;

        @Override
        public Integer call() {
            int max = limit(limit);
            ClaimQuery criteria = filter.criteria();
            try (Database db = openDatabase()) {
                Queries queries = new Queries(db, clock(db));
                LocalDate today = queries.today();
                ClaimQuery query = filter.asOf(criteria, today);
                // read and written a page at a time: a million claims go out in bounded memory
                JsonArray array = json ? jsonArray() : null;
                if (!json) {
                    out().printf("%-8s %-16s %-3s %-24s %-11s %14s %-20s %-14s%n", "ID", "CLAIM", "ST", "CLAIMANT",
                            "TAX ID", "AMOUNT", "STATUS", "CASE");
                }
                long[] count = {0};
                queries.eachClaimPage(query, max, found -> {
                    Set<Long> pending = queries.withPendingSubmission(found.stream()
                            .filter(c -> c.status() == ClaimStatus.SUBMITTING).map(Claim::claimId).toList());
                    for (Claim claim : found) {
                        ClaimView c = ClaimView.of(claim, today, pending.contains(claim.claimId()));
                        if (array != null) {
                            array.add(c);
                        } else {
                            out().printf("%-8d %-16s %-3s %-24s %-11s %14s %-20s %-14s%s%n", c.claimId(),
                                    c.claimNumber(), c.jurisdiction(), clip(c.claimantName(), 24), c.taxIdMasked(),
                                    Amounts.dollars(c.amountCents()), c.status(),
                                    c.stateCaseId() == null ? "" : c.stateCaseId(), c.overdue() ? " OVERDUE" : "");
                        }
                        count[0]++;
                    }
                });
                if (array != null) {
                    array.close();
                } else {
                    out().printf("%d claim(s)%n", count[0]);
                }
            }
            return 0;
        }
    }

    @Command(name = "show", description = "One claim with its history and outbox rows.")
    static final class Show extends CliSupport implements Callable<Integer> {
        @Parameters(paramLabel = "ID", description = "Claim id or claim number.")
        String id;

        @Option(names = "--json", description = "JSON.")
        boolean json;

        record Detail(ClaimView claim, List<EvidenceCommand.EvidenceView> evidence, List<StatusChange> history,
                List<org.claimdesk.app.OutboxView> outbox) {
        }

        @Override
        public Integer call() {
            try (Database db = openDatabase()) {
                Queries queries = new Queries(db, clock(db));
                Claim claim = find(queries, id);
                List<StatusChange> history = queries.history(claim.claimId());
                List<OutboxEvent> rows = queries.outboxForClaim(claim.claimId());
                ClaimView view = ClaimView.of(claim, queries.today(), OutboxEvent.anyPending(rows));
                // the evidence folder is not looked in here (a share may be slow): claims evidence list does that
                List<Evidence> evidence = new ClaimEvidence(db, clock(db)).list(claim.claimId());
                if (json) {
                    printJson(new Detail(view, evidence.stream()
                            .map(e -> EvidenceCommand.EvidenceView.of(e, null)).toList(),
                            history, rows.stream().map(org.claimdesk.app.OutboxView::of).toList()));
                    return 0;
                }
                out().printf("Claim %s (id %d, version %d)%n", view.claimNumber(), view.claimId(), view.version());
                out().printf("  Status         %s%s%n", view.status(), view.overdue() ? "  OVERDUE" : "");
                out().printf("  Jurisdiction   %s   state property id %s%n", view.jurisdiction(), view.statePropertyId());
                out().printf("  Claimant       %s (%s)   tax id %s%n", view.claimantName(),
                        view.claimType().toLowerCase(Locale.ROOT), view.taxIdMasked());
                if (view.claimantEmail() != null || view.claimantPhone() != null || view.claimantAddress() != null) {
                    out().printf("  Contact        %s%n", String.join("   ", java.util.stream.Stream.of(
                            view.claimantEmail(), view.claimantPhone(), view.claimantAddress())
                            .filter(java.util.Objects::nonNull).toList()));
                }
                out().printf("  Holder         %s %s%n", view.holderName(), view.holderId() == null ? "" : "(" + view.holderId() + ")");
                out().printf("  Property       %s   amount %s%n", view.propertyType(), Amounts.dollars(view.amountCents()));
                out().printf("  Filed          %s   decision due %s   state case id %s%n", view.filedOn(),
                        view.decisionDueOn() == null ? "-" : view.decisionDueOn(),
                        view.stateCaseId() == null ? "-" : view.stateCaseId());
                if (view.editRefusal() != null) {
                    out().printf("  Read-only      %s%n", view.editRefusal());
                }
                if (!evidence.isEmpty()) {
                    out().println("  Evidence:");
                    evidence.forEach(e -> out().println("    " + EvidenceCommand.line(e, null, clock(db).getZone())));
                }
                out().println("  History:");
                for (StatusChange change : history) {
                    out().printf("    %s  %s -> %s  by %s%s%n", shown(change.at(), clock(db).getZone()),
                            change.fromStatus() == null ? "(new)" : change.fromStatus(),
                            change.toStatus(), change.actor(), change.reason() == null ? "" : "  (" + change.reason() + ")");
                }
                if (!rows.isEmpty()) {
                    out().println("  Outbox:");
                    for (OutboxEvent e : rows) {
                        out().printf("    #%d %s attempts=%d key=%s%s%n", e.outboxEventId(), e.deliveryState().dbValue(),
                                e.attempts(), e.idempotencyKey(), e.lastError() == null ? "" : "  last error: " + e.lastError());
                    }
                }
            }
            return 0;
        }
    }

    @Command(name = "edit", description = "Change fields of a claim, each checked by its rule; audited per field.")
    static final class Edit extends CliSupport implements Callable<Integer> {
        @Parameters(paramLabel = "ID", description = "Claim id or claim number.")
        String id;

        @Option(names = "--set", paramLabel = "FIELD=VALUE",
                description = "A field (named as in claims show --json: amountCents, holderId, ...) and its new value;"
                        + " repeat for several, each field once. An empty value clears an optional field.")
        List<String> sets;

        @Option(names = FieldValues.TAX_ID_STDIN, description = "Replace the tax id whole. " + FieldValues.TAX_ID_STDIN_HELP)
        boolean taxIdStdin;

        @Option(names = "--actor", required = true, paramLabel = "NAME", description = "Who does it.")
        String actor;

        @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "Why.")
        String reason;

        @Option(names = "--expect-version", paramLabel = "V",
                description = "Refuse if the claim is no longer at version V, the version claims show gives (default:"
                        + " its version now).")
        Long expectVersion;

        @Option(names = "--json", description = "JSON.")
        boolean json;

        @Override
        public Integer call() {
            Map<String, String> given = FieldValues.parse(sets);
            if (given.isEmpty() && !taxIdStdin) {
                throw new UsageException("give the fields to change: --set FIELD=VALUE, or " + FieldValues.TAX_ID_STDIN);
            }
            // asked for before the database is open: a prompt may wait
            Map<String, String> fields = FieldValues.withTaxId(given, taxIdStdin, in(), err());
            try (Database db = openDatabase()) {
                Claim claim = find(new Queries(db, clock(db)), id);
                long version = expectVersion != null ? expectVersion : claim.version();
                EditResult result = new ClaimEditing(db, clock(db)).edit(claim.claimId(), version, fields, actor, reason);
                if (json) {
                    printJson(result);
                } else if (result.changes().isEmpty()) {
                    out().printf("%s: nothing changed (version %d)%n", result.claimNumber(), result.version());
                } else {
                    for (FieldChange change : result.changes()) {
                        out().printf("%s: %s %s -> %s%n", result.claimNumber(), change.field(),
                                change.before().isEmpty() ? "(none)" : change.before(),
                                change.after().isEmpty() ? "(none)" : change.after());
                    }
                    out().printf("%s: version %d%n", result.claimNumber(), result.version());
                }
            }
            return 0;
        }
    }

    @Command(name = "advance", description = "Move a claim to another status, as the workflow allows.")
    static final class Advance extends CliSupport implements Callable<Integer> {
        @Parameters(paramLabel = "ID", description = "Claim id or claim number.")
        String id;

        @Option(names = "--to", required = true, paramLabel = "STATUS", completionCandidates = StatusNames.class,
                description = "The status to move the claim to, one the workflow allows from its status now:"
                        + " ${COMPLETION-CANDIDATES} (SUBMITTING: claims submit).")
        String to;

        @Option(names = "--actor", required = true, paramLabel = "NAME", description = "Who does it.")
        String actor;

        @Option(names = "--reason", paramLabel = "TEXT", description = "Why (required to withdraw, reject — the"
                + " state's reason code —, ask for information, record the information asked for as sent — what went"
                + " and how: ClaimDesk sends the state submissions only —, record an approval — in full or in part,"
                + " the amount — or a payment — the warrant or check number, the amount paid, any offset —, or move a"
                + " claim back; kept in its history and the audit trail).")
        String reason;

        @Option(names = "--key", paramLabel = "KEY", description = "A key of your own for this request (printable"
                + " text): run again with the same key, it changes nothing.")
        String key;

        @Option(names = "--expect-version", paramLabel = "V", description = "Refuse if the claim is no longer at"
                + " version V (the version claims show gives).")
        Long expectVersion;

        @Override
        public Integer call() {
            ClaimStatus target = CliSupport.status("--to", to);
            try (Database db = openDatabase()) {
                Claim claim = find(new Queries(db, clock(db)), id);
                AdvanceResult result = new Workflow(db, clock(db), DeadlineSettings.current(db))
                        .advance(claim.claimId(), target, actor, key, reason, expectVersion);
                out().printf("%s: %s -> %s (version %d)%s%n", result.claimNumber(), result.from(), result.to(),
                        result.version(), result.replayed() ? " [replayed: nothing changed]" : "");
                if (target == ClaimStatus.READY_FOR_SUBMISSION) {
                    checklist(this, db, claim);
                }
            }
            return 0;
        }
    }

    @Command(name = "submit", description = "Queue a READY_FOR_SUBMISSION claim for delivery to the state.")
    static final class Submit extends CliSupport implements Callable<Integer> {
        @Parameters(paramLabel = "ID", description = "Claim id or claim number.")
        String id;

        @Option(names = "--actor", required = true, paramLabel = "NAME", description = "Who does it.")
        String actor;

        @Option(names = "--key", paramLabel = "KEY", description = "The key the state sees with this submission (printable"
                + " text; generated if absent): sent again with the same key, the state takes it once.")
        String key;

        @Option(names = "--expect-version", paramLabel = "V",
                description = "Refuse if the claim is no longer at version V, the version claims show gives (changed"
                        + " since it was checked).")
        Long expectVersion;

        @Option(names = "--evidence-dir", paramLabel = "FOLDER",
                description = {"For a team database: the shared folder its evidence files are in (default:",
                    "$CLAIMDESK_EVIDENCE_DIR), where each file the submission names is checked whole first."})
        String evidenceDir;

        @Option(names = "--reason", paramLabel = "TEXT",
                description = "A note on the submission for the claim's history and the audit trail (optional).")
        String reason;

        @Override
        public Integer call() {
            try (Database db = openDatabase()) {
                Claim claim = find(new Queries(db, clock(db)), id);
                SubmitResult result = new Workflow(db, clock(db), DeadlineSettings.current(db),
                        DataDirectory.evidenceFiles(db, evidenceDir))
                        .submit(claim.claimId(), actor, key, expectVersion, null, reason);
                out().printf("%s: %s, outbox row %d (%s), key %s%s%n", result.claimNumber(), result.claimStatus(),
                        result.outboxEventId(), result.rowState().dbValue(), result.idempotencyKey(),
                        result.replayed() ? " [replayed: nothing changed]" : "");
                checklist(this, db, claim);
            }
            return 0;
        }
    }

    /** Says on stderr what the evidence checklist finds missing on a claim marked ready or submitted. */
    static void checklist(CliSupport command, Database db, Claim claim) {
        org.claimdesk.domain.EvidenceChecklist.warningFor(claim.claimType(),
                new ClaimEvidence(db, command.clock(db)).list(claim.claimId())).ifPresent(w -> {
            command.err().println("warning: " + claim.claimNumber() + ": " + w + " The state may refuse a claim without"
                    + " them.");
            command.err().flush();
        });
    }

    static String clip(String text, int width) {
        return text.length() <= width ? text : text.substring(0, width - 1) + "…";
    }
}
