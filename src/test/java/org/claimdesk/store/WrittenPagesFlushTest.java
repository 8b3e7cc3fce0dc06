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
        assertThat(flush.descriptorOpen()).isFalse();
        assertThat(Files.readString(file)).isEqualTo("pages");
    }

    @Test
    void stoppedItSyncsNoMoreAndKeepsItsDescriptorOpen() {
        Path file = dir.resolve("held.db");
        WrittenPagesFlush flush = WrittenPagesFlush.start(createdFile(file), Duration.ofMillis(5));
        await().atMost(Duration.ofSeconds(30)).until(() -> flush.syncs() >= 1);
        assertThat(flush.stop()).as("not interrupted").isFalse();
        int done = flush.syncs();
        await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(5)).until(() -> flush.syncs() == done);
        assertThat(flush.descriptorOpen()).as("open until the load's connection is closed").isTrue();
        flush.close();
        assertThat(flush.descriptorOpen()).isFalse();
    }

    private static Path createdFile(Path file) {
        try {
            return Files.writeString(file, "pages");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aFileThatCannotBeOpenedIsNotSynced() {
        assertThat(WrittenPagesFlush.start(dir.resolve("missing.db"), Duration.ofMillis(5))).isNull();
    }
}
