package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The archive versions pg_dump 16 (1.15: the compression method in the header) and 17 (1.16: a relkind in every
 * table-of-contents entry) write. No pg_dump 16 or 17 runs here, so their archives are the real 1.14 fixture
 * rewritten field by field into the newer layout (data blocks as they are, data offsets moved with them), as
 * pg_backup_archiver.c WriteHead and WriteToc lay them out.
 */
class CustomArchiveTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"15, 1, gzip", "16, 1, gzip", "16, 0, none"})
    void newerArchiveVersionsReadAlike(int minor, int algorithm, String compression) throws IOException {
        String fixture = algorithm == 0 ? "claimdesk-pg14-uncompressed.dump" : "claimdesk-pg14.dump";
        Path file = Files.write(dir.resolve("v1." + minor + ".dump"), rewrite(fixture(fixture), minor, algorithm));

        PostgresDump.Summary summary = PostgresDump.check(file);

        assertThat(summary.format()).isEqualTo("custom archive 1." + minor);
        assertThat(summary.compression()).isEqualTo(compression);
        assertThat(summary.database()).isEqualTo("claimdesk");
        assertThat(summary.schemaVersion()).isEqualTo(8);
        assertThat(summary.rows()).containsEntry("claim", 12L).containsEntry("audit_log", 46L)
                .containsEntry("outbox_event", 7L).containsEntry("flyway_schema_history", 1L);
    }

    @ParameterizedTest
    @CsvSource({"2, lz4", "3, zstd"})
    void otherCompressionMethodsAreRefusedWithWhatToRun(int algorithm, String name) throws IOException {
        Path file = Files.write(dir.resolve(name + ".dump"), rewrite(fixture("claimdesk-pg14.dump"), 16, algorithm));

        assertThatThrownBy(() -> PostgresDump.check(file)).isInstanceOf(DatabaseException.class)
                .hasMessage(file + " is compressed with " + name + ", which this check does not read: run pg_dump"
                        + " -Fc with -Z gzip (or -Z none)");
    }

    @Test
    void anArchiveVersionTooNewIsRefused() throws IOException {
        byte[] bytes = fixture("claimdesk-pg14.dump");
        bytes[6] = 17;
        Path file = Files.write(dir.resolve("v1.17.dump"), bytes);

        assertThatThrownBy(() -> PostgresDump.check(file)).hasMessage(file + " was written by a pg_dump whose archive"
                + " version 1.17 this ClaimDesk does not read (it reads 1.12 to 1.16, pg_dump 9.0 to 17)");
    }

    @Test
    void dataWhereTheTableOfContentsDoesNotSayIsRefused() throws IOException {
        byte[] archive = fixture("claimdesk-pg14-uncompressed.dump");
        int at = firstDataOffset(archive);
        archive[at] += 1;
        Path file = Files.write(dir.resolve("moved.dump"), archive);

        assertThatThrownBy(() -> PostgresDump.check(file)).isInstanceOf(DatabaseException.class)
                .hasMessageStartingWith(file + " is damaged: the data of ")
                .hasMessageEndingWith(" is not where its table of contents says; make the dump again");
    }

    private static byte[] fixture(String name) throws IOException {
        try (InputStream in = CustomArchiveTest.class.getResourceAsStream("/dumps/" + name)) {
            return in.readAllBytes();
        }
    }

    /** Where the first table-of-contents entry with a data position keeps that position. */
    private static int firstDataOffset(byte[] archive) {
        Reader r = new Reader(archive);
        r.pos = 11;
        r.integer();
        r.skipHeaderRest();
        int count = r.integer();
        for (int i = 0; i < count; i++) {
            r.skipEntryFields(false, new ByteArrayOutputStream(), 0);
            int state = archive[r.pos++];
            if (state == 2) {
                return r.pos;
            }
            r.offset();
        }
        throw new IllegalStateException("no entry with a data position");
    }

    /** The 1.14 archive {@code v14} laid out as archive version 1.{@code minor} with compression {@code algorithm}. */
    static byte[] rewrite(byte[] v14, int minor, int algorithm) {
        Reader r = new Reader(v14);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(v14, 0, 5); // PGDMP
        out.write(1);
        out.write(minor);
        out.write(0);
        out.write(v14, 8, 3); // integer size, offset size, format
        r.pos = 11;
        r.integer(); // 1.14: the compression level
        out.write(algorithm);
        int headerRest = r.pos;
        r.skipHeaderRest();
        out.write(v14, headerRest, r.pos - headerRest);
        int countAt = r.pos;
        int count = r.integer();
        out.write(v14, countAt, r.pos - countAt);
        List<int[]> offsets = new ArrayList<>();
        List<Long> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            r.skipEntryFields(minor >= 16, out, 'r');
            int state = v14[r.pos];
            out.write(v14, r.pos, 1);
            r.pos++;
            offsets.add(new int[] {out.size(), state});
            values.add(r.offset());
            out.write(new byte[8], 0, 8);
        }
        int delta = out.size() - r.pos;
        out.write(v14, r.pos, v14.length - r.pos);
        byte[] result = out.toByteArray();
        for (int i = 0; i < offsets.size(); i++) {
            long value = offsets.get(i)[1] == 2 ? values.get(i) + delta : values.get(i);
            for (int b = 0; b < 8; b++) {
                result[offsets.get(i)[0] + b] = (byte) (value >>> (8 * b));
            }
        }
        return result;
    }

    /** Walks a 1.14 archive with 4-byte integers and 8-byte offsets. */
    private static final class Reader {
        final byte[] bytes;
        int pos;

        Reader(byte[] bytes) {
            this.bytes = bytes;
        }

        int integer() {
            boolean negative = bytes[pos] != 0;
            int value = (bytes[pos + 1] & 0xFF) | (bytes[pos + 2] & 0xFF) << 8 | (bytes[pos + 3] & 0xFF) << 16
                    | (bytes[pos + 4] & 0xFF) << 24;
            pos += 5;
            return negative ? -value : value;
        }

        boolean string() {
            int length = integer();
            if (length >= 0) {
                pos += length;
            }
            return length >= 0;
        }

        long offset() {
            long value = 0;
            for (int b = 0; b < 8; b++) {
                value |= (long) (bytes[pos + b] & 0xFF) << (8 * b);
            }
            pos += 8;
            return value;
        }

        /** The creation date's seven integers, then database, server version and pg_dump version. */
        void skipHeaderRest() {
            for (int i = 0; i < 7; i++) {
                integer();
            }
            string();
            string();
            string();
        }

        /** One entry up to its data state, copied to {@code out}, a relkind added after its table access method. */
        void skipEntryFields(boolean addRelkind, ByteArrayOutputStream out, int relkind) {
            int start = pos;
            integer(); // dump id
            integer(); // had data
            for (int i = 0; i < 4; i++) {
                string(); // table oid, oid, tag, desc
            }
            integer(); // section
            for (int i = 0; i < 6; i++) {
                string(); // definition, drop, copy, namespace, tablespace, table access method
            }
            out.write(bytes, start, pos - start);
            if (addRelkind) {
                out.write(new byte[] {0, (byte) relkind, 0, 0, 0}, 0, 5);
            }
            start = pos;
            string(); // owner
            string(); // "false"
            while (string()) {
                // dependencies
            }
            out.write(bytes, start, pos - start);
        }
    }

    /**
     * The count tallies' tables are part of a whole dump from the schema versions that have them: the triggers of the
     * claims and outbox tables write to them, and a database restored without them takes no claim or outbox write.
     */
    @Test
    void aWholeDumpHasTheTalliesOfTheSchemaVersionsThatHaveThem() {
        assertThat(PostgresDump.tablesOf(8)).containsExactlyElementsOf(PostgresDump.TABLES);
        assertThat(PostgresDump.tablesOf(12)).endsWith("outbox_state_tally");
        assertThat(PostgresDump.tablesOf(Migrations.latestVersion())).containsAll(PostgresDump.TABLES)
                .contains("outbox_state_tally", "claim_status_tally");
    }
}
