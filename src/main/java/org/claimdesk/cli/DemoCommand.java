package org.claimdesk.cli;

import java.util.concurrent.Callable;
import org.claimdesk.app.DeadlineSettings;
import org.claimdesk.app.DemoData;
import org.claimdesk.app.Queries;
import org.claimdesk.store.Database;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "demo", description = "Fill an empty database with realistic synthetic claims (demo tax ids are non-issuable).")
final class DemoCommand extends CliSupport implements Callable<Integer> {
    @Option(names = "--claims", defaultValue = "2000", paramLabel = "N", description = "How many claims (default ${DEFAULT-VALUE}).")
    int claims;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S", description = "Random seed: the same seed gives the same data (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--today", paramLabel = "YYYY-MM-DD", description = "The day the data is relative to (default: today).")
    java.time.LocalDate today;

    @Override
    public Integer call() {
        try (Database db = openDatabase()) {
            java.time.LocalDate anchor = today != null ? today : new Queries(db, clock()).today();
            int[] lastPercent = {-1};
            DemoData.Summary summary = new DemoData(db, anchor, DeadlineSettings.current()).generate(claims, seed, written -> {
                int percent = (int) (100L * written / claims);
                if (percent / 10 != lastPercent[0] / 10) {
                    err().printf("demo: %d%% (%d of %d claims)%n", percent, written, claims);
                    err().flush();
                    lastPercent[0] = percent;
                }
            });
            out().printf("%d claims, %d outbox rows, %d delivery attempts, %d history rows written to %s in %d ms%n",
                    summary.claims(), summary.outboxRows(), summary.attempts(), summary.historyRows(), db.path(),
                    summary.millis());
        }
        return 0;
    }
}
