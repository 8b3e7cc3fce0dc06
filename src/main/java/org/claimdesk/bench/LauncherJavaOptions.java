package org.claimdesk.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.claimdesk.domain.ClaimDeskException;

/**
 * The JVM options {@code bench ui} gives the console it measures, so that it measures what staff run: the
 * options of the launcher staff start.
 * <ul>
 *   <li>{@value #OVERRIDE_ENV}, when set, wins: its words, split at white space (set but empty: none, the
 *       JVM's defaults);</li>
 *   <li>else, in an installation (a jpackage launcher sets {@value #APP_PATH_PROPERTY} to its own path), the
 *       {@code java-options=} lines of the launcher's {@code <Name>.cfg}, with {@code $APPDIR},
 *       {@code $BINDIR} and {@code $ROOTDIR} expanded as the launcher expands them;</li>
 *   <li>else (a development jar) the installer's list, which the build writes into the resource
 *       {@value #RESOURCE} from the pom's {@code launcher.java.options}, the same property that gives jpackage
 *       its {@code --java-options}; an option naming {@code $APPDIR} is left out, since a development jar
 *       has no application folder (the class-data sharing archive exists only in an installation).</li>
 * </ul>
 *
 * @param options the options, in order
 * @param source where they came from, for the report
 */
public record LauncherJavaOptions(List<String> options, String source) {
    public static final String OVERRIDE_ENV = "CLAIMDESK_BENCH_JAVA_OPTIONS";
    /** Set by a jpackage launcher to the launcher's own path; absent when the JVM was started otherwise. */
    public static final String APP_PATH_PROPERTY = "jpackage.app-path";
    static final String RESOURCE = "launcher-java-options.txt";
    private static final String APPDIR = "$APPDIR";

    public LauncherJavaOptions {
        options = List.copyOf(options);
    }

    /**
     * The path of this runtime's own {@code java}, to start a measured child as the launcher starts the console: not
     * this process's command, which in an installation is the native launcher.
     */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin",
                System.getProperty("os.name", "").startsWith("Windows") ? "java.exe" : "java").toString();
    }

    /** The options for this process: from its environment and, when installed, its launcher. */
    public static LauncherJavaOptions current() {
        return choose(System.getenv(OVERRIDE_ENV), System.getProperty(APP_PATH_PROPERTY));
    }

    /** As {@link #current()}, from the given override (null: not set) and launcher path (null: not installed). */
    static LauncherJavaOptions choose(String override, String appPath) {
        if (override != null) {
            return new LauncherJavaOptions(words(override), OVERRIDE_ENV);
        }
        if (appPath != null && !appPath.isBlank()) {
            Launcher launcher = Launcher.of(Path.of(appPath));
            return new LauncherJavaOptions(launcher.javaOptions(), "launcher configuration " + launcher.cfg());
        }
        return new LauncherJavaOptions(installerList().stream().filter(o -> !o.contains(APPDIR)).toList(),
                "the installer's launcher options (development jar)");
    }

    /** The installer's list of launcher options as the build wrote it into this jar, {@code $APPDIR} unexpanded. */
    static List<String> installerList() {
        try (InputStream in = LauncherJavaOptions.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the build did not write " + RESOURCE);
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (text.contains("${")) {
                throw new IllegalStateException(RESOURCE + " was not filtered by the build: " + text.strip());
            }
            return words(text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    private static List<String> words(String text) {
        String stripped = text.strip();
        return stripped.isEmpty() ? List.of() : Arrays.asList(stripped.split("\\s+"));
    }

    /**
     * A jpackage launcher and its configuration file: {@code bin/<Name>} and {@code lib/app/<Name>.cfg} on
     * Linux, {@code <Name>.exe} and {@code app/<Name>.cfg} on Windows, {@code Contents/MacOS/<Name>} and
     * {@code Contents/app/<Name>.cfg} on macOS.
     */
    record Launcher(Path cfg, Path binDir, Path rootDir) {

        static Launcher of(Path launcher) {
            Path binDir = launcher.toAbsolutePath().getParent();
            String name = launcher.getFileName().toString().replaceFirst("(?i)\\.exe$", "");
            List<Launcher> layouts = new ArrayList<>();
            if (binDir.getParent() != null) {
                layouts.add(new Launcher(binDir.getParent().resolve("lib/app/" + name + ".cfg"), binDir, binDir.getParent()));
                layouts.add(new Launcher(binDir.getParent().resolve("app/" + name + ".cfg"), binDir, binDir.getParent()));
            }
            layouts.add(new Launcher(binDir.resolve("app/" + name + ".cfg"), binDir, binDir));
            return layouts.stream().filter(l -> Files.isRegularFile(l.cfg())).findFirst()
                    .orElseThrow(() -> new ClaimDeskException("bench ui cannot find the launcher configuration of "
                            + launcher + " (looked for " + layouts.stream().map(l -> l.cfg().toString()).toList()
                            + "); set " + OVERRIDE_ENV + " to the options to measure with"));
        }

        /** The {@code java-options=} lines of the {@code [JavaOptions]} section, in order, expanded. */
        List<String> javaOptions() {
            List<String> lines;
            try {
                lines = Files.readAllLines(cfg, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + cfg, e);
            }
            List<String> options = new ArrayList<>();
            boolean inJavaOptions = false;
            for (String raw : lines) {
                String line = raw.strip();
                if (line.startsWith("[") && line.endsWith("]")) {
                    inJavaOptions = line.equals("[JavaOptions]");
                } else if (inJavaOptions && line.startsWith("java-options=")) {
                    options.add(expand(line.substring("java-options=".length())));
                }
            }
            return options;
        }

        private String expand(String option) {
            return option.replace(APPDIR, cfg.getParent().toString()).replace("$BINDIR", binDir.toString())
                    .replace("$ROOTDIR", rootDir.toString());
        }
    }
}
