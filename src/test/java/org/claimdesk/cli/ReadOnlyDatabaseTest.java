package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.claimdesk.Launcher;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.store.Database;
import org.claimdesk.testing.ChildJvm;
import org.claimdesk.testing.TestClaims;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database the user may not write: the CLI says so in one line and exits 1, and the file is left
 * as it was. The CLI runs in a child JVM as an unprivileged user, since root may write anything.
 */
class ReadOnlyDatabaseTest {
    @TempDir
    Path dir;

    Path dbDir;
    Path db;
    Path home;

    @BeforeEach
    void setUp() throws Exception {
        dbDir = Files.createDirectories(dir.resolve("data"));
        db = dbDir.resolve("claims.db");
        try (Database database = Database.open(db)) {
            TestClaims.insert(database, ClaimStatus.IDENTITY_PENDING);
            database.read(h -> h.execute("PRAGMA wal_checkpoint(TRUNCATE)"));
        }
        Files.deleteIfExists(dbDir.resolve("claims.db-wal"));
        Files.deleteIfExists(dbDir.resolve("claims.db-shm"));
        home = Files.createDirectories(dir.resolve("home"));
        ChildJvm.worldReadable(dir);
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("r--r--r--"));
    }

    @Test
    void aReadOnlyFileInAReadOnlyFolderIsRefusedClearly() throws Exception {
        byte[] before = Files.readAllBytes(db);

        ChildJvm.Result result = cli("claims", "advance", "1", "--to", "EVIDENCE_PENDING", "--actor", "j.chen");

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.err().strip().lines()).singleElement()
                .satisfies(line -> assertThat(line).contains("read-only").contains(db.toString()));
        assertThat(Files.readAllBytes(db)).isEqualTo(before);
    }

    @Test
    void aReadOnlyFileInAWritableFolderIsRefusedClearly() throws Exception {
        Files.setPosixFilePermissions(dbDir, PosixFilePermissions.fromString("rwxrwxrwx"));
        byte[] before = Files.readAllBytes(db);

        ChildJvm.Result result = cli("claims", "advance", "1", "--to", "EVIDENCE_PENDING", "--actor", "j.chen");

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.err()).contains("read-only").doesNotContain("Exception");
        assertThat(Files.readAllBytes(db)).isEqualTo(before);
    }

    private ChildJvm.Result cli(String... args) throws Exception {
        String[] full = new String[args.length + 2];
        full[0] = "--db";
        full[1] = db.toString();
        System.arraycopy(args, 0, full, 2, args.length);
        return ChildJvm.run(dir.resolve("classpath"), true,
                Map.of("CLAIMDESK_HOME", home.toString(), "HOME", home.toString()), Launcher.class.getName(), full);
    }
}
