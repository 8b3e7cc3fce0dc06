package org.claimdesk.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Runs a main class of this build in a separate JVM, optionally as the unprivileged user "nobody". */
public final class ChildJvm {
    private ChildJvm() {
    }

    public record Result(int exit, String out, String err) {
    }

    public static boolean runningAsRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /**
     * Runs {@code mainClass} with {@code args}. With {@code asNobody} and when this JVM runs as root,
     * the child runs as uid 65534 from a world-readable copy of the class path under {@code copyDir}.
     */
    public static Result run(Path copyDir, boolean asNobody, Map<String, String> env, String mainClass, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        String classPath = System.getProperty("java.class.path");
        if (asNobody && runningAsRoot()) {
            classPath = readableCopy(copyDir, classPath);
            command.addAll(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-cp", classPath, mainClass));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(env);
        Path outFile = Files.createTempFile("child-out", ".txt");
        Path errFile = Files.createTempFile("child-err", ".txt");
        builder.redirectOutput(outFile.toFile()).redirectError(errFile.toFile());
        Process process = builder.start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("child JVM did not finish within 60 s: " + command);
        }
        Result result = new Result(process.exitValue(), Files.readString(outFile, StandardCharsets.UTF_8),
                Files.readString(errFile, StandardCharsets.UTF_8));
        Files.deleteIfExists(outFile);
        Files.deleteIfExists(errFile);
        return result;
    }

    private static String readableCopy(Path copyDir, String classPath) throws IOException {
        Path lib = Files.createDirectories(copyDir.resolve("cp"));
        List<String> entries = new ArrayList<>();
        int n = 0;
        for (String entry : classPath.split(java.io.File.pathSeparator)) {
            Path source = Path.of(entry);
            if (!Files.exists(source)) {
                continue;
            }
            Path target = lib.resolve((n++) + "-" + source.getFileName());
            if (Files.isDirectory(source)) {
                try (Stream<Path> files = Files.walk(source)) {
                    for (Path file : (Iterable<Path>) files::iterator) {
                        Path copy = target.resolve(source.relativize(file).toString());
                        if (Files.isDirectory(file)) {
                            Files.createDirectories(copy);
                        } else {
                            Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
                        }
                    }
                }
            } else {
                Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
            }
            entries.add(target.toString());
        }
        worldReadable(copyDir);
        return String.join(java.io.File.pathSeparator, entries);
    }

    /** Makes a tree readable (and its folders enterable) by every user. */
    public static void worldReadable(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.setPosixFilePermissions(p, java.nio.file.attribute.PosixFilePermissions.fromString(
                        Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
    }
}
