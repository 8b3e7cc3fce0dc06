package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import org.claimdesk.app.DataDirectory;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A team database that asks for a password (scram-sha-256), reached from a real ClaimDesk process: the password
 * comes from {@code PGPASSWORD} or from a password file ({@code ~/.pgpass}, here named by {@code PGPASSFILE}) for the
 * pool and for the live updates' own connection alike; a wrong one, none, or one in a file others may read is refused
 * in one line that does not show it.
 */
class PasswordLoginTest {
    private static final String ROLE = "kim_pw";
    private static final String PASSWORD = "Xy7/s3cret@pw";

    @TempDir
    Path dir;

    @Test
    void theRightPasswordFromEitherSourceOpensTheDatabaseAndAWrongOneIsRefusedWithoutShowingIt() throws Exception {
        DatabaseLocation.Postgres admin = TestDatabase.newEmptyServerDatabase();
        try (Connection c = DriverManager.getConnection(admin.jdbcUrl(), admin.user(), "");
             Statement s = c.createStatement()) {
            s.execute("DROP ROLE IF EXISTS " + ROLE);
            s.execute("CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + PASSWORD + "'");
            s.execute("ALTER DATABASE " + admin.database() + " OWNER TO " + ROLE);
            s.execute("ALTER SCHEMA public OWNER TO " + ROLE);
            // only this role must give a password; every other test's role stays trusted
            String trusted = TestDatabase.requirePassword(s, ROLE);
            try {
                String url = "postgresql://" + ROLE + "@" + admin.host() + ":" + admin.port() + "/" + admin.database();

                Result byVariable = drain(url, Map.of("PGPASSWORD", PASSWORD), "env");
                assertThat(byVariable.exit()).as(byVariable.err()).isZero();
                assertThat(log("env")).as("the live updates logged in too").isNotEmpty().doesNotContain("live updates")
                        .doesNotContain(PASSWORD);

                Path pgpass = dir.resolve("pgpass");
                // a line that is not whole is passed over, as psql does (the driver alone fails on it)
                Files.writeString(pgpass, "# the office's server\n" + admin.host() + ":" + admin.port() + "\n*:*:*:"
                        + ROLE + ":" + PASSWORD.replace(":", "\\:") + "\n");
                Files.setPosixFilePermissions(pgpass, PosixFilePermissions.fromString("rw-------"));
                Result byFile = drain(url, Map.of("PGPASSFILE", pgpass.toString()), "file");
                assertThat(byFile.exit()).as(byFile.err()).isZero();
                assertThat(log("file")).doesNotContain("live updates");

                Files.setPosixFilePermissions(pgpass, PosixFilePermissions.fromString("rw-r--r--"));
                Result readable = drain(url, Map.of("PGPASSFILE", pgpass.toString()), "readable");
                assertThat(readable.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
                assertThat(readable.err().strip()).as("a file others may read is not read, as psql does not")
                        .startsWith("claimdesk: ").contains("refused the login of " + ROLE, "chmod 600 " + pgpass)
                        .doesNotContain("\n").doesNotContain(PASSWORD);

                Result none = drain(url, Map.of("PGPASSFILE", dir.resolve("no-such-file").toString()), "none");
                assertThat(none.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
                assertThat(none.err().strip()).startsWith("claimdesk: ").contains("refused the login of " + ROLE)
                        .contains("PGPASSWORD").doesNotContain("\n");

                Result wrong = drain(url, Map.of("PGPASSWORD", "not-" + PASSWORD), "wrong");
                assertThat(wrong.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
                assertThat(wrong.err().strip()).startsWith("claimdesk: ").contains("PGPASSWORD").doesNotContain("\n")
                        .doesNotContain(PASSWORD);
                assertThat(log("wrong")).doesNotContain(PASSWORD);
            } finally {
                TestDatabase.restoreLoginRules(s, trusted);
            }
        }
    }

    /** {@code claimdesk drain} in a process of its own, which logs to a folder of its own. */
    private Result drain(String url, Map<String, String> password, String name) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dclaimdesk.testLogDir=" + dir.resolve(name), "-cp", System.getProperty("java.class.path"),
                "org.claimdesk.Launcher", "--db", url, "drain", "--simulated", "--until-idle", "--max-wait", "20");
        builder.environment().remove("PGPASSWORD");
        builder.environment().putAll(password);
        builder.environment().put(DataDirectory.HOME_ENV, dir.resolve(name).resolve("home").toString());
        Path err = dir.resolve(name + ".err");
        builder.redirectError(err.toFile()).redirectOutput(dir.resolve(name + ".out").toFile());
        Process process = builder.start();
        if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("drain did not finish within 60 s");
        }
        return new Result(process.exitValue(), Files.readString(err));
    }

    private record Result(int exit, String err) {
    }

    private String log(String name) throws java.io.IOException {
        return Files.readString(dir.resolve(name).resolve("claimdesk-test.log"));
    }
}
