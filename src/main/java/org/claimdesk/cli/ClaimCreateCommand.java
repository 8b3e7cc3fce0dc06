package org.claimdesk.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.claimdesk.app.ClaimIntake;
import org.claimdesk.app.ClaimView;
import org.claimdesk.domain.Amounts;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.DuplicateClaimException;
import org.claimdesk.domain.FieldViolation;
import org.claimdesk.domain.InvalidFieldsException;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.store.Json;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code claims create}: one claim entered by hand, every field checked by its rule. */
@Command(name = "create", description = {
    "Create a claim from its fields, each checked by its rule.",
    "Fields are named as in claims show --json (the whole tax id as taxId). It gets the next claim number",
    "(UPC-YYYY-NNNNNN), starts in IDENTITY_PENDING (or, with --reason, in a later",
    "status a new claim may start in), and is audited. A claim with the same jurisdiction, state property id and",
    "claimant already present is refused unless --repeats names it and --reason says why another is needed.",
    "Exit 1 with one line per broken rule."})
final class ClaimCreateCommand extends CliSupport implements Callable<Integer> {
    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    static final class Source {
        @Option(names = "--json-file", paramLabel = "FILE",
                description = "A JSON object of fields, e.g. {\"jurisdiction\": \"CA\", \"amountCents\": 12500, ...}.")
        Path jsonFile;

        @Option(names = "--set", paramLabel = "FIELD=VALUE",
                description = "A field and its value; repeat for each field, each once (the tax id with "
                        + FieldValues.TAX_ID_STDIN + ").")
        List<String> sets;
    }

    @Option(names = FieldValues.TAX_ID_STDIN, description = FieldValues.TAX_ID_STDIN_HELP)
    boolean taxIdStdin;

    @Option(names = "--actor", required = true, paramLabel = "NAME", description = "Who enters the claim.")
    String actor;

    @Option(names = "--status", paramLabel = "STATUS",
            description = "The starting status (default IDENTITY_PENDING); a later one needs --reason.")
    String status;

    @Option(names = "--reason", paramLabel = "TEXT",
            description = "Why it starts in a later status, or why it repeats a claim already present.")
    String reason;

    @Option(names = "--repeats", paramLabel = "CLAIM_NUMBER",
            description = "The claim already present with the same jurisdiction, state property id and claimant that"
                    + " this one repeats on purpose (needs --reason).")
    String repeats;

    @Option(names = "--json", description = "Print the new claim as JSON.")
    boolean json;

    @Override
    public Integer call() {
        Map<String, String> given = source.sets != null ? FieldValues.parse(source.sets) : readJson(source.jsonFile);
        ClaimStatus start = status == null ? null : CliSupport.status("--status", status);
        // the tax id asked for last: a mistake in the command line is said before anyone types it
        Map<String, String> fields = FieldValues.withTaxId(given, taxIdStdin, in(), err());
        if (root().databasePath() instanceof DatabaseLocation.SqliteFile desk && !Files.exists(desk.file())) {
            // a claim refused by its rules makes no new desk's file
            try {
                ClaimIntake.checkBeforeOpening(fields, start, actor, reason, repeats, root().clockOrSystem());
            } catch (InvalidFieldsException e) {
                return refused(e);
            }
        }
        try (Database db = openOrCreateDatabase()) {
            ClaimIntake intake = new ClaimIntake(db, clock(db));
            Claim claim;
            try {
                claim = intake.create(fields, start, actor, reason, repeats);
            } catch (InvalidFieldsException e) {
                return refused(e);
            } catch (DuplicateClaimException e) {
                err().println("claimdesk: " + e.getMessage() + " (--repeats " + e.existingClaimNumber()
                        + " --reason TEXT)");
                err().flush();
                return ClaimDeskCommand.EXIT_REFUSED;
            }
            ClaimView view = ClaimView.of(claim, intake.today(), false);
            if (json) {
                printJson(view);
            } else {
                out().printf("%s created (id %d): %s, %s, %s, %s, tax id %s, %s%n", view.claimNumber(), view.claimId(),
                        view.status(), view.jurisdiction(), view.statePropertyId(), view.claimantName(),
                        view.taxIdMasked(), Amounts.dollars(view.amountCents()));
            }
        }
        return ClaimDeskCommand.EXIT_OK;
    }

    /** One line per broken rule, exit 1. */
    private int refused(InvalidFieldsException e) {
        for (FieldViolation v : e.violations()) {
            err().println("claimdesk: " + v.describe());
        }
        err().flush();
        return ClaimDeskCommand.EXIT_REFUSED;
    }

    /** The fields of a JSON object: text as it is, numbers as written, null as blank. */
    static Map<String, String> readJson(Path file) {
        JsonNode root;
        try {
            root = Json.mapper().readTree(Files.readString(file));
        } catch (java.nio.file.NoSuchFileException e) {
            throw new ClaimDeskException("no file " + file);
        } catch (IOException e) {
            throw new ClaimDeskException(file + " is not a JSON object of claim fields: " + firstLine(e.getMessage()));
        }
        if (root == null || !root.isObject()) {
            throw new ClaimDeskException(file + " is not a JSON object of claim fields (e.g. {\"jurisdiction\": \"CA\"})");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        root.fields().forEachRemaining(e -> {
            JsonNode value = e.getValue();
            if (value.isContainerNode()) {
                throw new ClaimDeskException(file + ": the field " + e.getKey() + " must be text or a number");
            }
            fields.put(e.getKey(), value.isNull() ? "" : value.asText());
        });
        return fields;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
