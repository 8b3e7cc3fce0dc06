package org.claimdesk.cli;

import java.time.Clock;
import java.time.LocalDate;
import java.util.concurrent.Callable;
import org.claimdesk.app.DeadlineSettings;
import org.claimdesk.app.DemoData;
import org.claimdesk.store.BulkLoader;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "demo", description = "Fill an empty database with realistic synthetic claims (demo tax ids are non-issuable).")
final class DemoCommand extends CliSupport implements Callable<Integer> {
    @Option(names = "--claims", defaultValue = "2000", paramLabel = "N", description = "How many claims (default ${DEFAULT-VALUE}).")
    int claims;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S", description = "Random seed: the same seed gives the same data (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--today", paramLabel = "YYYY-MM-DD", description = "The day the data ends on: today (the default, data up to now) or an earlier day (data up to its end).")
    LocalDate today;

    @Override
    public Integer call() {
        try {
            DemoData.checkCount(claims);
        } catch (org.claimdesk.domain.ClaimDeskException e) {
            // a value out of range, refused before a desk's file is made
            throw new UsageException(e.getMessage());
        }
        java.util.Optional<String> realState = org.claimdesk.delivery.HttpStateAdapter.configuredRealState();
        if (realState.isPresent()) {
            throw new org.claimdesk.domain.ClaimDeskException("no demo data on a workstation set up for a state's API ("
                    + org.claimdesk.delivery.HttpStateAdapter.URL_ENV + " is " + realState.get() + "): its pending"
                    + " submissions would go to that state; unset it, or point it at a simulated state on this"
                    + " machine (claimdesk state-sim), for a demo database. Nothing was created");
        }
        if (today != null && root().databasePath() instanceof DatabaseLocation.SqliteFile) {
            // a day in the future is refused before a desk's file is made; a team database's day is the office's,
            // checked once it is open
            DemoData.asOf(today, root().clockOrSystem());
        }
        try (Database db = openOrCreateDatabase()) {
            Clock asOf = today != null ? DemoData.asOf(today, clock(db)) : clock(db);
            int[] lastPercent = {-1};
            DemoData.Summary summary = new DemoData(db, asOf, DeadlineSettings.current(db)).generate(claims, seed, written -> {
                int percent = (int) (100L * written / claims);
                if (percent / 10 != lastPercent[0] / 10) {
                    err().printf("demo: %d%% (%d of %d claims)%n", percent, written, claims);
                    err().flush();
                    lastPercent[0] = percent;
                }
            }, BulkLoader.Access.SOLE);
            out().printf("%d claims, %d outbox rows, %d delivery attempts, %d history rows, %d audit entries written"
                    + " to %s in %d ms%n", summary.claims(), summary.outboxRows(), summary.attempts(),
                    summary.historyRows(), summary.auditEntries(), db.location().describe(), summary.millis());
        }
        return 0;
    }
}
