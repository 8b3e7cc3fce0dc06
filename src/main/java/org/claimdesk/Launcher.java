package org.claimdesk;

import org.claimdesk.app.DataDirectory;
import org.claimdesk.cli.ClaimDeskCommand;
import org.claimdesk.ui.Console;
import org.claimdesk.ui.bench.ConsoleBenchmark;

/**
 * The one entry point. With no command it opens the console; with a command it runs the CLI.
 * It does not extend {@code Application}, so JavaFX also starts from the class path.
 */
public final class Launcher {
    private Launcher() {
    }

    public static void main(String[] args) {
        DataDirectory.prepareLogs();
        int code = ClaimDeskCommand.execute(Console::open, ConsoleBenchmark::run, args);
        System.exit(code);
    }
}
