package org.claimdesk.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The team training's lines join the desk's class list once each, after it, without the JVM's comments. */
class TeamStartupTrainingTest {
    @TempDir
    Path dir;

    @Test
    void addsOnlyTheLinesTheDesksListLacksInTheirOrder() throws Exception {
        Path desk = dir.resolve("desk.classlist");
        Path team = dir.resolve("team.classlist");
        Files.writeString(desk, "# NOTE: Do not modify this file.\njava/lang/Object\norg/claimdesk/Launcher\n");
        Files.writeString(team, "# NOTE: Do not modify this file.\njava/lang/Object\norg/postgresql/Driver\n"
                + "org/claimdesk/Launcher\n@lambda-proxy org/postgresql/Driver run ()V\norg/postgresql/Driver\n");

        int added = TeamStartupTraining.addMissingLines(team, desk);

        assertThat(added).isEqualTo(2);
        assertThat(Files.readAllLines(desk)).containsExactly("# NOTE: Do not modify this file.", "java/lang/Object",
                "org/claimdesk/Launcher", "org/postgresql/Driver", "@lambda-proxy org/postgresql/Driver run ()V");
    }

    @Test
    void aListWithoutItsLastLineBreakKeepsItsLastLineWhole() throws Exception {
        Path desk = dir.resolve("desk.classlist");
        Path team = dir.resolve("team.classlist");
        Files.writeString(desk, "java/lang/Object");
        Files.writeString(team, "org/postgresql/Driver\n");

        assertThat(TeamStartupTraining.addMissingLines(team, desk)).isEqualTo(1);
        assertThat(Files.readAllLines(desk)).containsExactly("java/lang/Object", "org/postgresql/Driver");
    }
}
