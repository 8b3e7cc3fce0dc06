package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Checkpoints off the writer's thread: the writer leaves the log alone, the checkpointer copies it. */
class WalCheckpointerTest {
    private static final int PAGE = 4_096;
    /** Enough new pages to pass SQLite's own threshold of 1,000 by half. */
    private static final int ROWS = 1_500;

    @TempDir
    Path dir;

    Database db;
    Path file;

    @BeforeEach
    void open() {
        file = dir.resolve("claims.db");
        db = Database.open(file);
        db.useTransaction(h -> h.execute("CREATE TABLE scratch (x BLOB)"));
    }

    @AfterEach
    void close() {
        db.close();
    }

    /** A row of almost a page per insert, each in its own transaction, on one connection. */
    private void writePages(Handle writer) {
        for (int i = 0; i < ROWS; i++) {
            writer.useTransaction(h -> h.execute("INSERT INTO scratch (x) VALUES (randomblob(4000))"));
        }
    }

    private long size(Path path) {
        try {
            return Files.size(path);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aWriterWithTheRaisedThresholdLeavesTheWholeLogToOneCheckpoint() {
        long before = size(file);
        try (Handle writer = db.jdbi().open()) {
            WalCheckpointer.setAutocheckpoint(writer, WalCheckpointer.WRITER_AUTOCHECKPOINT_PAGES);
            writePages(writer);
            WalCheckpointer.setAutocheckpoint(writer, WalCheckpointer.DEFAULT_AUTOCHECKPOINT_PAGES);
        }
        assertThat(size(file)).as("nothing copied into the file by the writer").isEqualTo(before);

        // A passive checkpoint stops at the oldest snapshot a reader holds, and another connection can hold one a few
        // frames before the end for a moment (the pool may be opening its spare connection in the background while
        // the writer has its own); a reader that stays would make every pass fall short.
        AtomicReference<WalCheckpointer.Pass> last = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            WalCheckpointer.Pass pass = WalCheckpointer.checkpointOnce(db);
            last.set(pass);
            return !pass.busy() && pass.copiedPages() == pass.logPages();
        });
        assertThat(last.get().logPages()).isGreaterThan(ROWS);
        assertThat(size(file)).isGreaterThan(before + (long) ROWS * PAGE);
    }

    @Test
    void theDefaultThresholdStillCheckpointsInTheWriter() {
        long before = size(file);
        try (Handle writer = db.jdbi().open()) {
            writePages(writer);
        }
        assertThat(size(file)).as("SQLite's own checkpoint at 1,000 pages").isGreaterThan(before + 900L * PAGE);
    }

    @Test
    void theCheckpointerCopiesTheLogWhileTheWriterGoesOnAndStopsWhenClosed() {
        long before = size(file);
        try (WalCheckpointer checkpointer = WalCheckpointer.start(db, Duration.ofMillis(10), "test-checkpoint");
             Handle writer = db.jdbi().open()) {
            WalCheckpointer.setAutocheckpoint(writer, WalCheckpointer.WRITER_AUTOCHECKPOINT_PAGES);
            writePages(writer);
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> size(file) > before + (long) ROWS * PAGE);
            WalCheckpointer.setAutocheckpoint(writer, WalCheckpointer.DEFAULT_AUTOCHECKPOINT_PAGES);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.isAlive() && t.getName().equals("test-checkpoint")));
        int rows = db.read(h -> h.createQuery("SELECT count(*) FROM scratch").mapTo(Integer.class).one());
        assertThat(rows).isEqualTo(ROWS);
    }

    @Test
    void theWritersSettingsAreUndoneBeforeItsConnectionGoesBackToThePool() {
        try (Handle writer = db.jdbi().open()) {
            DeliveryStore.prepareWriter(writer);
            assertThat(pragma(writer, "cache_size")).isEqualTo(-DeliveryStore.WRITER_CACHE_KIB);
            assertThat(pragma(writer, "temp_store")).isEqualTo(2);
            assertThat(pragma(writer, "wal_autocheckpoint")).isEqualTo(WalCheckpointer.WRITER_AUTOCHECKPOINT_PAGES);

            DeliveryStore.restoreWriter(writer);
            assertThat(pragma(writer, "cache_size")).isEqualTo(-2000);
            assertThat(pragma(writer, "temp_store")).isZero();
            assertThat(pragma(writer, "wal_autocheckpoint")).isEqualTo(WalCheckpointer.DEFAULT_AUTOCHECKPOINT_PAGES);
        }
    }

    private static long pragma(Handle h, String name) {
        return h.createQuery("PRAGMA " + name).mapTo(Long.class).one();
    }

}
