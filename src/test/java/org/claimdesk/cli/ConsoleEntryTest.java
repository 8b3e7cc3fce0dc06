package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the launcher reaches the console: no command (or --db alone) opens it. */
class ConsoleEntryTest {

    @Test
    void noCommandOpensTheConsoleOnTheChosenDatabase() {
        List<Path> opened = new ArrayList<>();
        assertThat(ClaimDeskCommand.execute(opened::add, "--db", "/tmp/claims-office.db")).isZero();
        assertThat(opened).containsExactly(Path.of("/tmp/claims-office.db"));
        assertThat(ClaimDeskCommand.execute(opened::add)).isZero();
        assertThat(opened).hasSize(2);
        assertThat(opened.get(1)).isEqualTo(org.claimdesk.app.DataDirectory.database(null));
    }
}
