package org.claimdesk;

import java.util.List;
import org.claimdesk.app.DataDirectory;
import org.claimdesk.bench.BenchCommand;
import org.claimdesk.cli.ClaimDeskCommand;
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
        DataDirectory.prepareLogs();
        int code = ClaimDeskCommand.execute(Console::open, List.of(new BenchCommand()), args);
        System.exit(code);
    }
}
