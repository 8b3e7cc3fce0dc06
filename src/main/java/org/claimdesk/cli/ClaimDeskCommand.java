package org.claimdesk.cli;

import java.io.PrintWriter;
import java.time.Clock;
import java.util.List;
import java.util.function.Consumer;
import org.claimdesk.app.DataDirectory;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.SchemaProgress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code claimdesk [--db PATH|URL] <command>}. Exit 0 on success, 1 on a refused operation, 2 on a usage error. */
@Command(name = "claimdesk",
        mixinStandardHelpOptions = true,
        // --help (and --version) on every command: claimdesk doctor --help prints doctor's usage
        scope = CommandLine.ScopeType.INHERIT,
        versionProvider = VersionProvider.class,
        description = "ClaimDesk: claims workflow and state-submission outbox for an unclaimed-property claims office.",
        subcommands = {
            DemoCommand.class,
            ClaimsCommand.class,
            OutboxCommand.class,
            AuditCommand.class,
            DoctorCommand.class,
            MigrateCommand.class,
            BackupCommand.class,
            DrainCommand.class,
            StateSimCommand.class,
        })
public final class ClaimDeskCommand implements java.util.concurrent.Callable<Integer> {
    public static final int EXIT_OK = 0;
    public static final int EXIT_REFUSED = 1;
    public static final int EXIT_USAGE = 2;
    /** {@code drain --max-wait} ran out with rows still pending. */
    public static final int EXIT_PENDING = 3;

    private static final Logger LOG = LoggerFactory.getLogger(ClaimDeskCommand.class);

    @Option(names = "--db", paramLabel = "PATH|URL", scope = CommandLine.ScopeType.INHERIT,
            // lines short enough for every command's option column: wrapped by picocli, the address would be cut
            description = {"Database file (default: $CLAIMDESK_DB, else", "the per-user data directory), or a team",
                "database: postgresql://user@host:port/dbname", "(password from PGPASSWORD or ~/.pgpass)."})
    String db;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Where a command reads what it asks for ({@code --tax-id-stdin}): the process's standard input, or a test's. */
    java.io.InputStream in = System.in;

    /** The clock the commands work in; null: the database's ({@link Database#clock}). Tests give a fixed one. */
    Clock clock;

    /** The clock given to the commands, else the system's: for what runs before a database is open, or without one. */
    Clock clockOrSystem() {
        return clock != null ? clock : Clock.systemDefaultZone();
    }

    /** Opens the console on a database path; set by the launcher, absent in CLI-only runs. */
    private final Consumer<DatabaseLocation> console;

    ClaimDeskCommand(Consumer<DatabaseLocation> console) {
        this.console = console;
    }

    @Option(names = "--self-test", description = "Check this installation without a display: a temporary database,"
            + " its migrations and one submission delivered to the simulated state; exit 0 when all pass.")
    boolean selfTest;

    /** No command: the self-test if asked, else the console, or the usage text when there is no console. */
    @Override
    public Integer call() {
        if (selfTest) {
            new org.claimdesk.app.SelfTest(spec.commandLine().getOut(), clockOrSystem()).run();
        } else if (console == null) {
            spec.commandLine().usage(spec.commandLine().getOut());
        } else {
            DataDirectory.refuseMissingFolder(db);
            console.accept(databasePath());
        }
        return EXIT_OK;
    }

    DatabaseLocation databasePath() {
        return DataDirectory.database(db);
    }

    /**
     * Opens the database for a command that makes a desk's file when it is not there ({@code demo}, {@code claims
     * create}, {@code claims import}); an upgrade of its schema, which may take a while on a large one, is said on
     * stderr first.
     */
    Database openOrCreateDatabase() {
        return Database.open(databasePath(), upgradeNotice(spec.commandLine().getErr()));
    }

    /**
     * As {@link #openOrCreateDatabase()}, for every other command: a desk file that is not there is refused (exit 1)
     * rather than made new and empty, where a mistyped path would list no claims, back up or check an empty database,
     * or leave a stray file behind a refusal.
     */
    Database openDatabase() {
        if (databasePath() instanceof DatabaseLocation.SqliteFile desk && !java.nio.file.Files.isRegularFile(desk.file())) {
            throw new ClaimDeskException("no database file " + desk.file() + " (nothing was created): name the desk's"
                    + " file with --db or CLAIMDESK_DB; a new desk's file is made by the console, demo, claims create"
                    + " or claims import");
        }
        return openOrCreateDatabase();
    }

