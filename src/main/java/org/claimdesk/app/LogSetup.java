package org.claimdesk.app;

import ch.qos.logback.classic.ClassicConstants;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.util.FileSize;
import org.slf4j.Logger;

/**
 * ClaimDesk's logging, set up in code when logback starts (found through {@code META-INF/services}): the log goes
 * to {@code claimdesk.log} in the log folder ({@link DataDirectory#prepareLogs}, else {@link DataDirectory#logFolder}),
 * never to the terminal of a CLI run, rolled daily and at 10 MB, 14 days and 200 MB kept. Set up in code rather
 * than from an XML file, logback starts in about half the time (it reads no XML), and every start waits for it.
 * A configuration file given with {@code -Dlogback.configurationFile}, or a {@code logback-test.xml} on the class
 * path, wins: logback then reads it as usual.
 */
public final class LogSetup extends ContextAwareBase implements Configurator {
    static final String PATTERN = "%d{ISO8601} %-5level [%thread] %logger{36} - %msg%n";

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty(ClassicConstants.CONFIG_FILE_PROPERTY) != null
                || LogSetup.class.getClassLoader().getResource(ClassicConstants.TEST_AUTOCONFIG_FILE) != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        String dir = System.getProperty(DataDirectory.LOG_DIR_PROPERTY);
        toFile(context, dir != null ? dir : DataDirectory.logFolder().toString());
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** Sends {@code context}'s log to {@code claimdesk.log} in {@code dir}, rolled as the product's. */
    static void toFile(LoggerContext context, String dir) {
        // with no status listener, logback prints its own errors (a log file it cannot open) on standard output,
        // into a command's output (doctor --json); the one that matters is said on standard error below
        context.getStatusManager().add(new ch.qos.logback.core.status.NopStatusListener());
        RollingFileAppender<ILoggingEvent> file = new RollingFileAppender<>();
        file.setContext(context);
        file.setName("FILE");
        file.setFile(dir + "/" + DataDirectory.LOG_FILE);
        SizeAndTimeBasedRollingPolicy<ILoggingEvent> rolling = new SizeAndTimeBasedRollingPolicy<>();
        rolling.setContext(context);
        rolling.setParent(file);
        rolling.setFileNamePattern(dir + "/claimdesk.%d{yyyy-MM-dd}.%i.log");
        rolling.setMaxFileSize(FileSize.valueOf("10MB"));
        rolling.setMaxHistory(14);
        rolling.setTotalSizeCap(FileSize.valueOf("200MB"));
        rolling.start();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        file.setRollingPolicy(rolling);
        file.setEncoder(encoder);
        file.start();
        if (!file.isStarted()) {
            System.err.println("claimdesk: cannot write the log file " + file.getFile() + "; this run keeps no log");
        }
        context.getLogger("com.zaxxer.hikari").setLevel(Level.WARN);
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(file);
    }
}
