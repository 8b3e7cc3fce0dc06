package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.Database;
import org.claimdesk.testing.Sql;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Demo data streams: 60,000 claims (about 200,000 audit entries, which the generator once held all at once) are
 * written by a JVM whose heap is 32 MB, and every one of them is there.
 */
class DemoDataStreamingTest {
    static final int CLAIMS = 60_000;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aLargeDemoIsWrittenInASmallHeap() throws Exception {
        Path file = dir.resolve("demo.db");
        Path out = dir.resolve("child.txt");
        Process child = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx32m", "-XX:+UseParallelGC", "-cp", System.getProperty("java.class.path"), Child.class.getName(),
                file.toString(), Integer.toString(CLAIMS)))
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertThat(child.waitFor(3, TimeUnit.MINUTES)).as("the child finished").isTrue();
        String output = Files.readString(out, StandardCharsets.UTF_8);

        assertThat(child.exitValue()).as(output).isZero();
        String[] written = output.lines().filter(l -> l.startsWith("written ")).findFirst().orElseThrow()
                .substring("written ".length()).split(" ");
        try (Database db = Database.open(file)) {
            assertThat(Sql.count(db, "claim")).isEqualTo(CLAIMS).isEqualTo(Integer.parseInt(written[0]));
            assertThat(Sql.count(db, "outbox_event")).isEqualTo(Integer.parseInt(written[1]));
            assertThat(Sql.count(db, "delivery_attempt")).isEqualTo(Integer.parseInt(written[2]));
            assertThat(Sql.count(db, "claim_status_history")).isEqualTo(Integer.parseInt(written[3]));
            assertThat(Sql.count(db, "audit_log")).isEqualTo(Integer.parseInt(written[4]))
                    .as("more audit entries than a 32 MB heap holds at once").isGreaterThan(150_000);
            int indexed = db.read(h -> h.createQuery("SELECT count(*) FROM claim_search").mapTo(Integer.class).one());
            assertThat(indexed).as("every claim in the search index").isEqualTo(CLAIMS);
        }
    }

    /** The child: writes demo data into a new file. Arguments: file, claims. */
    public static final class Child {
        public static void main(String[] args) throws IOException {
            try (Database db = Database.open(Path.of(args[0]))) {
                DemoData.Summary s = new DemoData(db, LocalDate.of(2026, 11, 2), Deadlines.statutory())
                        .generate(Integer.parseInt(args[1]), 5, n -> { });
                System.out.println("written " + s.claims() + " " + s.outboxRows() + " " + s.attempts() + " "
                        + s.historyRows() + " " + s.auditEntries());
            }
        }
    }
}
