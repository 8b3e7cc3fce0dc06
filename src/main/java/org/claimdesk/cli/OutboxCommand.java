package org.claimdesk.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.claimdesk.app.OutboxView;
import org.claimdesk.app.Queries;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.store.Database;
import org.claimdesk.store.OutboxQuery;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "outbox", description = "Outbox rows: the submissions on their way to the state.",
        subcommands = {OutboxCommand.ListOutbox.class})
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