    /** Says on {@code err} which schema upgrade a database opened by a command is given, as it begins. */
    static SchemaProgress upgradeNotice(PrintWriter err) {
        return (found, version, latest) -> {
            if (found > 0) {
                err.println(SchemaProgress.describe(found, version, latest) + "…");
                err.flush();
            }
        };
    }

    /** Runs the CLI; with no command, {@code console} opens the console on the chosen database. */
    public static int execute(Consumer<DatabaseLocation> console, String... args) {
        return execute(console, List.of(), args);
    }

    /**
     * As {@link #execute(Consumer, String...)}, with more top-level commands (picocli command objects) beside
     * the product's own: the launcher adds its tooling commands this way, so that the CLI does not depend on
     * them. Their refusals and failures go through the same handler and exit codes as the product's.
     */
    public static int execute(Consumer<DatabaseLocation> console, List<Object> moreCommands, String... args) {
        return execute(console, null, moreCommands, args);
    }

    /**
     * As {@link #execute(Consumer, List, String...)}; when the console is to open (no argument, as the desktop starts
     * it) on a database address that is refused (a password in {@code CLAIMDESK_DB}, a setting the driver does not
     * know), {@code cannotStart} is given the refusal besides standard error, which a start from the desktop shows
     * nobody; null: standard error only.
     */
    public static int execute(Consumer<DatabaseLocation> console, Consumer<String> cannotStart,
            List<Object> moreCommands, String... args) {
        if (args.length == 0 && console != null) {
            // No command and no option, as the desktop starts it: the console opens without the command line, whose
            // model of every command, read by reflection, would come first in the console's start-up.
            try {
                DataDirectory.database(null);
                DataDirectory.refuseMissingFolder(null);
            } catch (ClaimDeskException | IllegalArgumentException refused) {
                int exit = failed(refused, new PrintWriter(System.err, true));
                if (cannotStart != null) {
                    cannotStart.accept(refused.getMessage());
                }
                return exit;
            }
            try {
                return new ClaimDeskCommand(console).call();
            } catch (RuntimeException e) {
                return failed(e, new PrintWriter(System.err, true));
            }
        }
        return commandLine(console, moreCommands).execute(args);
    }

    /** The command line {@link #execute(Consumer, List, String...)} runs, for callers that set its writers. */
    public static CommandLine commandLine(Consumer<DatabaseLocation> console, List<Object> moreCommands) {
        return newCommandLine(new ClaimDeskCommand(console), moreCommands);
    }

    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        return execute(System.in, out, err, args);
    }

    /** As {@link #execute(PrintWriter, PrintWriter, String...)}, reading standard input from {@code in}. */
    public static int execute(java.io.InputStream in, PrintWriter out, PrintWriter err, String... args) {
        ClaimDeskCommand command = new ClaimDeskCommand(null);
        command.in = in;
        CommandLine cl = newCommandLine(command);
        cl.setOut(out);
        cl.setErr(err);
        return cl.execute(args);
    }

    static CommandLine newCommandLine(Consumer<DatabaseLocation> console) {
        return newCommandLine(new ClaimDeskCommand(console));
    }

    static CommandLine newCommandLine(ClaimDeskCommand command) {
        return newCommandLine(command, List.of());
    }

    /** The command line, {@code moreCommands} added before the settings, which apply to the commands present. */
    static CommandLine newCommandLine(ClaimDeskCommand command, List<Object> moreCommands) {
        CommandLine cl = new CommandLine(command);
        moreCommands.forEach(cl::addSubcommand);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> failed(ex, commandLine.getErr()));
        HelpText.reflow(cl);
        return cl;
    }

    /**
     * A command that threw: a usage error is one line, exit 2; a refusal one line, exit 1; anything else is logged in
     * full, exit 1.
     */
    private static int failed(Exception ex, PrintWriter err) {
        if (ex instanceof UsageException usage) {
            err.println("claimdesk: " + usage.getMessage());
            LOG.info("usage: {}", usage.getMessage());
            return EXIT_USAGE;
        }
        if (ex instanceof ClaimDeskException || ex instanceof IllegalArgumentException) {
            err.println("claimdesk: " + ex.getMessage());
            LOG.info("refused: {}", ex instanceof ClaimDeskException refusal ? refusal.forLog() : ex.getMessage());
            return EXIT_REFUSED;
        }
        LOG.error("command failed", ex);
        err.println("claimdesk: unexpected error: " + ex + " (details in the log)");
        return EXIT_REFUSED;
    }
}
