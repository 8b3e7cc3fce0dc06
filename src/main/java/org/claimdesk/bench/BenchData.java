package org.claimdesk.bench;

import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import org.claimdesk.app.DemoData;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.BenchmarkStore;
import org.claimdesk.store.Database;

/**
 * The console benchmark's database: demo claims, outbox rows topped up to the wanted number (extra rows are
 * sent submissions of claims that had none), and {@code drain} rows made pending and due with their claims in
 * SUBMITTING, one row per claim, so the worker has real work while the console refreshes.
 */
final class BenchData {
    static final long SEED = 424_242L;

    record Summary(int claims, int outboxRows, int drainRows, long millis) {
    }

    private BenchData() {
    }

    static Summary prepare(Path file, int claims, int outbox, int drain) {
        long started = System.nanoTime();
        try (Database db = Database.open(file)) {
            LocalDate today = LocalDate.now(ZoneId.systemDefault());
            new DemoData(db, today, Deadlines.statutory()).generate(claims, SEED, n -> { });
            int existing = BenchmarkStore.outboxRowCount(db);
            if (outbox > existing) {
                BenchmarkStore.addSentSubmissions(db, outbox - existing);
            }
            int due = BenchmarkStore.makeNewestRowsDue(db, drain);
            return new Summary(BenchmarkStore.claimCount(db), BenchmarkStore.outboxRowCount(db), due,
                    (System.nanoTime() - started) / 1_000_000);
        }
    }
}
