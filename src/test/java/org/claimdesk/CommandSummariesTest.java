package org.claimdesk;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.claimdesk.bench.BenchCommand;
import org.claimdesk.cli.ClaimDeskCommand;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * A parent's {@code --help} lists each command by the first line of its description: that line must say what the
 * command does on its own, not stop in the middle of a sentence continued below it. Every command the installed
 * launcher knows, the tooling commands included, takes {@code --help} itself.
 */
class CommandSummariesTest {

    @Test
    void everyCommandIsListedByAWholeSentence() {
        List<String> summaries = new ArrayList<>();
        collect(ClaimDeskCommand.commandLine(null, List.of(new BenchCommand())), summaries);

        assertThat(summaries).hasSizeGreaterThan(30)
                .allSatisfy(summary -> assertThat(summary).matches("\\S+: \\S.*[.)]"));
    }

    @Test
    void everyCommandPrintsItsOwnUsageWithHelpAndItsDescriptionAsParagraphs() {
        List<String> paths = new ArrayList<>();
        collect(ClaimDeskCommand.commandLine(null, List.of(new BenchCommand())), paths);
        assertThat(paths).hasSizeGreaterThan(30);
        for (String summary : paths) {
            String name = summary.substring(0, summary.indexOf(':')).replace('_', ' ').replaceFirst("^claimdesk ", "");
            List<String> args = new ArrayList<>(List.of(name.split(" ")));
            args.add("--help");
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CommandLine cl = ClaimDeskCommand.commandLine(null, List.of(new BenchCommand()));
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));

            assertThat(cl.execute(args.toArray(String[]::new))).as(name + " --help: " + err).isZero();
            assertThat(out.toString()).as(name).startsWith("Usage: claimdesk " + name + " ");
            // the description: the lines at the margin after the usage's first line, up to the list of commands, and
            // the empty lines between its paragraphs; a summary and paragraphs, each wrapped to the width, leave one
            // line well short of it each
            List<String> description = out.toString().lines().skip(1)
                    .takeWhile(line -> !line.equals("Commands:"))
                    .filter(line -> line.isEmpty() || !Character.isWhitespace(line.charAt(0))).toList();
            long paragraphs = 2 + description.stream().filter(String::isEmpty).count();
            assertThat(description).as(name + ": the description's short lines")
                    .filteredOn(line -> !line.isEmpty() && line.length() < 60).hasSizeLessThanOrEqualTo((int) paragraphs);
        }
    }

    private static void collect(CommandLine command, List<String> summaries) {
        for (CommandLine sub : command.getSubcommands().values()) {
            String[] description = sub.getCommandSpec().usageMessage().description();
            String path = sub.getCommandSpec().qualifiedName(" ");
            summaries.add(path.replace(' ', '_') + ": " + (description.length == 0 ? "" : description[0]));
            collect(sub, summaries);
        }
    }
}
