package org.claimdesk.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.claimdesk.app.AuditedWorker;
import org.claimdesk.app.DeadlineSettings;
import org.claimdesk.app.StaffPauseWatch;
import org.claimdesk.delivery.Drain;
import org.claimdesk.delivery.StateAdapter;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.delivery.WorkerSnapshot;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.WorkerPause;
import org.claimdesk.store.Database;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "drain", description = {
    "Deliver due outbox rows to the state, then stop.",
    "Exit 0 when idle, 3 when --max-wait ran out with rows still pending, 1 when refused (including the state "
        + "refusing ClaimDesk's credentials or being unreachable, and staff having paused the worker, before or while "
        + "it runs)."})
final class DrainCommand extends CliSupport implements Callable<Integer> {
    @Mixin
    StateOptions state;

    @Option(names = "--until-idle", description = "Keep going, through backoff waits and the state's holds (429), until no row is"
            + " pending; a scheduled drain should also be given --max-wait.")
    boolean untilIdle;

    @Option(names = "--max-wait", paramLabel = "SECONDS", description = "Stop after this long even with rows pending.")
    Double maxWaitSeconds;

    @Option(names = "--concurrency", paramLabel = "N", defaultValue = "8", description = "Deliveries in flight at most (default ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--max-attempts", paramLabel = "N", defaultValue = "8", description = "Counted attempts before a row fails for good; a 429 is not counted (default ${DEFAULT-VALUE}).")
    int maxAttempts;

    @Option(names = "--interval-ms", paramLabel = "MS", defaultValue = "2000", description = "How often due rows are looked for (default ${DEFAULT-VALUE}).")
    long intervalMs;

    @Option(names = "--backoff-base-ms", paramLabel = "MS", defaultValue = "2000", description = "First retry delay ceiling (default ${DEFAULT-VALUE}).")
    long backoffBaseMs;

    @Option(names = "--backoff-cap-ms", paramLabel = "MS", defaultValue = "600000", description = "Longest retry delay (default ${DEFAULT-VALUE}).")
    long backoffCapMs;

    @Option(names = "--lease-seconds", paramLabel = "S", defaultValue = "60", description = "How long a taken row stays reserved (default ${DEFAULT-VALUE}).")
    long leaseSeconds;

    @Option(names = "--even-if-paused", description = "Deliver even though staff paused the worker (the pause stays"
            + " for every other worker; audited with --actor and --reason); a pause made while it runs stops it. A desk"
            + " whose claims were moved to a team database is refused.")
    boolean evenIfPaused;

    @Option(names = "--actor", paramLabel = "NAME", description = "Who overrides staff's pause (with --even-if-paused).")
    String actor;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why the pause is overridden (with --even-if-paused).")
    String reason;

    @Option(names = "--json", description = "Print the summary as JSON.")
    boolean json;

