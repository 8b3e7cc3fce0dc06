package org.claimdesk.ui.testing;

import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.function.Function;
import org.claimdesk.app.DeadlineSettings;
import org.claimdesk.app.DemoData;
import org.claimdesk.app.Queries;
import org.claimdesk.app.Workflow;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.Database;

/** Real temporary databases for console tests. */
public final class TestDatabases {
    public static final long SEED = 7L;

    private TestDatabases() {
    }

    /** A database in {@code dir} with {@code claims} demo claims (0 for an empty one). */
    public static Database demo(Path dir, int claims) {
        Database db = Database.open(dir.resolve("console-test.db"));
        if (claims > 0) {
            new DemoData(db, LocalDate.now(ZoneId.systemDefault()), Deadlines.statutory()).generate(claims, SEED, n -> { });
        }
        return db;
    }

    /** The demo data a first start gives {@code db}, as the console's services make it. */
    public static Function<LocalDate, DemoData> demoData(Database db) {
        return today -> new DemoData(db, today, DeadlineSettings.current(db));
    }

    public static Queries queries(Database db) {
        return new Queries(db, Clock.systemDefaultZone());
    }

    public static Workflow workflow(Database db) {
        return new Workflow(db, Clock.systemDefaultZone(), Deadlines.statutory());
    }
}
