package org.claimdesk.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removing the temporary folders that self-tests, benchmarks and the start-up training work in. */
public final class TemporaryFolders {
    private TemporaryFolders() {
    }

    /** Deletes {@code dir} and everything in it, as far as it can; a leftover temporary file is harmless. */
    public static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // left for the system to clean
                }
            });
        } catch (IOException | java.io.UncheckedIOException e) {
            // left for the system to clean
        }
    }
}
