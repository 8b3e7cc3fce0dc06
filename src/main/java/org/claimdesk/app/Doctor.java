package org.claimdesk.app;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.claimdesk.store.Database;
import org.claimdesk.store.HealthStore;
import org.claimdesk.store.Migrations;
import org.jdbi.v3.core.Handle;

/**
 * Health checks of one database: integrity, orphaned rows, expired leases, rows stuck pending, and
 * claims whose status disagrees with their outbox rows. Reads only; changes nothing.
 */
public final class Doctor {
    public enum Level {
        OK, WARN, FAIL
    }

    /** One check's outcome: a level, the check's name, and a plain sentence. */
    public record Finding(Level level, String check, String message) {
    }

    public record Report(String database, int schemaVersion, List<Finding> findings) {
        public boolean healthy() {
            return findings.stream().noneMatch(f -> f.level() == Level.FAIL);
        }
    }

    private final Database database;
    private final Clock clock;
    private final Duration stuckAfter;
    private final HealthStore health = new HealthStore();

    public Doctor(Database database, Clock clock, Duration stuckAfter) {
        this.database = database;
        this.clock = clock;
        this.stuckAfter = stuckAfter;
    }

    public Report examine() {
        return database.read(h -> {
            List<Finding> findings = new ArrayList<>();
            integrity(h, findings);
            orphans(h, findings);
            leases(h, findings);
            stuck(h, findings);
            consistency(h, findings);
            return new Report(database.location().describe(), database.schemaVersion(), findings);
        });
    }

    private void integrity(Handle h, List<Finding> findings) {
        List<String> problems = health.integrityProblems(h, 20);
        if (problems.size() == 1 && "ok".equals(problems.get(0))) {
            findings.add(new Finding(Level.OK, "integrity", "SQLite integrity check passed"));
        } else {
            findings.add(new Finding(Level.FAIL, "integrity", "SQLite integrity check found " + problems.size()
                    + " problem(s), first: " + problems.get(0) + "; restore from a backup"));
        }
        int version = health.userVersion(h);
        findings.add(new Finding(version == Migrations.latestVersion() ? Level.OK : Level.WARN, "schema",
                "schema version " + version + " (this ClaimDesk writes version " + Migrations.latestVersion() + ")"));
    }

    private void orphans(Handle h, List<Finding> findings) {
        List<String> orphans = health.orphans(h);
        if (orphans.isEmpty()) {
            findings.add(new Finding(Level.OK, "orphans", "every outbox row, attempt and history row has its parent"));
        } else {
            findings.add(new Finding(Level.FAIL, "orphans", orphans.size() + " row(s) point at a missing parent ("
                    + String.join(", ", orphans.stream().distinct().limit(5).toList()) + ")"));
        }
    }

    private void leases(Handle h, List<Finding> findings) {
        int expired = health.expiredLeases(h, clock.instant());
        findings.add(expired == 0
                ? new Finding(Level.OK, "leases", "no expired leases")
                : new Finding(Level.WARN, "leases", expired + " pending row(s) hold an expired lease (a worker stopped"
                        + " mid-delivery); the next drain takes them again"));
    }

    private void stuck(Handle h, List<Finding> findings) {
        int stuck = health.pendingQueuedBefore(h, clock.instant().minus(stuckAfter));
        findings.add(stuck == 0
                ? new Finding(Level.OK, "stuck", "no row pending for more than " + human(stuckAfter))
                : new Finding(Level.WARN, "stuck", stuck + " row(s) pending for more than " + human(stuckAfter)
                        + "; check that the worker runs and the state endpoint answers"));
    }

    private void consistency(Handle h, List<Finding> findings) {
        int submittingWithoutRow = health.submittingWithoutOpenRow(h);
        int sentNotSubmitted = health.sentButNotSubmitted(h);
        if (submittingWithoutRow == 0 && sentNotSubmitted == 0) {
            findings.add(new Finding(Level.OK, "workflow", "claim statuses agree with their outbox rows"));
            return;
        }
        if (submittingWithoutRow > 0) {
            findings.add(new Finding(Level.FAIL, "workflow", submittingWithoutRow
                    + " SUBMITTING claim(s) have no pending or failed outbox row"));
        }
        if (sentNotSubmitted > 0) {
            findings.add(new Finding(Level.FAIL, "workflow", sentNotSubmitted
                    + " claim(s) have a sent outbox row but were never marked SUBMITTED_TO_STATE"));
        }
    }

    private static String human(Duration d) {
        return d.toHours() >= 1 ? d.toHours() + " h" : d.toMinutes() + " min";
    }
}
