package org.claimdesk.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.claimdesk.domain.ClaimField;

/**
 * A claim's fields as a command takes them: {@code --set FIELD=VALUE}, each field once, and the tax id from standard
 * input ({@code --tax-id-stdin}), never from the command line, where other users of the machine see it in the process
 * list and the shell's history keeps it.
 */
final class FieldValues {
    static final String TAX_ID_STDIN = "--tax-id-stdin";
    static final String TAX_ID_STDIN_HELP = "Read the tax id from standard input: typed without echo at a terminal"
            + " (input and output both), or piped in (a tax id is not taken with --set, where the process list shows"
            + " it to other users and the shell's history keeps it).";

    private FieldValues() {
    }

    /**
     * The fields given with {@code --set}, in their order.
     *
     * @throws UsageException for a value without its field's name, a field given twice, or the tax id
     */
    static Map<String, String> parse(List<String> sets) {
        Map<String, String> fields = new LinkedHashMap<>();
        Map<String, String> seen = new LinkedHashMap<>();
        for (String set : sets == null ? List.<String>of() : sets) {
            int eq = set.indexOf('=');
            if (eq <= 0) {
                throw new UsageException("--set takes FIELD=VALUE (e.g. --set amountCents=12500), got \""
                        + (eq < 0 && ClaimField.byName(set).isEmpty() ? "a value without a field" : set) + "\"");
            }
            String name = set.substring(0, eq).strip();
            String key = ClaimField.byName(name).map(ClaimField::name).orElse(name).toLowerCase(Locale.ROOT);
            if (key.equals(ClaimField.TAX_ID.name().toLowerCase(Locale.ROOT))) {
                throw new UsageException("the tax id is not taken with --set: other users see the command line in the"
                        + " process list and the shell's history keeps it; give " + TAX_ID_STDIN + " and type it, or"
                        + " pipe it in");
            }
            if (seen.put(key, name) != null) {
                throw new UsageException("--set gives " + name + " twice: give each field once");
            }
            fields.put(name, set.substring(eq + 1));
        }
        return fields;
    }

    /**
     * The tax id from {@code in}: asked for without echo when the command runs at a terminal on the process's own
     * standard input, else its first line.
     */
    static String readTaxId(InputStream in, java.io.PrintWriter err) {
        java.io.Console console = System.console();
        if (in == System.in && console != null) {
            char[] typed = console.readPassword("Tax id (not shown): ");
            if (typed == null || new String(typed).isBlank()) {
                throw new UsageException("no tax id was typed");
            }
            return new String(typed).strip();
        }
        if (in == System.in) {
            // no console: the input is piped, or the output goes elsewhere (a file, jq), where typing would show
            err.println("Tax id: reading one line from standard input (typed at a terminal whose output is redirected,"
                    + " it shows: pipe it in instead)");
            err.flush();
        }
        try {
            String line = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
            if (line == null || line.isBlank()) {
                throw new UsageException(TAX_ID_STDIN + " reads the tax id from standard input, which held none");
            }
            return line.strip();
        } catch (IOException e) {
            throw new UsageException(TAX_ID_STDIN + " reads the tax id from standard input, which cannot be read ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    /** {@code fields} with the tax id read from {@code in} when {@code fromStdin}; a second tax id is refused. */
    static Map<String, String> withTaxId(Map<String, String> fields, boolean fromStdin, InputStream in,
            java.io.PrintWriter err) {
        if (!fromStdin) {
            return fields;
        }
        if (fields.keySet().stream().anyMatch(k -> k.strip().equalsIgnoreCase(ClaimField.TAX_ID.name()))) {
            throw new UsageException("the fields already give a taxId: give it there or with " + TAX_ID_STDIN
                    + ", not both");
        }
        Map<String, String> all = new LinkedHashMap<>(fields);
        all.put(ClaimField.TAX_ID.name(), readTaxId(in, err));
        return all;
    }
}
