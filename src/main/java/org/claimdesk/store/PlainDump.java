package org.claimdesk.store;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a plain SQL dump ({@code pg_dump -Fp}): the versions in its opening comments, its {@code CREATE TABLE}s, each
 * table's {@code COPY … FROM stdin} rows up to the line {@code \.}, and the closing comment pg_dump writes last.
 */
final class PlainDump {
    static final String FIRST_LINES = "--\n-- PostgreSQL database dump\n--";
    private static final String COMPLETE = "-- PostgreSQL database dump complete";
    private static final Pattern CREATE_TABLE = Pattern.compile("^CREATE (?:UNLOGGED )?TABLE (?:[\\w\"]+\\.)?\"?(\\w+)\"? \\(");
    private static final Pattern COPY = Pattern.compile("^COPY (?:[\\w\"]+\\.)?\"?(\\w+)\"? .*FROM stdin;$");
    private static final Pattern CREATE_DATABASE = Pattern.compile("^CREATE DATABASE \"?(\\w+)\"?");
    private static final Pattern CREATE_TRIGGER = Pattern.compile("^CREATE (?:CONSTRAINT )?TRIGGER \"?(\\w+)\"? ");

    private PlainDump() {
    }

    static DumpContents read(Path file, Predicate<String> keepLines) {
        String serverVersion = null;
        String pgDumpVersion = null;
        String database = null;
        LocalDateTime startedOn = null;
        boolean complete = false;
        Set<String> tables = new LinkedHashSet<>();
        Set<String> triggers = new LinkedHashSet<>();
        Map<String, DumpContents.TableData> data = new LinkedHashMap<>();
        boolean insertLines = false;
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(Files.newInputStream(file),
                StandardCharsets.UTF_8), 1 << 16)) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("-- Dumped from database version ")) {
                    serverVersion = line.substring("-- Dumped from database version ".length());
                } else if (line.startsWith("-- Dumped by pg_dump version ")) {
                    pgDumpVersion = line.substring("-- Dumped by pg_dump version ".length());
                } else if (line.startsWith("-- Started on ")) {
                    startedOn = date(line.substring("-- Started on ".length()));
                } else if (line.startsWith("CREATE ")) {
                    Matcher table = CREATE_TABLE.matcher(line);
                    Matcher db = CREATE_DATABASE.matcher(line);
                    Matcher trigger = CREATE_TRIGGER.matcher(line);
                    if (table.find()) {
                        tables.add(table.group(1));
                    } else if (trigger.find()) {
                        triggers.add(trigger.group(1));
                    } else if (db.find()) {
                        database = db.group(1);
                    }
                } else if (line.startsWith("INSERT INTO ")) {
                    // a table's data as pg_dump --inserts writes them, or a line of a function's body or a comment
                    insertLines = true;
                } else if (line.startsWith("COPY ") && line.endsWith("FROM stdin;")) {
                    // every COPY block is read to its end, a table of a name this check does not follow included, so
                    // that none of its rows is taken for a statement
                    Matcher copy = COPY.matcher(line);
                    if (copy.find()) {
                        String table = copy.group(1);
                        CopyRows rows = new CopyRows(keepLines.test(table));
                        String row;
                        while (!rows.ended() && (row = reader.readLine()) != null) {
                            rows.line(row);
                        }
                        if (!rows.ended()) {
                            throw new DatabaseException(file + " is truncated: it ends in the middle of the data of "
                                    + table + "; make the dump again");
                        }
                        data.put(table, new DumpContents.TableData(table, line, rows));
                    } else {
                        String row;
                        while ((row = reader.readLine()) != null && !row.equals("\\.")) {
                            // rows of a table ClaimDesk does not have
                        }
                    }
                }
                // only blank lines, comment marks and the closing "unrestrict" command may follow the closing comment
                if (line.equals(COMPLETE)) {
                    complete = true;
                } else if (!line.isBlank() && !line.equals("--") && !line.startsWith("\\unrestrict ")) {
                    complete = false;
                }
            }
        } catch (IOException e) {
            throw new DatabaseException("cannot read " + file + ": " + e.getMessage(), e);
        }
        if (insertLines && !data.containsKey("claim")) {
            throw PostgresDump.insertsRefused(file);
        }
        if (!complete) {
            throw new DatabaseException(file + " is truncated: it ends before pg_dump's closing line \""
                    + COMPLETE.substring(3) + "\"; make the dump again");
        }
        return new DumpContents("plain SQL", "none", database, startedOn, serverVersion, pgDumpVersion, tables, triggers,
                data);
    }

    private static LocalDateTime date(String text) {
        try {
            return LocalDateTime.parse(text.substring(0, Math.min(19, text.length())).replace(' ', 'T'));
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
