package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.claimdesk.store.DatabaseLocation;
import org.junit.jupiter.api.Test;

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
}
