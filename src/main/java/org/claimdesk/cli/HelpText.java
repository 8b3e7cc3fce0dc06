package org.claimdesk.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The commands' descriptions as paragraphs picocli wraps to the help's width. A description is written in the source as
 * its one-line summary (which the parent's list of commands shows) followed by the lines of its paragraphs, an empty
 * line between two; picocli prints each element on a line of its own and wraps a long one, which left every line of
 * such a paragraph ragged ("… or a team" / "database: …"). Here each paragraph's lines are joined into one.
 */
final class HelpText {
    private HelpText() {
    }

    /** Joins the description paragraphs of {@code root} and of every command under it. */
    static void reflow(CommandLine root) {
        CommandSpec spec = root.getCommandSpec();
        spec.usageMessage().description(paragraphs(spec.usageMessage().description()));
        root.getSubcommands().values().stream().distinct().forEach(HelpText::reflow);
    }

    /** The summary line, then each paragraph's lines joined into one, the empty lines between them kept. */
    static String[] paragraphs(String[] lines) {
        if (lines.length <= 2) {
            return lines;
        }
        List<String> out = new ArrayList<>();
        out.add(lines[0]);
        List<String> paragraph = new ArrayList<>();
        for (String line : Arrays.asList(lines).subList(1, lines.length)) {
            if (line.isBlank()) {
                out.add(String.join(" ", paragraph));
                out.add("");
                paragraph.clear();
            } else {
                paragraph.add(line.strip());
            }
        }
        out.add(String.join(" ", paragraph));
        return out.toArray(String[]::new);
    }
}