    @Override
    public Integer call() {
        state.check(null);
        if (maxWaitSeconds != null && maxWaitSeconds < 0) {
            throw new UsageException("--max-wait must not be negative");
        }
        WorkerSettings settings;
        try {
            settings = new WorkerSettings(Duration.ofMillis(intervalMs), concurrency, maxAttempts,
                    Duration.ofMillis(backoffBaseMs), Duration.ofMillis(backoffCapMs), Duration.ofSeconds(leaseSeconds));
        } catch (IllegalArgumentException e) {
            // the options' values, refused before anything is opened
            throw new UsageException(e.getMessage());
        }
        Duration maxWait = maxWaitSeconds == null ? null : Duration.ofMillis(Math.round(maxWaitSeconds * 1000));
        if (evenIfPaused && (actor == null || reason == null)) {
            throw new UsageException("--even-if-paused needs --actor and --reason: overriding staff's pause is audited");
        }
        if (!evenIfPaused && (actor != null || reason != null)) {
            throw new UsageException("--actor and --reason go with --even-if-paused");
        }
        Drain.Summary summary;
        boolean movedDesk;
        try (Database db = openDatabase(); StaffPauseWatch pause = new StaffPauseWatch(db)) {
            // a setting that cannot be read refuses the drain before anything is written (an override's audit entry)
            org.claimdesk.domain.Deadlines deadlines = DeadlineSettings.current(db);
            if (!evenIfPaused) {
                pause.current().ifPresent(p -> {
                    throw new ClaimDeskException("the delivery worker is paused by " + StaffPauseWatch.byWhomWhenWhy(p)
                            + (AuditedWorker.marksMovedDesk(p) ? "" : "; resume it on the console's Worker page, or"
                                    + " pass --even-if-paused --actor NAME --reason TEXT"));
                });
            }
            try (StateAdapter adapter = state.open(db.onServer())) {
                WorkerPause overridden = null;
                if (evenIfPaused) {
                    overridden = AuditedWorker.overridePause(db, clock(db), actor, reason).orElse(null);
                    if (overridden != null) {
                        err().println("warning: delivering although the worker is paused by "
                                + StaffPauseWatch.byWhomWhenWhy(overridden)
                                + " (the pause stays; this override is audited)");
                    }
                }
                // a pause made meanwhile (on a console, or by another process) stops this drain as it stops a
                // console's; told to go on despite staff's pause, the drain goes on despite that one pause only
                TerminalProgress line = TerminalProgress.onTerminal(err());
                try {
                    summary = Drain.run(db, adapter, settings, deadlines, clock(db), untilIdle,
                            maxWait, progressAndHolds(line), evenIfPaused ? pause.except(overridden) : pause);
                } finally {
                    line.clear();
                }
                movedDesk = pause.current().filter(AuditedWorker::marksMovedDesk).isPresent();
            }
        }
        if (json) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("endpoint", summary.endpoint());
            out.put("simulated", summary.simulated());
            out.put("ending", summary.ending().name().toLowerCase(Locale.ROOT));
            out.put("sent", summary.sent());
            out.put("failed", summary.failed());
            out.put("retried", summary.retried());
            out.put("attempts", summary.attempts());
            out.put("pending", summary.pending());
            out.put("seconds", round(summary.seconds(), 3));
            out.put("eventsPerSecond", round(summary.eventsPerSecond(), 1));
            if (summary.pauseReason() != null) {
                out.put("pauseReason", summary.pauseReason());
            }
            if (summary.lastError() != null) {
                out.put("lastError", summary.lastError());
            }
            printJson(out);
        } else {
            out().printf(Locale.ROOT, "%s: %d sent, %d failed, %d retried, %d attempts in %.1f s (%.1f rows/s); %d pending%n",
                    summary.simulated() ? "simulated state" : "state API at " + summary.endpoint(), summary.sent(),
                    summary.failed(), summary.retried(), summary.attempts(), summary.seconds(),
                    summary.eventsPerSecond(), summary.pending());
            if (summary.lastError() != null && summary.ending() != Drain.Ending.PAUSED
                    && summary.ending() != Drain.Ending.PAUSED_BY_STAFF) {
                out().println("last error: " + summary.lastError());
            }
            out().flush();
        }
        return switch (summary.ending()) {
            case IDLE -> ClaimDeskCommand.EXIT_OK;
            case MAX_WAIT -> ClaimDeskCommand.EXIT_PENDING;
            case PAUSED -> throw new ClaimDeskException("delivery stopped: " + summary.pauseReason());
            case PAUSED_BY_STAFF -> throw new ClaimDeskException("delivery stopped: " + summary.pauseReason()
                    + "; the deliveries under way finished, " + summary.pending() + (movedDesk
                            ? " pending rows are the team database's to deliver"
                            : " rows wait for it to be resumed"));
        };
    }

    /** Says on stderr, once for each hold, that the state asked to slow down and until when nothing is sent. */
    /** The worker's progress on the terminal's line, and each hold the state asks for as a line of its own. */
    private Consumer<WorkerSnapshot> progressAndHolds(TerminalProgress line) {
        AtomicReference<Instant> told = new AtomicReference<>();
        return s -> {
            WorkerSnapshot.Hold hold = s.hold();
            if (hold != null && !hold.since().equals(told.getAndSet(hold.since()))) {
                line.clear();
                err().println("waiting until " + hold.until().truncatedTo(ChronoUnit.SECONDS)
                        + ": the state asked ClaimDesk to slow down (" + hold.reason() + ")");
                err().flush();
            }
            line.show(String.format("drain: %,d sent, %,d failed, %,d retried", s.sentThisRun(), s.failedThisRun(),
                    s.retriedThisRun()));
        };
    }

    static double round(double value, int places) {
        double scale = Math.pow(10, places);
        return Math.round(value * scale) / scale;
    }
}
