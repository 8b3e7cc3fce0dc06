package org.claimdesk.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.claimdesk.app.BulkEdit;
import org.claimdesk.app.Queries;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.store.Database;
import org.claimdesk.store.OutboxQuery;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code claims set FIELD=VALUE}: one field set to one value across many claims, previewed, audited per claim. */
@Command(name = "set", description = {
    "Set one field to one value on many claims: those named, or those of the failed outbox rows with an error signature.",
    "The value is checked once by the field's rule; claims whose status does not allow edits, or already at the value,",
    "are skipped with the reason. Each claim is edited at the version previewed and audited with the reason.",
    "The tax id cannot be set this way. --dry-run shows the preview (old -> new per claim) and stops."})
final class ClaimSetCommand extends CliSupport implements Callable<Integer> {
    @Parameters(paramLabel = "FIELD=VALUE",
            description = "The field (named as in claims show --json: holderId, holderName, amountCents, ...) and its value.")
    String assignment;

    @Option(names = "--id", paramLabel = "ID", split = ",", description = "Claim ids or claim numbers.")
    List<String> ids;

    @Option(names = "--outbox-signature", paramLabel = "SIGNATURE",
            description = "The claims of the failed outbox rows with this error signature (see outbox failures).")
    String signature;

    @Option(names = "--jurisdiction", paramLabel = "J", description = "With --outbox-signature: only rows of claims in J.")
    String jurisdiction;

    @Option(names = "--actor", required = true, paramLabel = "NAME", description = "Who does it.")
    String actor;

    @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "Why (kept in each claim's audit entry).")
    String reason;

    @Option(names = "--dry-run", description = "Only show the preview; nothing is changed.")
    boolean dryRun;

    @Option(names = "--json", description = "Print the preview or the result as JSON.")
    boolean json;

    @Override
    public Integer call() {
        int equals = assignment.indexOf('=');
        if (equals <= 0) {
            throw new UsageException("write the field and its value as FIELD=VALUE, e.g. holderId=HLD-100200");
        }
        String field = assignment.substring(0, equals).strip();
        String value = assignment.substring(equals + 1);
        BulkEdit.fieldRefused(field).ifPresent(refused -> {
            throw new UsageException(refused.describe());
        });
        boolean byId = ids != null && !ids.isEmpty();
        CliSupport.criterion("--outbox-signature", signature);
        CliSupport.criterion("--jurisdiction", jurisdiction);
        if (byId == (signature != null)) {
            throw new UsageException("choose the claims with either --id or --outbox-signature");
        }
        if (byId && jurisdiction != null) {
            throw new UsageException("--jurisdiction goes with --outbox-signature, not with --id");
        }
        try (Database db = openDatabase()) {
            BulkEdit bulk = new BulkEdit(db, clock(db));
            BulkEdit.Preview preview;
            if (byId) {
                Queries queries = new Queries(db, clock(db));
                List<Long> claimIds = new ArrayList<>();
                ids.forEach(id -> claimIds.add(ClaimsCommand.find(queries, id.strip()).claimId()));
                preview = bulk.preview(field, value, claimIds);
            } else {
                preview = bulk.preview(field, value, OutboxQuery.all().withState(DeliveryState.FAILED)
                        .withSignature(signature).withJurisdiction(jurisdiction));
            }
            if (dryRun) {
                printPreview(preview);
                return ClaimDeskCommand.EXIT_OK;
            }
            if (!json) {
                preview.skipped().forEach(s -> err().printf("%s: skipped: %s%n", s.claimNumber(), s.reason()));
            }
            if (preview.eligible() == 0) {
                throw new ClaimDeskException("nothing to change: every claim was skipped (" + preview.skipped().size()
                        + ")");
            }
            BulkEdit.Result result = bulk.apply(preview, actor, reason, done -> {
                if (!json && preview.eligible() >= 100 && done % 100 == 0) {
                    err().printf("set: %d of %d%n", done, preview.eligible());
                    err().flush();
                }
            }, null);
            if (json) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("field", result.field());
                out.put("value", result.shownValue());
                out.put("changed", result.changed().size());
                out.put("changedClaims", result.changed());
                out.put("skipped", result.skipped());
                out.put("changedSince", result.changedSince());
                out.put("refused", result.refused());
                out.put("failure", result.failure());
                printJson(out);
            } else {
                result.changed().forEach(t -> out().printf("%s: %s %s -> %s%n", t.claimNumber(), result.field(),
                        shown(t.before()), shown(t.after())));
                java.util.stream.Stream.concat(result.changedSince().stream(), result.refused().stream())
                        .forEach(s -> err().printf("%s: skipped: %s%n", s.claimNumber(), s.reason()));
                out().println(result.describe());
            }
            if (result.failure() != null) {
                throw new ClaimDeskException(result.describe());
            }
            if (result.changed().isEmpty()) {
                throw new ClaimDeskException("no claim was changed: each was skipped, as said above");
            }
        }
        return ClaimDeskCommand.EXIT_OK;
    }

    private void printPreview(BulkEdit.Preview preview) {
        if (json) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("dryRun", true);
            out.put("field", preview.field());
            out.put("value", preview.shownValue());
            out.put("wouldChange", preview.eligible());
            out.put("targets", preview.targets());
            out.put("skipped", preview.skipped());
            printJson(out);
            return;
        }
        preview.targets().forEach(t -> out().printf("%s: %s %s -> %s%n", t.claimNumber(), preview.field(),
                shown(t.before()), shown(t.after())));
        preview.skipped().forEach(s -> out().printf("%s: skipped: %s%n", s.claimNumber(), s.reason()));
        out().printf("would change %d claim(s), skip %d%n", preview.eligible(), preview.skipped().size());
    }

    private static String shown(String value) {
        return value == null || value.isEmpty() ? "(none)" : value;
    }
}
