package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.claimdesk.app.DataDirectory;
import org.claimdesk.store.DatabaseException;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.testing.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the launcher reaches the console: no command (or --db alone) opens it. */
class ConsoleEntryTest {

    @Test
    void noCommandOpensTheConsoleOnTheChosenDatabase() {
        List<DatabaseLocation> opened = new ArrayList<>();
        assertThat(ClaimDeskCommand.execute(opened::add, "--db", "/tmp/claims-office.db")).isZero();
        assertThat(opened).containsExactly(new DatabaseLocation.SqliteFile(Path.of("/tmp/claims-office.db")));
        assertThat(ClaimDeskCommand.execute(opened::add)).isZero();
        assertThat(opened).hasSize(2);
        assertThat(opened.get(1)).isEqualTo(org.claimdesk.app.DataDirectory.database(null));
    }

    /**
     * A desk's file named in a folder that is not there (a share not mounted, a mistyped folder): the console is not
     * opened on a new, empty desk made there; a new file in a folder that is there is a new desk.
     */
    @Test
    void aNamedDeskFileInAFolderThatIsNotThereIsRefusedBeforeTheConsoleMakesIt(@TempDir Path dir) {
        List<DatabaseLocation> opened = new ArrayList<>();
        Path unmounted = dir.resolve("share").resolve("claims").resolve("office.db");
        java.io.StringWriter err = new java.io.StringWriter();
        picocli.CommandLine cl = ClaimDeskCommand.newCommandLine(opened::add);
        cl.setErr(new java.io.PrintWriter(err));

        assertThat(cl.execute("--db", unmounted.toString())).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(err.toString()).startsWith("claimdesk: no folder " + unmounted.getParent()
                + " for the desk's file office.db (nothing was created)");
        assertThat(opened).isEmpty();
        assertThat(dir.resolve("share")).doesNotExist();

        assertThat(ClaimDeskCommand.execute(opened::add, "--db", dir.resolve("new-desk.db").toString())).isZero();
        assertThat(opened).containsExactly(new DatabaseLocation.SqliteFile(dir.resolve("new-desk.db")));
        assertThatThrownBy(() -> DataDirectory.refuseMissingFolder(null, Map.of("CLAIMDESK_DB", unmounted.toString())))
                .hasMessageContaining("check --db or CLAIMDESK_DB");
        DataDirectory.refuseMissingFolder(null, Map.of());
    }

    @Test
    void aServerAddressOpensTheConsoleOnThatTeamDatabaseAndAPasswordInItIsRefused() {
        List<DatabaseLocation> opened = new ArrayList<>();
        assertThat(ClaimDeskCommand.execute(opened::add, "--db", "postgresql://kim@db.office.lan/claims?sslmode=require"))
                .isZero();
        assertThat(opened).singleElement().isEqualTo(new DatabaseLocation.Postgres("db.office.lan", 5432, "claims",
                "kim", java.util.Map.of("sslmode", "require")));
        assertThat(((DatabaseLocation.Postgres) opened.get(0)).jdbcUrl())
                .isEqualTo("jdbc:postgresql://db.office.lan:5432/claims?sslmode=require");
        assertThat(DatabaseLocation.parse("jdbc:postgresql://db.office.lan:6543/claims?user=kim"))
                .isEqualTo(new DatabaseLocation.Postgres("db.office.lan", 6543, "claims", "kim", java.util.Map.of()));

        java.io.StringWriter err = new java.io.StringWriter();
        picocli.CommandLine cl = ClaimDeskCommand.newCommandLine(opened::add);
        cl.setErr(new java.io.PrintWriter(err));
        assertThat(cl.execute("--db", "postgresql://kim:s3cret@db.office.lan/claims")).isNotZero();
        assertThat(err.toString()).contains("PGPASSWORD").doesNotContain("s3cret");
        assertThat(opened).hasSize(1);
    }

