package org.claimdesk.cli;

import java.util.concurrent.Callable;
import org.claimdesk.app.Queries;
import org.claimdesk.store.Database;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "audit", description = "The audit trail.", subcommands = AuditCommand.ListAudit.class)
final class AuditCommand {

    @Command(name = "list", description = "Audit entries, newest first; every match unless --limit.")
    static final class ListAudit extends CliSupport implements Callable<Integer> {
        @Option(names = "--subject", paramLabel = "SUBJECT", description = "Only entries about this subject: a claim"
                + " number (UPC-…) or 'claim ID' for a claim's, 'outbox row ID' for a row's, or an id of any subject.")
        String subject;

        @Option(names = "--actor", paramLabel = "NAME", description = "Only entries by this actor.")
        String actor;

        @Option(names = "--action", paramLabel = "ACTION", description = "Only this action: one of"
                + " ${COMPLETION-CANDIDATES}.", completionCandidates = ActionNames.class)
        String action;

        @Option(names = "--limit", paramLabel = "N", description = "At most N entries.")
        Integer limit;

        @Option(names = "--json", description = "One JSON array.")
        boolean json;

        @Override
        public Integer call() {
            int max = limit(limit);
            criterion("--subject", subject);
            criterion("--actor", actor);
            criterion("--action", action);
            if (action != null && !org.claimdesk.domain.AuditActions.ALL.contains(action.strip())) {
                throw new UsageException("--action " + action.strip() + " is no audited action; one of "
                        + String.join(", ", org.claimdesk.domain.AuditActions.ALL));
            }
            try (Database db = openDatabase()) {
                Queries queries = new Queries(db, clock(db));
                // written as read: a trail of millions of entries goes out in bounded memory
                if (json) {
                    // closed only once every entry is out: a list cut short by a failure is not valid JSON
                    JsonArray array = jsonArray();
                    queries.eachAudit(subject, actor, action, max, array::add);
                    array.close();
                } else {
                    long[] count = {0};
                    java.time.ZoneId zone = clock(db).getZone();
                    queries.eachAudit(subject, actor, action, max, e -> {
                        out().printf("%s  %-12s %-22s %s %s%s%n", shown(e.at(), zone), e.actor(), e.action(),
                                e.subjectType(), e.subjectId(), e.reason() == null ? "" : "  reason: " + e.reason());
                        count[0]++;
                    });
                    out().printf("%d entr%s%n", count[0], count[0] == 1 ? "y" : "ies");
                }
            }
            return 0;
        }
    }

    /** The audited actions, as {@code audit list --action} takes them. */
    static final class ActionNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return org.claimdesk.domain.AuditActions.ALL.iterator();
        }
    }
}
