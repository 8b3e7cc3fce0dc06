package org.claimdesk.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.Map;
import org.claimdesk.store.Json;
import org.claimdesk.store.Database;
import picocli.CommandLine;

/** What every subcommand needs: the root command's options, its database, and its output. */
abstract class CliSupport {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * A criterion given on the command line, refused when blank: the query would read a blank criterion as none, and a
     * bulk command given {@code --signature ""} (an unset shell variable) would act on every failed row.
     */
    static String criterion(String option, String value) {
        if (value != null && value.isBlank()) {
            throw new UsageException(option + " is empty: give a value, or leave the option out");
        }
        return value;
    }

    /** A status given to {@code option} (any case, spaces or dashes for underscores); another is a usage error. */
    static org.claimdesk.domain.ClaimStatus status(String option, String value) {
        try {
            return org.claimdesk.domain.ClaimStatus.parse(value);
        } catch (IllegalArgumentException e) {
            throw new UsageException(option + ": " + e.getMessage());
        }
    }

    /** A list's {@code --limit}: left out, 0 (every row); given, at least 1. */
    static int limit(Integer given) {
        if (given == null) {
            return 0;
        }
        if (given < 1) {
            throw new UsageException("--limit must be at least 1 (leave it out for every row)");
        }
        return given;
    }

    ClaimDeskCommand root() {
        return (ClaimDeskCommand) spec.root().userObject();
    }

    /** {@link ClaimDeskCommand#openDatabase()}: a desk file that is not there is refused, not made. */
    Database openDatabase() {
        return root().openDatabase();
    }

    /** {@link ClaimDeskCommand#openOrCreateDatabase()}: for the commands that make a desk's file. */
    Database openOrCreateDatabase() {
        return root().openOrCreateDatabase();
    }

    /** The time a command works in on {@code db}: the root command's clock where one was given, else the database's. */
    Clock clock(Database db) {
        return root().clock != null ? root().clock : db.clock();
    }

    /** How the text output shows a moment: in the office's zone ({@code zone}), to the second, with its offset. */
    private static final java.time.format.DateTimeFormatter SHOWN = java.time.format.DateTimeFormatter
            .ofPattern("uuuu-MM-dd HH:mm:ss xxx", java.util.Locale.ROOT);

    /**
     * {@code at} as staff read it in the text output, "2026-11-02 07:00:00 -08:00": the office's time with its offset,
     * not UTC (the JSON output keeps ISO instants); "-" for none.
     */
    static String shown(java.time.Instant at, java.time.ZoneId zone) {
        return at == null ? "-" : SHOWN.format(at.atZone(zone));
    }

    /** How many row ids a line of text output lists before it says how many more there are. */
    static final int IDS_SHOWN = 20;

    /**
     * Row ids as a line of text output lists them: the first {@value #IDS_SHOWN}, then how many more ("3, 32, 41, … and
     * 10,782 more"); a re-queue of every failed row after an outage would otherwise print ten thousand ids on one line.
     */
    static String someIds(java.util.Collection<Long> ids) {
        String first = ids.stream().limit(IDS_SHOWN).map(String::valueOf)
                .collect(java.util.stream.Collectors.joining(", "));
        return ids.size() <= IDS_SHOWN ? first
                : first + ", … and " + String.format(java.util.Locale.ROOT, "%,d", ids.size() - IDS_SHOWN) + " more";
    }

    /** The command's standard input. */
    java.io.InputStream in() {
        return root().in;
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /**
     * A JSON array written element by element as a command reads its rows, so that any number of them goes out in
     * bounded memory; {@link JsonArray#close} ends the array once all of them are out.
     */
    JsonArray jsonArray() {
        try {
            // the command's output stays open after the array: more may follow, and it is not the array's to close
            return new JsonArray(Json.mapper().writerWithDefaultPrettyPrinter()
                    .without(com.fasterxml.jackson.core.JsonGenerator.Feature.AUTO_CLOSE_TARGET)
                    .writeValues(out()).init(true));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** See {@link #jsonArray()}. */
    final class JsonArray {
        private final com.fasterxml.jackson.databind.SequenceWriter writer;

        private JsonArray(com.fasterxml.jackson.databind.SequenceWriter writer) {
            this.writer = writer;
        }

        void add(Object value) {
            try {
                writer.write(value);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        /** Ends the array: called once every element is out, never on a failure (a list cut short does not parse). */
        void close() {
            try {
                writer.close();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            out().println();
            out().flush();
        }
    }

    /** A JSON object whose fields keep the order given: names and values alternating. */
    static Map<String, Object> fields(Object... namesAndValues) {
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            out.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return out;
    }

    void printJson(Object value) {
        try {
            out().println(Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
        out().flush();
    }
}
