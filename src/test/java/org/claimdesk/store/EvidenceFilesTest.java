package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvidenceFilesTest {
    @TempDir
    Path dir;

    /**
     * The temporary file of an add that never ended (a process killed mid-copy) goes at the folder's first add once it
     * is a day old; a younger one, perhaps another workstation's add under way, and the evidence files stay.
     */
    @Test
    void theFirstAddRemovesTemporaryFilesOfAddsThatNeverEnded() throws Exception {
        Path share = Files.createDirectories(dir.resolve("share"));
        Instant now = Instant.now();
        Path abandoned = aged(share.resolve(".incoming-0b6f1c4e"), now.minus(Duration.ofDays(2)));
        Path underWay = aged(share.resolve(".incoming-7d2e9a10"), now.minus(Duration.ofHours(1)));
        Path oldEvidence = aged(share.resolve("a".repeat(64)), now.minus(Duration.ofDays(400)));
        Path source = Files.writeString(dir.resolve("deed.pdf"), "%PDF-1.7 deed");

        EvidenceFiles.Stored stored = EvidenceFiles.shared(share).copyIn(source);

        // in the background, not to hold the add up on a share of many files
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !Files.exists(abandoned));
        assertThat(underWay).exists();
        assertThat(oldEvidence).exists();
        assertThat(share.resolve(stored.storedName())).hasContent("%PDF-1.7 deed");
        assertThat(EvidenceFiles.shared(share).removeAbandoned(now.plus(Duration.ofDays(1))))
                .as("the younger one, a day later").isEqualTo(1);
        assertThat(underWay).doesNotExist();
    }

    private static Path aged(Path file, Instant modified) throws Exception {
        Files.writeString(file, "partial");
        Files.setLastModifiedTime(file, FileTime.from(modified));
        return file;
    }
}
