package org.claimdesk.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.EvidenceRules;
import org.claimdesk.domain.FieldViolation;
import org.claimdesk.domain.InvalidFieldsException;

/**
 * The evidence folder: files copied in owner-only (0700 folder, 0600 files), each kept under its
 * SHA-256, so the same document added twice is kept once. A copy goes to a temporary name first, is
 * hashed on the way, then renamed: a failed or refused copy leaves nothing behind.
 */
public final class EvidenceFiles {
    private static final String TEMP_PREFIX = ".incoming-";

    private final Path folder;

    public EvidenceFiles(Path folder) {
        this.folder = folder.toAbsolutePath().normalize();
    }

    /** A file now in the folder. {@code created} is false when the same content was there already. */
    public record Stored(String originalName, String storedName, long sizeBytes, String sha256, boolean created) {
    }

    public Path folder() {
        return folder;
    }

    public Path path(String storedName) {
        return folder.resolve(storedName);
    }

    /**
     * Refuses, with a message naming the file, one that is missing, not a regular file, unreadable or over
     * the size limit; nothing is written then.
     */
    public static long checkSource(Path source) {
        if (!Files.exists(source)) {
            throw new ClaimDeskException("the evidence file " + source + " does not exist");
        }
        if (!Files.isRegularFile(source)) {
            throw new ClaimDeskException("the evidence file " + source + " is a folder or a device, not a file");
        }
        if (!Files.isReadable(source)) {
            throw new ClaimDeskException("the evidence file " + source + " cannot be read: check its permissions");
        }
        long size;
        try {
            size = Files.size(source);
        } catch (IOException e) {
            throw unreadable(source, e);
        }
        refuseIfTooLarge(size);
        return size;
    }

    private static void refuseIfTooLarge(long size) {
        FieldViolation tooLarge = EvidenceRules.fileSize(size);
        if (tooLarge != null) {
            throw new InvalidFieldsException(java.util.List.of(tooLarge));
        }
    }

    /** Copies {@code source} in; the caller removes it with {@link #discard} if it cannot record it. */
    public Stored copyIn(Path source) {
        checkSource(source);
        Path temp = null;
        try {
            if (!Files.isDirectory(folder)) {
                OwnerOnly.create(folder, true);
            }
            temp = folder.resolve(TEMP_PREFIX + UUID.randomUUID());
            OwnerOnly.create(temp, false);
            MessageDigest digest = sha256();
            long size = 0;
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = open(source); OutputStream out = Files.newOutputStream(temp)) {
                for (int n; (n = read(in, buffer, source)) > 0; ) {
                    size += n;
                    // the file may have grown since it was checked
                    refuseIfTooLarge(size);
                    digest.update(buffer, 0, n);
                    out.write(buffer, 0, n);
                }
            }
            String hash = HexFormat.of().formatHex(digest.digest());
            Path target = folder.resolve(hash);
            boolean created = true;
            try {
                move(temp, target);
            } catch (FileAlreadyExistsException e) {
                created = false;
                Files.delete(temp);
            }
            temp = null;
            return new Stored(source.getFileName().toString(), hash, size, hash, created);
        } catch (NoSuchFileException e) {
            throw new ClaimDeskException("the evidence file " + source + " disappeared while it was copied", e);
        } catch (IOException e) {
            throw new ClaimDeskException("cannot copy the evidence file " + source + " into " + folder + ": "
                    + e.getMessage(), e);
        } finally {
            if (temp != null) {
                deleteQuietly(temp);
            }
        }
    }

    /** Failures to read the source are the file's fault, named as such (not the evidence folder's). */
    private static InputStream open(Path source) {
        try {
            return Files.newInputStream(source);
        } catch (NoSuchFileException e) {
            throw new ClaimDeskException("the evidence file " + source + " disappeared while it was copied", e);
        } catch (IOException e) {
            throw unreadable(source, e);
        }
    }

    private static int read(InputStream in, byte[] buffer, Path source) {
        try {
            return in.read(buffer);
        } catch (IOException e) {
            throw unreadable(source, e);
        }
    }

    private static ClaimDeskException unreadable(Path source, IOException e) {
        String why = e instanceof AccessDeniedException ? "check its permissions" : e.getMessage();
        return new ClaimDeskException("the evidence file " + source + " cannot be read: " + why, e);
    }

    private static void move(Path temp, Path target) throws IOException {
        if (Files.exists(target)) {
            throw new FileAlreadyExistsException(target.toString());
        }
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target);
        }
    }

    /** Removes a file this copy created, when its database row could not be written. */
    public void discard(Stored stored) {
        if (stored.created()) {
            deleteQuietly(path(stored.storedName()));
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // a leftover temporary file holds no reference; the next copy uses another name
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java has no SHA-256", e);
        }
    }
}
