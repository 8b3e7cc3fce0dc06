package org.claimdesk.bench;

import java.time.LocalDate;
import java.time.ZoneId;
import org.claimdesk.app.DemoData;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.BenchmarkStore;
import org.claimdesk.store.BulkLoader;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.DatabaseMove;

/**
 * The console benchmark's database: demo claims, outbox rows topped up to the wanted number (extra rows are
 * sent submissions of claims that had none), and {@code drain} rows made pending and due with their claims in
 * SUBMITTING, one row per claim, so the worker has real work while the console refreshes. Every step writes in
 * bounded batches, so a million claims are seeded in the launcher's heap; the database, a file or a team database
 * on a server, must be empty.
 */
final class BenchData {
    static final long SEED = 424_242L;

    record Summary(int claims, int outboxRows, int drainRows, long millis) {
    }

    private BenchData() {
    }

    static Summary prepare(DatabaseLocation location, int claims, int outbox, int drain) {
        long started = System.nanoTime();
        try (Database db = Database.open(location)) {
            if (!DatabaseMove.isEmpty(db)) {
                throw new ClaimDeskException(location.describe() + " already holds claims, outbox rows or audit entries:"
                        + " bench ui seeds an empty database; nothing was written");
            }
            LocalDate today = LocalDate.now(ZoneId.systemDefault());
            new DemoData(db, today, Deadlines.statutory()).generate(claims, SEED, n -> { }, BulkLoader.Access.SOLE);
            int existing = BenchmarkStore.outboxRowCount(db);
            if (outbox > existing) {
                BenchmarkStore.addSentSubmissions(db, outbox - existing);
            }
            int due = BenchmarkStore.makeNewestRowsDue(db, drain);
            // as after claimdesk migrate: a team database is measured settled, its tallies folded, vacuumed and analyzed
            DatabaseMove.settle(db);
            return new Summary(BenchmarkStore.claimCount(db), BenchmarkStore.outboxRowCount(db), due,
                    (System.nanoTime() - started) / 1_000_000);
        }
    }
}
