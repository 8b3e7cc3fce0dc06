package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading the PostgreSQL password file as libpq reads it. */
class PasswordFileTest {
    private static final DatabaseLocation.Postgres SERVER =
            new DatabaseLocation.Postgres("db.office.lan", 5432, "claimdesk", "kim", Map.of());

    @TempDir
    Path dir;

    @Test
    void theFirstLineWhoseFourFieldsMatchGivesThePassword() {
        assertThat(PasswordFile.find(List.of(
                "db.office.lan:5432:other:kim:not-this",
                "db.office.lan:5433:claimdesk:kim:not-this-port",
                "db.office.lan:5432:claimdesk:kim:first",
                "*:*:*:*:second"), SERVER)).contains("first");
        assertThat(PasswordFile.find(List.of("*:*:claimdesk:*:any-host"), SERVER)).contains("any-host");
        assertThat(PasswordFile.find(List.of("other.lan:*:*:*:x", "*:*:*:lee:y"), SERVER)).isEmpty();
    }

    @Test
    void escapesCommentsBlankAndIncompleteLinesAreReadAsPsqlReadsThem() {
        assertThat(PasswordFile.find(List.of(
                "# db.office.lan:5432:claimdesk:kim:commented",
                "",
                "db.office.lan:5432",
                "db.office.lan:5432:claimdesk:kim",
                "db.office.lan:5432:claimdesk:kim:a\\:b\\\\c:rest"), SERVER))
                .as("the incomplete lines passed over, the password's escapes read, ':' ending it")
                .contains("a:b\\c");
        DatabaseLocation.Postgres star = new DatabaseLocation.Postgres("db.office.lan", 5432, "claimdesk", "*",
                Map.of());
        assertThat(PasswordFile.find(List.of("*:*:*:\\*:literal"), star)).as("\\* is a star, not any role")
                .contains("literal");
        assertThat(PasswordFile.find(List.of("*:*:*:\\*:literal"), SERVER)).isEmpty();
        assertThat(PasswordFile.find(List.of("*:*:*:kim:", "*:*:*:*:later"), SERVER))
                .as("an empty password in the first matching line is no password").isEmpty();
    }

    @Test
    void aFileOthersMayReadIsNotReadAndSaysHowToMendIt() throws Exception {
        Path file = Files.writeString(dir.resolve("pgpass"), "*:*:*:kim:s3cret\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        assertThat(PasswordFile.lookup(file, SERVER)).isEqualTo(new PasswordFile.Lookup(Optional.of("s3cret"), null));

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        PasswordFile.Lookup open = PasswordFile.lookup(file, SERVER);
        assertThat(open.password()).isEmpty();
        assertThat(open.unread()).contains(file.toString(), "chmod 600").doesNotContain("s3cret");

        assertThat(PasswordFile.lookup(dir.resolve("none"), SERVER)).isEqualTo(
                new PasswordFile.Lookup(Optional.empty(), null));
        assertThat(PasswordFile.lookup(dir, SERVER).unread()).contains("not a file");
    }

    @Test
    void bytesThatAreNotUtf8InACommentLeaveTheOtherLinesReadable() throws Exception {
        Path file = dir.resolve("pgpass.conf");
        // a comment saved as Windows-1252 ("Büro", the office: ü is the byte FC, no UTF-8)
        Files.write(file, new byte[] {'#', ' ', 'B', (byte) 0xFC, 'r', 'o', '\n'});
        Files.writeString(file, "*:*:*:kim:s3cret\n", java.nio.file.StandardOpenOption.APPEND);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));

        assertThat(PasswordFile.lookup(file, SERVER)).isEqualTo(new PasswordFile.Lookup(Optional.of("s3cret"), null));
    }

    @Test
    void pgpassfileNamesTheFileElseItIsInTheHomeFolderOrUnderAppDataOnWindows() {
        Path home = dir.resolve("home");
        assertThat(PasswordFile.location(Map.of("PGPASSFILE", "/etc/kim.pgpass"), home, false))
                .isEqualTo(Path.of("/etc/kim.pgpass"));
        assertThat(PasswordFile.location(Map.of("PGPASSFILE", ""), home, false)).isEqualTo(home.resolve(".pgpass"));
        assertThat(PasswordFile.location(Map.of("APPDATA", "/appdata"), home, true))
                .isEqualTo(Path.of("/appdata", "postgresql", "pgpass.conf"));
        assertThat(PasswordFile.location(Map.of("APPDATA", "/appdata"), home, false))
                .isEqualTo(home.resolve(".pgpass"));
    }
}
