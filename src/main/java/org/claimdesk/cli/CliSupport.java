package org.claimdesk.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.PrintWriter;
import java.time.Clock;
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
            throw new IllegalArgumentException(option + " is empty: give a value, or leave the option out");
        }
        return value;
    }

    ClaimDeskCommand root() {
        return (ClaimDeskCommand) spec.root().userObject();
    }

    Database openDatabase() {
        return root().openDatabase();
    }

    /** The time a command works in on {@code db}: the root command's clock where one was given, else the database's. */
    Clock clock(Database db) {
        return root().clock != null ? root().clock : db.clock();
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
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
