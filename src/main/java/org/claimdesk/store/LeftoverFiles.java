package org.claimdesk.store;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;

/**
 * Files a writer leaves beside its target until it ends (an evidence add's temporary copy, a backup's partial file),
 * left for good when it never ends (its process killed, the machine gone off): removed once older than any writer
 * under way could be.
 */
public final class LeftoverFiles {
    /** A writer of such a file that began longer ago than this never ended: none takes a day. */
    public static final Duration ABANDONED_AFTER = Duration.ofDays(1);
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LeftoverFiles.class);

    private LeftoverFiles() {
    }

    /**
     * Removes the files in {@code folder} whose names {@code names} accepts, last changed longer than
     * {@link #ABANDONED_AFTER} before {@code now}; one the folder's rules keep is left.
     *
     * @param now the folder's time: taken from a file just written there where other machines write too, since a
     *     workstation whose clock runs a day ahead would take a writer under way elsewhere for one that never ended
     * @return how many were removed
     * @throws IOException when the folder cannot be listed
     */
    public static int removeAbandoned(Path folder, Predicate<String> names, Instant now) throws IOException {
        Instant before = now.minus(ABANDONED_AFTER);
        int removed = 0;
        DirectoryStream.Filter<Path> named = p -> names.test(p.getFileName().toString());
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, named)) {
            for (Path file : files) {
                try {
                    if (Files.getLastModifiedTime(file).toInstant().isBefore(before) && Files.deleteIfExists(file)) {
                        removed++;
                    }
                } catch (IOException e) {
                    LOG.debug("a file left by a writer that never ended stays: {}: {}", file, e.toString());
                }
            }
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
        return removed;
    }
}
