package org.claimdesk.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The check of a dump of a team database, read from the file alone, so it needs no PostgreSQL client: pg_dump's
 * custom format ({@code -Fc}, gzip or uncompressed), or plain SQL ({@code -Fp}). A dump passes when it reads to its
 * end and holds the data of every ClaimDesk table; the check reports each table's rows and the schema version the
 * dump's Flyway history records.
 */
public final class PostgresDump {
    /** The tables whose data a whole ClaimDesk dump holds: the workstation's tables and Flyway's history. */
    public static final List<String> TABLES = Stream.concat(DatabaseMove.TABLES.stream().map(DatabaseMove.Table::name),
            Stream.of(FlywayHistory.TABLE)).toList();

    /**
     * What a dump that passed holds.
     *
     * @param database the database dumped; null when the dump does not name it (a plain dump made without -C)
     * @param dumpedAt when pg_dump started, on the clock of the machine that ran it; null when the dump does not say
     * @param rows rows per ClaimDesk table, in {@link #TABLES} order
     */
    public record Summary(Path file, String format, String compression, String database, LocalDateTime dumpedAt,
            String serverVersion, String pgDumpVersion, int schemaVersion, Map<String, Long> rows) {
    }

    private PostgresDump() {
    }

    /** True when {@code file} begins as a custom archive or a plain dump does (whole or not). */
    public static boolean isDump(Path file) {
        byte[] head = head(file, 64);
        return startsWith(head, CustomArchive.MAGIC)
                || startsWith(head, PlainDump.FIRST_LINES.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Reads the dump {@code file} to its end.
     *
     * @throws DatabaseException with one sentence: the file is missing, is not a dump, is truncated or damaged, is
     *     compressed with a method this check does not read, or is not a whole dump of a ClaimDesk database
     */
    public static Summary check(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new DatabaseException("there is no file " + file + " to check");
        }
        byte[] head = head(file, 512);
        DumpContents dump;
        if (startsWith(head, CustomArchive.MAGIC)) {
            dump = CustomArchive.read(file, FlywayHistory.TABLE::equals);
        } else if (startsWith(head, PlainDump.FIRST_LINES.getBytes(StandardCharsets.US_ASCII))) {
            dump = PlainDump.read(file, FlywayHistory.TABLE::equals);
        } else {
            throw new DatabaseException(file + " is neither a ClaimDesk backup nor a dump pg_dump wrote"
                    + notADumpHint(head) + "; check a backup made with claimdesk backup --to or pg_dump -Fc");
        }
        return summarize(file, dump);
    }

    /** A dump whose data are INSERT statements: restorable, but not what this check reads. */
    static DatabaseException insertsRefused(Path file) {
        return new DatabaseException(file + " holds its data as INSERT statements (pg_dump --inserts or"
                + " --column-inserts), which this check does not read; make the dump again with pg_dump -Fc and no"
                + " --inserts");
    }

    private static Summary summarize(Path file, DumpContents dump) {
        String of = dump.database() == null ? "" : " of database " + dump.database();
        if (dump.data().values().stream().anyMatch(d -> d.copyStatement() == null || d.copyStatement().isBlank())) {
            // a custom archive's table data without a COPY statement: INSERT statements
            throw insertsRefused(file);
        }
        if (!dump.tables().contains("claim") && !dump.data().containsKey("claim")) {
            throw new DatabaseException(file + " is a dump" + of + ", which is not a ClaimDesk database (it has no"
                    + " claim table)");
        }
        DumpContents.TableData history = dump.data().get(FlywayHistory.TABLE);
        int version = history == null ? 0 : FlywayHistory.schemaVersion(history);
        if (history != null && version == 0) {
            throw new DatabaseException(file + " is not a whole ClaimDesk dump: its " + FlywayHistory.TABLE
                    + " records no schema version");
        }
        Map<String, Long> rows = new LinkedHashMap<>();
        for (String table : tablesOf(version)) {
            DumpContents.TableData data = dump.data().get(table);
            String missing = !dump.tables().contains(table)
                    ? (data == null ? "the table " + table + " is missing (made with -t, -T or -n?)"
                            : "it holds the data of " + table + " but not its definition (made with --data-only?)")
                    : data == null ? "it holds no data of the table " + table + " (made with --schema-only or"
                            + " --exclude-table-data?)" : null;
            if (missing != null) {
                throw new DatabaseException(file + " is not a whole ClaimDesk dump: " + missing
                        + "; make the dump again with pg_dump -Fc and no table or section options");
            }
            if (TABLES.contains(table)) {
                rows.put(table, data.rows().rows());
            }
        }
        for (String trigger : AUDIT_TRIGGERS) {
            if (!dump.triggers().contains(trigger)) {
                throw new DatabaseException(file + " is not a whole ClaimDesk dump: it does not define the trigger "
                        + trigger + " that keeps the audit trail append-only (made with --section?); make the dump"
                        + " again with pg_dump -Fc and no table or section options");
            }
        }
        return new Summary(file, dump.format(), dump.compression(), dump.database(), dump.dumpedAt(),
                dump.serverVersion(), dump.pgDumpVersion(), version, rows);
    }

    /** The triggers that keep the audit trail append-only, which a dump restores with its tables. */
    static final List<String> AUDIT_TRIGGERS = List.of("audit_log_no_update", "audit_log_no_truncate");

    /**
     * The tables a whole dump at schema {@code version} defines with their data: {@link #TABLES}, and the counts'
     * tallies from the versions that have them (the triggers of the tables above write to them: a database restored
     * without them takes no claim or outbox write).
     */
    static List<String> tablesOf(int version) {
        List<String> all = new java.util.ArrayList<>(TABLES);
        // DatabaseMove.TALLIES: the outbox's from schema version 12, the claims' from 13
        if (version >= 12) {
            all.add(DatabaseMove.TALLIES.get(0));
        }
        if (version >= 13) {
            all.add(DatabaseMove.TALLIES.get(1));
        }
        return all;
    }

    private static String notADumpHint(byte[] head) {
        if (startsWith(head, new byte[] {0x1f, (byte) 0x8b})) {
            return " (it is gzip-compressed: unpack it with gunzip first)";
        }
        if (head.length > 262 && new String(head, 257, 5, StandardCharsets.US_ASCII).equals("ustar")) {
            return " in a format this check reads (it is a tar file, perhaps pg_dump -Ft)";
        }
        return "";
    }

    private static byte[] head(Path file, int length) {
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(length);
        } catch (IOException e) {
            throw new DatabaseException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static boolean startsWith(byte[] bytes, byte[] prefix) {
        return bytes.length >= prefix.length && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
    }

    /** The schema version recorded in Flyway's history, as {@link PostgresDatabase#schemaVersion} reads it. */
    static final class FlywayHistory {
        static final String TABLE = "flyway_schema_history";

        private FlywayHistory() {
        }

        /** The highest integer version among the successful migrations; 0 when none. */
        static int schemaVersion(DumpContents.TableData history) {
            List<String> columns = CopyRows.columns(history.copyStatement() == null ? "" : history.copyStatement());
            int version = columns.indexOf("version");
            int success = columns.indexOf("success");
            int highest = 0;
            for (String line : history.rows().lines()) {
                String[] values = line.split("\t", -1);
                if (version < 0 || success < 0 || values.length <= Math.max(version, success)) {
                    continue;
                }
                if (values[success].equals("t") && values[version].matches("\\d{1,9}")) {
                    highest = Math.max(highest, Integer.parseInt(values[version]));
                }
            }
            return highest;
        }
    }
}
