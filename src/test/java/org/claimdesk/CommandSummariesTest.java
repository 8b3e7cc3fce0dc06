package org.claimdesk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.claimdesk.bench.BenchCommand;
import org.claimdesk.cli.ClaimDeskCommand;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * A parent's {@code --help} lists each command by the first line of its description: that line must say what the
 * command does on its own, not stop in the middle of a sentence continued below it.
 */
class CommandSummariesTest {

    @Test
    void everyCommandIsListedByAWholeSentence() {
        List<String> summaries = new ArrayList<>();
        collect(ClaimDeskCommand.commandLine(null, List.of(new BenchCommand())), summaries);

        assertThat(summaries).hasSizeGreaterThan(30)
                .allSatisfy(summary -> assertThat(summary).matches("\\S+: \\S.*[.)]"));
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
