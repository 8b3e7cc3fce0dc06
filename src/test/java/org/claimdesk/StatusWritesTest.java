package org.claimdesk;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * SQL that writes a claim's status lives only in the sanctioned store methods: {@code ClaimStore.changeStatus}
 * (every staff path, checked against the transition table) and the delivery worker's batch in
 * {@code DeliveryStore} (the table's {@code Transitions.DELIVERED}). Benchmark code (a {@code bench} package or
 * a {@code *Benchmark} class) sets rows up to measure and is no product path.
 */
class StatusWritesTest {
    private static final Path SOURCES = Path.of("src/main/java");
    /** An UPDATE of the claim table up to its WHERE; it writes the status if its SET names the column. */
    private static final Pattern UPDATE_CLAIM = Pattern.compile("(?is)\\bUPDATE\\s+claim\\s+SET\\b(.*?)\\bWHERE\\b");
    private static final Pattern SETS_STATUS = Pattern.compile("(?i)(^|[\\s,])status\\s*=");
    private static final Pattern INSERT_HISTORY = Pattern.compile("(?i)\\bINSERT\\s+INTO\\s+claim_status_history\\b");

    private static Map<String, Integer> count(Pattern statement, Pattern within) throws IOException {
        Map<String, Integer> found = new TreeMap<>();
        for (Path file : productSources()) {
            String text = Files.readString(file);
            Matcher m = statement.matcher(text);
            while (m.find()) {
                if (within == null || within.matcher(m.group(1)).find()) {
                    found.merge(SOURCES.relativize(file).toString().replace('\\', '/'), 1, Integer::sum);
                }
            }
        }
        return found;
    }

    private static List<Path> productSources() throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> all = Files.walk(SOURCES)) {
            all.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.toString().replace('\\', '/').contains("/bench/"))
                    .filter(p -> !p.getFileName().toString().endsWith("Benchmark.java"))
                    .forEach(files::add);
        }
        assertThat(files).as("the product's sources are found from the project folder").hasSizeGreaterThan(50);
        return files;
    }

    @Test
    void onlyTheSanctionedStoreMethodsWriteAClaimsStatus() throws IOException {
        assertThat(count(UPDATE_CLAIM, SETS_STATUS)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "org/claimdesk/store/ClaimStore.java", 1,
                "org/claimdesk/store/DeliveryStore.java", 1));
    }

    @Test
    void statusHistoryIsWrittenWithTheStatusOrByTheDemoGenerator() throws IOException {
        assertThat(count(INSERT_HISTORY, null).keySet())
                .contains("org/claimdesk/store/ClaimStore.java", "org/claimdesk/store/DeliveryStore.java")
                .isSubsetOf("org/claimdesk/store/ClaimStore.java", "org/claimdesk/store/DeliveryStore.java",
                        "org/claimdesk/app/DemoData.java");
    }

    @Test
    void theCheckFindsAStatusWriteWhereverItIs() {
        Matcher m = UPDATE_CLAIM.matcher("x = \"\"\"\n  update Claim set version = 2,\n status = 'PAID' where claim_id = 1\"\"\";");
        assertThat(m.find()).isTrue();
        assertThat(SETS_STATUS.matcher(m.group(1)).find()).isTrue();
        Matcher other = UPDATE_CLAIM.matcher("UPDATE claim SET tax_id_status = 1, updated_at = 2 WHERE claim_id = 1");
        assertThat(other.find()).isTrue();
        assertThat(SETS_STATUS.matcher(other.group(1)).find()).isFalse();
    }
}
