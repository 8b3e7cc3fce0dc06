package org.claimdesk.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import org.claimdesk.delivery.Drain;
import org.claimdesk.delivery.HolderRegistry;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.PropertyType;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.Migrations;
import org.claimdesk.store.NewClaim;

/**
 * The installed app checking itself without a display: a temporary database, its migrations, one
 * claim submitted and delivered to the simulated state. Leaves nothing behind.
 */
public final class SelfTest {
    private final PrintWriter out;
    private final Clock clock;

    public SelfTest(PrintWriter out, Clock clock) {
        this.out = out;
        this.clock = clock;
    }

    /** Throws {@link ClaimDeskException} naming the step that failed. */
    public void run() {
        Path dir;
        try {
            dir = Files.createTempDirectory("claimdesk-self-test");
        } catch (IOException e) {
            throw new ClaimDeskException("self-test: cannot create a temporary folder: " + e.getMessage(), e);
        }
        try (Database db = Database.open(dir.resolve("self-test.db"))) {
            step("database and migrations", db.schemaVersion() == Migrations.latestVersion(),
                    "schema version " + db.schemaVersion());
            Deadlines deadlines = Deadlines.statutory();
            HolderRegistry.Holder holder = HolderRegistry.standard().holdersFor("CA").get(0);
            long claimId = db.inTransaction(h -> new ClaimStore().insert(h, new NewClaim("UPC-SELFTEST-000001", "CA",
                    "12345678", holder.name(), holder.id(), PropertyType.AC01, ClaimType.OWNER, "Self Test",
                    "123-00-0000", 10_000, ClaimStatus.READY_FOR_SUBMISSION, null, LocalDate.now(clock), null),
                    clock.instant()));
            new Workflow(db, clock, deadlines).submit(claimId, "self-test", null);
            step("claim queued in the outbox", true, "claim " + claimId);

            WorkerSettings settings = WorkerSettings.defaults().withInterval(Duration.ofMillis(50));
            try (SimulatedStateAdapter state = new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable()))) {
                Drain.Summary summary = Drain.run(db, state, settings, deadlines, clock, true, Duration.ofSeconds(30),
                        null);
                step("delivered to the simulated state", summary.sent() == 1,
                        summary.sent() + " sent, " + summary.failed() + " failed, " + summary.pending() + " pending"
                                + (summary.lastError() == null ? "" : ", last error: " + summary.lastError()));
            }
            Claim claim = new Queries(db, clock).claim(claimId).orElseThrow();
            step("claim acknowledged with a case id", claim.status() == ClaimStatus.SUBMITTED_TO_STATE
                    && claim.stateCaseId() != null, claim.status() + " " + claim.stateCaseId());
        } finally {
            TemporaryFolders.deleteQuietly(dir);
        }
        out.println("self-test: OK");
        out.flush();
    }

    private void step(String name, boolean passed, String detail) {
        out.printf("self-test: %-34s %s (%s)%n", name, passed ? "ok" : "FAILED", detail);
        out.flush();
        if (!passed) {
            throw new ClaimDeskException("self-test failed at \"" + name + "\": " + detail);
        }
    }
}
