package org.claimdesk.bench;

import static java.util.stream.Collectors.joining;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The menu entry the installer registers starts the console as {@code bench ui} starts the console it measures. */
class DesktopEntryTest {

    @Test
    void theMenuEntryStartsTheConsoleWithTheEnvironmentTheBenchmarkGivesIt() throws Exception {
        String exec = Files.readAllLines(Path.of("installer/linux/ClaimDesk.desktop")).stream()
                .filter(line -> line.startsWith("Exec=")).findFirst().orElseThrow();
        String assignments = ConsoleBenchmark.DESKTOP_ENVIRONMENT.entrySet().stream()
                .sorted(Map.Entry.comparingByKey()).map(e -> e.getKey() + "=" + e.getValue()).collect(joining(" "));

        assertThat(assignments).contains("GDK_GL=disable");
        // jpackage puts the launcher's path in place of APPLICATION_LAUNCHER
        assertThat(exec).isEqualTo("Exec=env " + assignments + " APPLICATION_LAUNCHER");
    }
}
