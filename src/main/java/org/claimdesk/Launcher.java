package org.claimdesk;

import java.util.List;
import java.util.function.Consumer;
import org.claimdesk.app.DataDirectory;
import org.claimdesk.bench.BenchCommand;
import org.claimdesk.cli.ClaimDeskCommand;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.ui.Console;

/**
 * The one entry point. With no command it opens the console; with a command it runs the CLI, to which it
 * adds the {@code bench} commands: the one place where the product reaches {@code org.claimdesk.bench}.
 * It does not extend {@code Application}, so JavaFX also starts from the class path.
 */
public final class Launcher {
    private Launcher() {
    }

    public static void main(String[] args) {
        System.exit(run(Console::open, Console::cannotStart, args));
    }

    /**
     * What {@link #main} does before it exits: prepares the logs and runs the command line, on which {@code console}
     * opens the console when no command is given. The benchmark's measured console starts here with no argument, as
     * the desktop starts the console; the installer's start-up training with {@code --db}, so that the command
     * line's classes are in its class list too.
     *
     * @return the exit code
     */
    public static int run(Consumer<DatabaseLocation> console, String... args) {
        return run(console, null, args);
    }

    /** As {@link #run(Consumer, String...)}, with {@code cannotStart} shown a refused database setting at a start. */
    static int run(Consumer<DatabaseLocation> console, Consumer<String> cannotStart, String... args) {
        DataDirectory.prepareLogs();
        return ClaimDeskCommand.execute(console, cannotStart, List.of(new BenchCommand()), args);
    }
}
