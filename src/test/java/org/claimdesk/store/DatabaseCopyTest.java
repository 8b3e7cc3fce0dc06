package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DatabaseCopyTest {

    /**
     * A backup's check opens the file by its plain path, which SQLite reads as it is ('#', '%', a Windows share's
     * name); only a path with a '?', which the driver would take for its own settings, goes as an escaped URI.
     */
    @Test
    void aCopyIsOpenedByItsPlainPathUnlessItHoldsAQuestionMark() {
        assertThat(DatabaseCopy.readOnlyUrl(Path.of("/mnt/backups/Desk #2 100%/claims.db")))
                .isEqualTo("jdbc:sqlite:/mnt/backups/Desk #2 100%/claims.db");
        assertThat(DatabaseCopy.readOnlyUrl(Path.of("/mnt/backups/why?/claims.db")))
                .isEqualTo("jdbc:sqlite:file:///mnt/backups/why%3F/claims.db");
    }
}
