package org.claimdesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.claimdesk.app.DemoData;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code claims list}, {@code audit list} and {@code outbox list} write their rows as they read them: in a JVM whose
 * heap could not hold all of them at once (24 MB here; the installed launcher's is 192 MB for a desk of a million
 * claims), each lists every row of a desk of 30,000 claims.
 */
class ListsInBoundedMemoryTest {
    static final int CLAIMS = 30_000;

    @TempDir
    Path dir;

    @Test
    void everyRowIsListedInAHeapTooSmallToHoldThemAll() throws Exception {
        Path db = dir.resolve("desk.db");
        long outboxRows;
        long auditEntries;
        try (Database desk = Database.open(db)) {
            new DemoData(desk, java.time.Clock.systemUTC(), Deadlines.statutory()).generate(CLAIMS, 1, n -> { });
            outboxRows = desk.read(h -> h.createQuery("SELECT count(*) FROM outbox_event").mapTo(Long.class).one());
            auditEntries = desk.read(h -> h.createQuery("SELECT count(*) FROM audit_log").mapTo(Long.class).one());
        }
        assertThat(elements(list(db, "claims"))).isEqualTo(CLAIMS);
        assertThat(elements(list(db, "outbox"))).isEqualTo(outboxRows);
        assertThat(elements(list(db, "audit"))).isEqualTo(auditEntries);
    }

    /** Runs {@code WHAT list --json} in a child JVM with a 24 MB heap; its output's file. */
    private Path list(Path db, String what) throws Exception {
        Path out = dir.resolve(what + ".json");
        Path err = dir.resolve(what + ".err");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(List.of(java, "-Xmx24m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-Dclaimdesk.testLogDir=" + dir.resolve("child-logs"),
                "-cp", System.getProperty("java.class.path"), "org.claimdesk.Launcher", "--db", db.toString(),
                what, "list", "--json"));
        builder.environment().put("CLAIMDESK_HOME", dir.resolve("home").toString());
        builder.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process process = builder.start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as(what + " list ends").isTrue();
        assertThat(process.exitValue()).as(what + " list: " + Files.readString(err)).isZero();
        return out;
    }

    /** The number of elements of the JSON array in {@code file}, read as a stream. */
    private static long elements(Path file) throws Exception {
        try (JsonParser parser = Json.mapper().getFactory().createParser(file.toFile())) {
            assertThat(parser.nextToken()).isEqualTo(JsonToken.START_ARRAY);
            long n = 0;
            while (parser.nextToken() == JsonToken.START_OBJECT) {
                parser.skipChildren();
                n++;
            }
            return n;
        }
    }
}