    /**
     * Generated passwords hold '/', '@' and ':' unencoded, which makes the address no valid URI: it is still refused as
     * a password, and the password is in no message.
     */
    @Test
    void anAddressWithAPasswordThatIsNoValidUriIsRefusedWithoutShowingIt() {
        for (String address : List.of("postgresql://bob:Xy7/s3cret@db.office.lan/claims",
                "postgresql://bob:Xy7@s3cret@db.office.lan:5432/claims", "jdbc:postgresql://bob:a:s3cret/x@db/claims",
                "postgres://bob:s3cret?@db.office.lan/claims", "postgresql:bob:s3cret@db.office.lan/claims",
                "postgresql:/bob:s3cret@db.office.lan/claims", "jdbc:postgresql:bob:Xy7/s3cret@db/claims")) {
            java.io.StringWriter err = new java.io.StringWriter();
            picocli.CommandLine cl = ClaimDeskCommand.newCommandLine(location -> { });
            cl.setErr(new java.io.PrintWriter(err));
            assertThat(cl.execute("--db", address)).as(address).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
            assertThat(err.toString()).as(address).doesNotContain("s3cret").hasLineCount(1);
        }
        assertThatThrownBy(() -> DatabaseLocation.parse("postgresql://bob:Xy7/s3cret@db.office.lan/claims"))
                .hasMessageContaining("PGPASSWORD").hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> DatabaseLocation.parse("postgresql:bob:s3cret@db.office.lan/claims"))
                .hasMessageContaining("PGPASSWORD").hasMessageNotContaining("s3cret");
        // a client key's passphrase is refused as a password is: migrate prints the address back
        assertThatThrownBy(() -> DatabaseLocation.parse("postgresql://bob@db.office.lan/claims?sslkey=/k&sslpassword=s3cret"))
                .hasMessageContaining("sslpassword").hasMessageNotContaining("s3cret");
        // an IPv6 address in brackets, and a '+' in a role, as libpq reads them
        DatabaseLocation.Postgres v6 = (DatabaseLocation.Postgres) DatabaseLocation.parse(
                "postgresql://claim+desk@[::1]:6543/claims");
        assertThat(v6).isEqualTo(new DatabaseLocation.Postgres("::1", 6543, "claims", "claim+desk", Map.of()));
        assertThat(v6.jdbcUrl()).isEqualTo("jdbc:postgresql://[::1]:6543/claims");
        assertThat(v6.describe()).isEqualTo("database claims on [::1]:6543 as claim+desk");
        // an '@' in a parameter is no password
        assertThat(DatabaseLocation.parse("postgresql://kim@db.office.lan:5432/claims?sslrootcert=/etc/ca@office.crt"))
                .isEqualTo(new DatabaseLocation.Postgres("db.office.lan", 5432, "claims", "kim",
                        Map.of("sslrootcert", "/etc/ca@office.crt")));
        // settings ClaimDesk gives every connection itself are not replaced from the address
        for (String own : List.of("ApplicationName=desk", "options=-c%20lock_timeout%3D0", "logServerErrorDetail=true")) {
            assertThatThrownBy(() -> DatabaseLocation.parse("postgresql://kim@db.office.lan/claims?" + own))
                    .as(own).isInstanceOf(org.claimdesk.store.DatabaseException.class)
                    .hasMessageContaining("which ClaimDesk sets itself");
        }
    }

    /**
     * A start from the desktop on a refused CLAIMDESK_DB (a password in it) says why where staff see it, not only on
     * standard error, and opens nothing; the password is in neither.
     */
    @Test
    void aDesktopStartOnARefusedAddressSaysWhyWhereStaffSeeIt(@TempDir Path dir) throws Exception {
        ChildJvm.Result refused = ChildJvm.run(dir, false,
                Map.of("CLAIMDESK_DB", "postgresql://staff:s3cret@db1/claims", "CLAIMDESK_HOME", dir.toString()),
                DesktopStartProbe.class.getName());
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.out().strip()).startsWith("CANNOT START: a password does not go in the database address")
                .doesNotContain("s3cret").doesNotContain("OPENED");
        assertThat(refused.err()).contains("a password does not go in the database address").doesNotContain("s3cret");

        ChildJvm.Result opened = ChildJvm.run(dir, false,
                Map.of("CLAIMDESK_DB", dir.resolve("desk.db").toString(), "CLAIMDESK_HOME", dir.toString()),
                DesktopStartProbe.class.getName());
        assertThat(opened.exit()).isZero();
        assertThat(opened.out().strip()).isEqualTo("OPENED " + new DatabaseLocation.SqliteFile(dir.resolve("desk.db")));
    }

    /**
     * The driver ignores a setting it does not know (its names are case-sensitive): a misspelt TLS setting would leave
     * the server's certificate unchecked without a word, so it is refused, naming it; so is a TLS mode it does not know.
     */
    @Test
    void aSettingTheDriverDoesNotKnowOrATlsModeItDoesNotTakeIsRefused() {
        assertThat(((DatabaseLocation.Postgres) DatabaseLocation.parse(
                "postgresql://kim@db1/claims?sslmode=verify-full&sslrootcert=/etc/claimdesk/root.crt")).parameters())
                .containsEntry("sslmode", "verify-full").containsEntry("sslrootcert", "/etc/claimdesk/root.crt");
        for (String misspelt : List.of("sslMode", "ssl_mode", "application_name")) {
            assertThatThrownBy(() -> DatabaseLocation.parse("postgresql://kim@db1/claims?" + misspelt + "=verify-full"))
                    .isInstanceOf(DatabaseException.class)
                    .hasMessageContaining("a setting the PostgreSQL driver does not know: " + misspelt);
        }
        assertThat(((DatabaseLocation.Postgres) DatabaseLocation.parse(
                "postgresql://kim@db1/claims?sslmode=Require&requireAuth=scram-sha-256,md5")).parameters())
                .as("as the driver reads them").containsEntry("sslmode", "Require");
        assertThatThrownBy(() -> DatabaseLocation.parse("postgresql://kim@db1/claims?sslmode=verify"))
                .isInstanceOf(DatabaseException.class)
                .hasMessageContaining("sslmode=verify; it takes one of disable, allow, prefer, require, verify-ca,"
                        + " verify-full");
    }

    /**
     * PostgreSQL's keyword/value form and addresses of other schemes are refused, not read as file paths: the file
     * would be named after the address, password and all, and shown and logged as the database.
     */
    @Test
    void anAddressClaimDeskDoesNotReadIsRefusedNotTakenForAFile(@TempDir Path dir) {
        for (String address : List.of("host=db1 dbname=claims user=kim password=s3cret",
                "dbname=claims password = s3cret", "password=s3cret", "jdbc:postgres://kim:s3cret@db1/claims",
                "jdbc:oracle:thin:kim/s3cret@db1:1521/claims", "jdbc:sqlite:claims.db", "mysql://kim@db1/claims")) {
            java.io.StringWriter err = new java.io.StringWriter();
            List<DatabaseLocation> opened = new ArrayList<>();
            picocli.CommandLine cl = ClaimDeskCommand.newCommandLine(opened::add);
            cl.setErr(new java.io.PrintWriter(err));
            assertThat(cl.execute("--db", address)).as(address).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
            assertThat(err.toString()).as(address).contains("which ClaimDesk does not read")
                    .doesNotContain("s3cret").hasLineCount(1);
            assertThat(opened).as(address).isEmpty();
        }
        // file paths stay file paths, a Windows drive letter and an '=' in a name included
        assertThat(DatabaseLocation.parse("C:\\Claims\\office.db"))
                .isEqualTo(new DatabaseLocation.SqliteFile(Path.of("C:\\Claims\\office.db")));
        for (String name : List.of("a=b claims.db", "old port=1.db", "north service=2.db")) {
            Path named = dir.resolve(name);
            assertThat(DatabaseLocation.parse(named.toString())).as(name)
                    .isEqualTo(new DatabaseLocation.SqliteFile(named));
        }
    }

    /**
     * The desktop starts the launcher with no argument, which opens the console without the command line: a
     * database setting it cannot use is still refused in one line, exit 1, in a real launcher process.
     */
    @Test
    void theDesktopsStartRefusesAnUnusableDatabaseSettingInOneLine(@TempDir Path dir) throws Exception {
        // no display to show the refusal on (as under CI, or from a terminal without a desktop)
        ChildJvm.Result run = ChildJvm.run(dir, false, Map.of(DataDirectory.HOME_ENV, dir.resolve("home").toString(),
                DataDirectory.DB_ENV, "postgresql://kim:s3cret@db.office.lan/claims", "DISPLAY", "",
                "WAYLAND_DISPLAY", ""), "org.claimdesk.Launcher");
        assertThat(run.exit()).as(run.err()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(run.err().strip()).startsWith("claimdesk: ").contains("PGPASSWORD").doesNotContain("s3cret")
                .doesNotContain("\n");
        assertThat(run.out()).isEmpty();
    }
}
