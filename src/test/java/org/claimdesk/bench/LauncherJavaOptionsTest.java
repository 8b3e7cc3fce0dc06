package org.claimdesk.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.claimdesk.domain.ClaimDeskException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Where {@code bench ui} takes the measured console's JVM options from. */
class LauncherJavaOptionsTest {
    @TempDir
    Path dir;

    /** A launcher configuration as jpackage writes it (JDK 17, Linux layout). */
    private static String cfg() {
        return """
                [Application]
                app.classpath=$APPDIR/claimdesk.jar
                app.classpath=$APPDIR/lib/picocli-4.7.7.jar
                app.mainclass=org.claimdesk.Launcher

                [JavaOptions]
                java-options=-Djpackage.app-version=0.1.0
                java-options=-XX:+UseParallelGC
                java-options=-Xmx192m
                java-options=-XX:TieredStopAtLevel=1
                java-options=-XX:SharedArchiveFile=$APPDIR/claimdesk.jsa
                java-options=-Dclaimdesk.home=$ROOTDIR/data
                """;
    }

    @Test
    void anInstalledLauncherGivesItsCfgJavaOptionsWithTheFoldersExpanded() throws Exception {
        Path root = dir.resolve("opt/claimdesk");
        Path launcher = Files.createDirectories(root.resolve("bin")).resolve("ClaimDesk");
        Files.writeString(launcher, "");
        Path app = Files.createDirectories(root.resolve("lib/app"));
        Files.writeString(app.resolve("ClaimDesk.cfg"), cfg());

        LauncherJavaOptions options = LauncherJavaOptions.choose(null, launcher.toString());

        assertThat(options.options()).containsExactly("-Djpackage.app-version=0.1.0", "-XX:+UseParallelGC", "-Xmx192m",
                "-XX:TieredStopAtLevel=1", "-XX:SharedArchiveFile=" + app + "/claimdesk.jsa",
                "-Dclaimdesk.home=" + root + "/data");
        assertThat(options.source()).isEqualTo("launcher configuration " + app.resolve("ClaimDesk.cfg"));
    }

    @Test
    void aWindowsLauncherFindsItsCfgInTheAppFolderBesideIt() throws Exception {
        Path root = Files.createDirectories(dir.resolve("ClaimDesk"));
        Path launcher = root.resolve("ClaimDesk.exe");
        Files.writeString(launcher, "");
        Path app = Files.createDirectories(root.resolve("app"));
        Files.writeString(app.resolve("ClaimDesk.cfg"), cfg());

        assertThat(LauncherJavaOptions.choose(null, launcher.toString()).options())
                .contains("-Xmx192m", "-XX:SharedArchiveFile=" + app + "/claimdesk.jsa");
    }

    @Test
    void aLauncherWithoutItsCfgIsRefusedWithTheWayOut() throws Exception {
        Path launcher = Files.createDirectories(dir.resolve("bin")).resolve("ClaimDesk");
        Files.writeString(launcher, "");

        assertThatThrownBy(() -> LauncherJavaOptions.choose(null, launcher.toString()))
                .isInstanceOf(ClaimDeskException.class)
                .hasMessageContaining("cannot find the launcher configuration")
                .hasMessageContaining(LauncherJavaOptions.OVERRIDE_ENV);
    }

    @Test
    void theEnvironmentVariableWinsAndEmptyMeansTheJvmDefaults() throws Exception {
        Path launcher = dir.resolve("bin/ClaimDesk");

        assertThat(LauncherJavaOptions.choose("  -Xmx256m   -XX:+UseSerialGC\n", launcher.toString()).options())
                .containsExactly("-Xmx256m", "-XX:+UseSerialGC");
        LauncherJavaOptions none = LauncherJavaOptions.choose("", null);
        assertThat(none.options()).isEmpty();
        assertThat(none.source()).isEqualTo(LauncherJavaOptions.OVERRIDE_ENV);
    }

    @Test
    void theDevelopmentJarsListIsTheInstallerProfilesWithoutTheApplicationFolder() throws Exception {
        List<String> installer = jpackageJavaOptions(Path.of("pom.xml"));

        assertThat(LauncherJavaOptions.installerList()).isEqualTo(installer).contains("-Xmx192m");
        assertThat(LauncherJavaOptions.choose(null, null).options())
                .isEqualTo(installer.stream().filter(o -> !o.contains("$APPDIR")).toList())
                .isNotEmpty();
        assertThat(LauncherJavaOptions.choose(null, "").source()).contains("development jar");
    }

    /** The value the pom's installer step passes to jpackage after {@code --java-options}, properties resolved. */
    private static List<String> jpackageJavaOptions(Path pom) throws Exception {
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
        NodeList args = doc.getElementsByTagName("arg");
        String value = null;
        for (int i = 0; i + 1 < args.getLength(); i++) {
            if ("--java-options".equals(((Element) args.item(i)).getAttribute("value"))) {
                value = ((Element) args.item(i + 1)).getAttribute("value");
            }
        }
        assertThat(value).as("the installer step's --java-options").isNotNull();
        List<String> words = new ArrayList<>();
        for (String word : value.strip().split("\\s+")) {
            if (word.matches("\\$\\{[^}]+}")) {
                String name = word.substring(2, word.length() - 1);
                NodeList property = ((Element) doc.getElementsByTagName("properties").item(0))
                        .getElementsByTagName(name);
                assertThat(property.getLength()).as("pom property " + name).isEqualTo(1);
                words.addAll(Arrays.asList(property.item(0).getTextContent().strip().split("\\s+")));
            } else {
                words.add(word);
            }
        }
        return words;
    }
}
