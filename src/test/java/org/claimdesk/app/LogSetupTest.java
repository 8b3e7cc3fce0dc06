package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogSetupTest {
    @TempDir
    Path dir;

    @Test
    void theLogGoesToClaimdeskLogInTheLogFolderAtInfoWithThePoolsChatterLeftOut() throws Exception {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
        context.start();
        try {
            LogSetup.toFile(context, dir.toString());
            context.getLogger("org.claimdesk.Example").info("claim {} advanced", 42);
            context.getLogger("org.claimdesk.Example").debug("not kept");
            context.getLogger("com.zaxxer.hikari.pool.HikariPool").info("pool chatter");
            context.getLogger("com.zaxxer.hikari.pool.HikariPool").warn("pool warning");
        } finally {
            ch.qos.logback.core.util.StatusPrinter2 printer = new ch.qos.logback.core.util.StatusPrinter2();
            printer.printInCaseOfErrorsOrWarnings(context);
            context.stop();
        }
        String log = Files.readString(dir.resolve("claimdesk.log"), StandardCharsets.UTF_8);
        assertThat(log.lines()).hasSize(2);
        assertThat(log).containsPattern("(?m)^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3} INFO  \\[[^]]+\\]"
                + " org\\.claimdesk\\.Example - claim 42 advanced$")
                .contains("WARN  ").contains("pool warning")
                .doesNotContain("not kept").doesNotContain("pool chatter");
    }

    /**
     * A log folder that cannot be written (a service account's home that does not exist, a read-only home): one line
     * on standard error; and a status listener set, without which logback prints its own errors on standard output,
     * where a command's output goes, once it has set up logging.
     */
    @Test
    void aLogThatCannotBeWrittenIsSaidOnStandardErrorAndLogbackPrintsNothing() throws Exception {
        Path notAFolder = Files.writeString(dir.resolve("home"), "a file where the folder would be");
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
        context.start();
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(said, true, StandardCharsets.UTF_8));
        boolean listened;
        try {
            LogSetup.toFile(context, notAFolder.resolve("logs").toString());
            context.getLogger("org.claimdesk.Example").info("claim {} advanced", 42);
            listened = ch.qos.logback.core.status.StatusUtil.contextHasStatusListener(context);
        } finally {
            System.setErr(err);
            context.stop();
        }
        assertThat(said.toString(StandardCharsets.UTF_8)).isEqualTo("claimdesk: cannot write the log file "
                + notAFolder.resolve("logs").resolve("claimdesk.log") + "; this run keeps no log" + System.lineSeparator());
        assertThat(context.getStatusManager().getCopyOfStatusList()).anyMatch(s -> s.getLevel() == 2);
        assertThat(listened).as("logback prints its errors on standard output only when no listener is set").isTrue();
    }

    /** The log folder is owner-only at every start, one made before with a wider mode included; its log file too. */
    @Test
    void theLogFolderIsMadeOwnerOnlyEvenWhenItWasThereBefore() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("claimdesk").resolve("logs"));
        Files.setPosixFilePermissions(logs, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));

        DataDirectory.prepareLogs(logs);

        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(logs)))
                .isEqualTo("rwx------");
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(logs.resolve("claimdesk.log")))).isEqualTo("rw-------");
    }

    @Test
    void logbackFindsItAndAConfigurationFileOnTheClassPathWins() {
        assertThat(ServiceLoader.load(Configurator.class).stream().map(p -> p.type().getName()))
                .contains(LogSetup.class.getName());
        // the tests' class path holds logback-test.xml: logback reads it, as it would a -Dlogback.configurationFile
        LoggerContext context = new LoggerContext();
        LogSetup setup = new LogSetup();
        setup.setContext(context);
        assertThat(setup.configure(context)).isEqualTo(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY);
        assertThat(context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).iteratorForAppenders().hasNext()).isFalse();
    }
}
