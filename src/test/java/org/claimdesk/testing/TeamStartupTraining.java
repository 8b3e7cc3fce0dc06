package org.claimdesk.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.claimdesk.app.DataDirectory;
import org.claimdesk.app.DeadlineSettings;
import org.claimdesk.app.DemoData;
import org.claimdesk.app.TemporaryFolders;
import org.claimdesk.bench.ui.StartupTraining;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;

/**
 * The installer build's second start-up training: a team database's start, whose classes (the PostgreSQL driver's,
 * the password exchange's, the pool's on a server) a desk's training never loads. It starts a PostgreSQL server as
 * the tests do, with a role that logs in with a password (scram-sha-256, as an office's server asks for), fills a
 * database with demo claims, runs {@link StartupTraining} on it in a JVM of its own that lists the classes it loads,
 * and adds to the desk's class list the lines it lacks. The training JVM has the product's class path, not the
 * tests', so that it logs as the installed console does.
 *
 * <p>Arguments: a work folder (deleted afterwards), the desk's class list (extended in place), the training's class
 * path, then the training JVM's options.
 */
public final class TeamStartupTraining {
    private static final String ROLE = "claimdesk_training";
    private static final int CLAIMS = 300;
    private static final long LIMIT_SECONDS = 180;

    private TeamStartupTraining() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: TeamStartupTraining WORK_FOLDER CLASS_LIST CLASS_PATH [JVM_OPTION...]");
            System.exit(2);
        }
        Path work = Path.of(args[0]);
        Path classList = Path.of(args[1]);
        String classPath = args[2];
        List<String> jvmOptions = List.of(args).subList(3, args.length);
        TemporaryFolders.deleteQuietly(work);
        Files.createDirectories(work);
        Path teamList = work.resolve("team.classlist");
        try (EmbeddedPostgres server = EmbeddedPostgres.builder().setDataDirectory(work.resolve("server"))
                .setCleanDataDirectory(true).start()) {
            byte[] secret = new byte[12];
            new SecureRandom().nextBytes(secret);
            String password = HexFormat.of().formatHex(secret);
            DatabaseLocation.Postgres location = teamDatabase(server, password);
            train(location, password, work, teamList, classPath, jvmOptions);
        }
        int added = addMissingLines(teamList, classList);
        System.out.println("TeamStartupTraining: " + added + " lines of a team database's start added to " + classList);
        TemporaryFolders.deleteQuietly(work);
    }

    /**
     * A database owned by {@link #ROLE} with ClaimDesk's schema and {@value #CLAIMS} demo claims, written while the
     * server trusts the role; then the role must give its password, as on an office's server.
     */
    private static DatabaseLocation.Postgres teamDatabase(EmbeddedPostgres server, String password)
            throws SQLException, IOException {
        DatabaseLocation.Postgres location = new DatabaseLocation.Postgres("localhost", server.getPort(), ROLE, ROLE,
                Map.of());
        try (Connection c = server.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + password + "'");
            s.execute("CREATE DATABASE " + ROLE + " OWNER " + ROLE);
            try (Database database = Database.open(location)) {
                new DemoData(database, LocalDate.now(), DeadlineSettings.current(database)).generate(CLAIMS, 1L, n -> { });
            }
            TestDatabase.requirePassword(s, ROLE);
        }
        return location;
    }

    /** {@link StartupTraining} on {@code location}, in a JVM of its own that writes its class list to {@code list}. */
    private static void train(DatabaseLocation.Postgres location, String password, Path work, Path list,
            String classPath, List<String> jvmOptions) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-XX:DumpLoadedClassList=" + list);
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath, StartupTraining.class.getName(), work.resolve("console").toString(),
                "--db", "postgresql://" + location.user() + "@" + location.host() + ":" + location.port() + "/"
                        + location.database()));
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        builder.environment().remove("PGPASSFILE");
        builder.environment().put("PGPASSWORD", password);
        builder.environment().put(DataDirectory.HOME_ENV, work.resolve("home").toString());
        Process training = builder.start();
        if (!training.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS)) {
            training.destroyForcibly();
            throw new IllegalStateException("the team database's start-up training did not end within "
                    + LIMIT_SECONDS + " s");
        }
        if (training.exitValue() != 0) {
            throw new IllegalStateException("the team database's start-up training failed (exit "
                    + training.exitValue() + ")");
        }
    }

    /** Appends to {@code target} the lines of {@code source} it does not hold (the JVM's comments left out). */
    static int addMissingLines(Path source, Path target) throws IOException {
        String kept = Files.readString(target);
        Set<String> held = new HashSet<>(kept.lines().toList());
        List<String> missing = new ArrayList<>();
        for (String line : Files.readAllLines(source)) {
            if (!line.isBlank() && !line.startsWith("#") && held.add(line)) {
                missing.add(line);
            }
        }
        String lineBreak = kept.isEmpty() || kept.endsWith("\n") ? "" : "\n";
        Files.writeString(target, lineBreak + String.join("\n", missing) + (missing.isEmpty() ? "" : "\n"),
                java.nio.file.StandardOpenOption.APPEND);
        return missing.size();
    }
}
