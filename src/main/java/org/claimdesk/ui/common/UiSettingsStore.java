package org.claimdesk.ui.common;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.function.Consumer;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.store.Json;
import org.claimdesk.store.OwnerOnly;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads and writes {@link UiSettings} as {@code console.json} in the per-user data directory. A missing
 * or unreadable file gives the defaults (and a log line); a write goes through a temporary file so a
 * crash never leaves half a file. Never called on the FX thread.
 */
public final class UiSettingsStore {
    private static final Logger LOG = LoggerFactory.getLogger(UiSettingsStore.class);
    public static final String FILE = "console.json";

    private final Path file;
    private final ObjectMapper mapper = Json.mapper();

    public UiSettingsStore(Path directory) {
        this.file = directory.resolve(FILE);
    }

    public Path file() {
        return file;
    }

    public UiSettings load() {
        try {
            return read();
        } catch (IOException | RuntimeException e) {
            LOG.warn("ignoring unreadable console settings {}: {}", file, e.getMessage());
            return new UiSettings();
        }
    }

    /** The settings in the file; the defaults when there is no file (or it holds none). */
    private UiSettings read() throws IOException {
        if (!Files.isRegularFile(file)) {
            return new UiSettings();
        }
        UiSettings s = mapper.readValue(file.toFile(), UiSettings.class);
        return s == null ? new UiSettings() : s;
    }

    /**
     * Changes the settings kept in the file now (loading them first), e.g. one staff just changed; a file that cannot
     * be read or written is an error here, not a log line (nor the defaults).
     */
    public synchronized void update(Consumer<UiSettings> change) {
        UiSettings kept;
        try {
            kept = read();
        } catch (IOException | RuntimeException e) {
            // written from the defaults, it would lose what it holds beyond this change (the operator's name)
            throw new ClaimDeskException("cannot read the console settings in " + file + ": "
                    + (e instanceof IOException io ? org.claimdesk.store.IoErrors.describe(io) : e.getMessage()), e);
        }
        change.accept(kept);
        try {
            write(kept);
        } catch (IOException e) {
            throw new ClaimDeskException("cannot save the console settings to " + file + ": "
                    + org.claimdesk.store.IoErrors.describe(e), e);
        }
    }

    public synchronized void save(UiSettings settings) {
        try {
            write(settings);
        } catch (IOException e) {
            LOG.warn("cannot save console settings to {}: {}", file, e.getMessage());
        }
    }

    private void write(UiSettings settings) throws IOException {
        Files.createDirectories(file.getParent());
        // a name of its own (two consoles of one user may save at once), made owner-only before anything is written
        // in it: the settings name the operator
        Path tmp = Files.createTempFile(file.getParent(), FILE + ".", ".tmp");
        try {
            OwnerOnly.restrict(tmp);
            mapper.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), settings);
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
