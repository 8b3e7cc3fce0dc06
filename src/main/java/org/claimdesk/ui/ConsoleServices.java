package org.claimdesk.ui;

import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import org.claimdesk.app.AuditedWorker;
import org.claimdesk.app.BulkEdit;
import org.claimdesk.app.ClaimExport;
import org.claimdesk.app.ClaimImport;
import org.claimdesk.app.DeadlineSettings;
import org.claimdesk.app.DemoData;
import org.claimdesk.app.LiveChanges;
import org.claimdesk.app.Operators;
import org.claimdesk.app.OutboxTriage;
import org.claimdesk.app.Queries;
import org.claimdesk.app.Resubmission;
import org.claimdesk.app.Workflow;
import org.claimdesk.delivery.DeliveryWorker;
import org.claimdesk.delivery.HttpStateAdapter;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.delivery.StateAdapter;
import org.claimdesk.delivery.StateNotSet;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.SchemaProgress;

/**
 * What the console works with: one open database, its read and write use cases, the state endpoint, the
 * delivery worker (not started: the console starts it once the database is ready) and the outbox triage
 * operations, and who is signed in.
 */
public record ConsoleServices(
        Database database,
        Queries queries,
        Workflow workflow,
        StateAdapter state,
        AuditedWorker worker,
        OutboxTriage triage,
        String actor) implements AutoCloseable {

    /** Environment variable (or system property {@code claimdesk.stateUrl}) naming the state's API. */
    public static final String STATE_URL_ENV = HttpStateAdapter.URL_ENV;

    /**
     * Opens {@code databaseFile} (creating it if needed) and builds the services on it. The state is the one
     * {@value #STATE_URL_ENV} names; without it, a file's claims go to the simulated state and a team database's to
     * none ({@link StateNotSet}: the worker stays off). Never call on the FX thread.
     */
    public static ConsoleServices open(DatabaseLocation databaseFile) {
        return open(databaseFile, SchemaProgress.NONE);
    }

    /** As {@link #open(DatabaseLocation)}, telling {@code progress} of each schema version applied while it opens. */
    public static ConsoleServices open(DatabaseLocation databaseFile, SchemaProgress progress) {
        Database database = Database.open(databaseFile, progress);
        try {
            return on(database, stateFromEnvironment(database.onServer()), WorkerSettings.defaults());
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    /** Services on an open database with the given state and worker settings. */
    public static ConsoleServices on(Database database, StateAdapter state, WorkerSettings settings) {
        Clock clock = database.clock();
        Deadlines deadlines = DeadlineSettings.current(database);
        Queries queries = new Queries(database, clock);
        String actor = Operators.osUser();
        AuditedWorker worker = new AuditedWorker(new DeliveryWorker(database, state, settings, clock, deadlines),
                database, clock, actor);
        OutboxTriage triage = new OutboxTriage(database, clock, deadlines, state);
        return new ConsoleServices(database, queries, new Workflow(database, clock, deadlines), state, worker, triage,
                actor);
    }

    /** The same services acting as {@code operator}: its name goes on every audited action and settings change. */
    public ConsoleServices withActor(String operator) {
        return new ConsoleServices(database, queries, workflow, state, worker.as(operator), triage,
                Operators.check(operator));
    }

    static StateAdapter stateFromEnvironment(boolean teamDatabase) {
        java.util.Optional<String> url = HttpStateAdapter.configuredUrl();
        if (url.isPresent()) {
            return HttpStateAdapter.fromEnvironment(URI.create(url.get()), HttpStateAdapter.DEFAULT_CONNECT_TIMEOUT,
                    HttpStateAdapter.DEFAULT_REQUEST_TIMEOUT);
        }
        return teamDatabase ? new StateNotSet(NO_STATE_ON_TEAM_DATABASE) : simulated();
    }

    /** Why a workstation on a team database without {@value #STATE_URL_ENV} delivers nothing. */
    static final String NO_STATE_ON_TEAM_DATABASE = "No state API is set on this workstation: on a team database"
            + " the delivery worker delivers to the state's API only, never to the simulated state. Set "
            + STATE_URL_ENV + " to the state's API and start ClaimDesk again.";

    /**
     * The demo state: answers in 40 ms with a few transient failures (503); it refuses a claim only
     * for what the claim contains, so triage has work wherever the data breaks a rule.
     */
    public static StateAdapter simulated() {
        return new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable()
                .withLatency(Duration.ofMillis(40)).withTransientRate(0.03)));
    }

    public String endpoint() {
        return state.endpoint();
    }

    /** The open database as staff see it: its file, or the team database's server and name. */
    public String databaseName() {
        return database.location().describe();
    }

    /** The window's short name for the database: the file's name, or the team database's name. */
    public String databaseTitle() {
        return database.location() instanceof DatabaseLocation.Postgres server
                ? server.database() + " on " + server.host() : database.path().getFileName().toString();
    }

    /**
     * Whether reads go to a database server (a team database) rather than a file on this workstation: each then
     * costs round trips, and the driver's decoding, which in a cold JVM makes the first page's read take 0.2–0.3 s.
     * The views reach the store only through this record.
     */
    public boolean onServer() {
        return database.onServer();
    }

    /** The time the services work in: the database's ({@code Database#clock}), on a team database the server's. */
    public Clock clock() {
        return database.clock();
    }

    /** One field set on many claims at once, on this database. */
    public BulkEdit bulkEdit() {
        return new BulkEdit(database, clock());
    }

    /** Resubmitting corrected claims and re-queueing unchanged ones, on this database. */
    public Resubmission resubmission() {
        return new Resubmission(database, clock(), state);
    }

    /** Importing claims from CSV files into this database. */
    public ClaimImport claimImport() {
        return new ClaimImport(database, clock());
    }

    /** Exporting claims from this database in the import's format. */
    public ClaimExport claimExport() {
        return new ClaimExport(database, clock());
    }

    /** What other workstations change in a team database, as they commit it (nothing on a local file). */
    public LiveChanges liveChanges() {
        return new LiveChanges(database);
    }

    /**
     * The demo data an empty database gets at the console's first start, dated from the given day; null on a team
     * database (an office's shared database never gets synthetic claims) and where deliveries go to a state's API
     * (demo data's pending submissions would go to the state; a simulated state on this machine, for training, is
     * not one).
     */
    public java.util.function.Function<LocalDate, DemoData> demoDataWhenEmpty() {
        return emptyNotice() == null ? this::demoData : null;
    }

    /** What an empty database says at start when it gets no demo data; null when it gets some. */
    public String emptyNotice() {
        if (database.onServer()) {
            return org.claimdesk.ui.main.MainViewModel.EMPTY_TEAM_DATABASE;
        }
        return state.simulated() || HttpStateAdapter.onThisMachine(state.endpoint()) ? null
                : org.claimdesk.ui.main.MainViewModel.EMPTY_DESK_WITH_STATE_API;
    }

    /** The demo data a first start fills an empty database with, dated from {@code today}. */
    public DemoData demoData(LocalDate today) {
        return new DemoData(database, today, DeadlineSettings.current(database));
    }

    /** Stops the worker (finishing or releasing its leases), then closes the state client and the database. */
    @Override
    public void close() {
        try {
            worker.close();
        } finally {
            try {
                state.close();
            } finally {
                database.close();
            }
        }
    }
}
