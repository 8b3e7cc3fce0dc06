package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Audit entries put aside in sorted runs come back merged in time order, ties in the order they were added. */
class AuditRunsTest {
    @TempDir
    Path dir;

    @Test
    void runsComeBackMergedInTimeOrderWithTiesInTheOrderAdded() {
        SplittableRandom random = new SplittableRandom(7);
        List<AuditRuns.Entry> all = new ArrayList<>();
        try (AuditRuns runs = AuditRuns.create(dir)) {
            long seq = 0;
            for (int run = 0; run < 40; run++) {
                List<AuditRuns.Entry> batch = new ArrayList<>();
                int size = run == 7 ? 0 : 1 + random.nextInt(300);
                for (int i = 0; i < size; i++) {
                    // few distinct moments, so that many entries share one
                    AuditRuns.Entry e = entry(++seq, 1_000L * random.nextInt(50), random);
                    batch.add(e);
                    all.add(e);
                }
                runs.add(batch);
            }
            List<AuditRuns.Entry> expected = new ArrayList<>(all);
            expected.sort(Comparator.comparingLong(AuditRuns.Entry::at).thenComparingLong(AuditRuns.Entry::seq));
            assertThat(drain(runs.merged())).containsExactlyElementsOf(expected);
            assertThat(drain(runs.merged())).as("read again from the start").containsExactlyElementsOf(expected);
            // buffers smaller than an entry or two: entries split across reads, kept whole
            assertThat(drain(runs.merged(48))).as("through 48-byte buffers").containsExactlyElementsOf(expected);
            assertThat(drain(runs.merged(200))).as("through 200-byte buffers").containsExactlyElementsOf(expected);
        }
    }

    @Test
    void anEntryLargerThanARunsReadBufferAndTextsOutsideAsciiComeBackWhole() {
        String longDetails = "{\"note\":\"" + "é".repeat(200_000) + "\"}";
        try (AuditRuns runs = AuditRuns.create(dir)) {
            AuditRuns.Entry big = new AuditRuns.Entry(2, 5, "s.patel", "claim.edit", "claim", "17", "réclamation", longDetails);
            AuditRuns.Entry small = new AuditRuns.Entry(1, 9, "m.alvarez", "claim.advance", "claim", "18", null, null);
            runs.add(List.of(small, big));
            runs.add(List.of(new AuditRuns.Entry(3, 7, "j.chen", "outbox.requeue", "outbox", "4", "", "{}")));
            List<AuditRuns.Entry> merged = drain(runs.merged());
            assertThat(merged).extracting(AuditRuns.Entry::seq).containsExactly(2L, 3L, 1L);
            assertThat(merged.get(0)).isEqualTo(big);
            assertThat(merged.get(2).reason()).isNull();
            assertThat(merged.get(1).reason()).isEmpty();
        }
    }

    @Test
    void theTemporaryFileLeavesNoNameBehind() throws Exception {
        try (AuditRuns runs = AuditRuns.create(dir)) {
            runs.add(List.of(new AuditRuns.Entry(1, 1, "a", "b", "c", "d", null, null)));
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files).as("the name is removed while the file is open").isEmpty();
            }
            assertThat(drain(runs.merged())).hasSize(1);
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void noRunsGiveNothing() {
        try (AuditRuns runs = AuditRuns.create(dir)) {
            runs.add(List.of());
            assertThat(drain(runs.merged())).isEmpty();
        }
    }

    private static AuditRuns.Entry entry(long seq, long at, SplittableRandom random) {
        return new AuditRuns.Entry(seq, at, "actor" + random.nextInt(5), "claim.advance", "claim",
                Long.toString(random.nextInt(1_000)), random.nextBoolean() ? null : "reason " + seq,
                random.nextBoolean() ? null : "{\"n\":" + seq + "}");
    }

    private static List<AuditRuns.Entry> drain(AuditRuns.Merge merge) {
        List<AuditRuns.Entry> out = new ArrayList<>();
        for (AuditRuns.Entry e = merge.next(); e != null; e = merge.next()) {
            out.add(e);
        }
        return out;
    }
}
