package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WrittenPagesFlushTest {
    @TempDir
    Path dir;

    @Test
    void syncsTheFileUntilClosedAndWritesNothingToIt() throws Exception {
        Path file = Files.writeString(dir.resolve("loaded.db"), "pages");
        WrittenPagesFlush flush = WrittenPagesFlush.start(file, Duration.ofMillis(5));
        assertThat(flush).isNotNull();
        await().atMost(Duration.ofSeconds(30)).until(() -> flush.syncs() >= 3);
        flush.close();
        int done = flush.syncs();
        assertThat(Files.readString(file)).isEqualTo("pages");
        // closed: the timer is shut down, not merely waiting for its next turn
        await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(5)).until(() -> flush.syncs() == done);
    }

    @Test
    void aFileThatCannotBeOpenedIsNotSynced() {
        assertThat(WrittenPagesFlush.start(dir.resolve("missing.db"), Duration.ofMillis(5))).isNull();
    }
}
