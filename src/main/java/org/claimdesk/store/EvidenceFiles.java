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
import java.util.HexFormat;
import java.util.UUID;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.Evidence;
import org.claimdesk.domain.EvidenceCopy;
import org.claimdesk.domain.EvidenceRules;
import org.claimdesk.domain.FieldViolation;
import org.claimdesk.domain.InvalidFieldsException;
import org.claimdesk.domain.Sha256;

/**
 * The evidence folder: files each kept under its SHA-256, so the same document added twice is kept once. A copy goes
 * to a temporary name first, is hashed on the way, then renamed: a failed or refused copy leaves no partial file. A
 * file already there under the same name is kept only if its size and hash still match, else the new copy replaces
 * it.
 *
 * <p>A folder of one's {@linkplain #own own} (a desk's, beside its database file) is created owner-only (0700, files
 * 0600), and a copy whose row could not be written is removed again. The office's {@linkplain #shared shared} folder
 * of a team database is IT's: it is never created here (a share that is not mounted must not become a local folder
 * that fills unseen), files are written readable by the folder's group (0640), and no evidence file in it is removed —
 * another workstation may be adding the same content at that moment, its row not yet committed. In either folder the
 * temporary file of an add that never ended (its process killed mid-copy) is removed once a day old.
 */
public final class EvidenceFiles {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(EvidenceFiles.class);
    private static final String TEMP_PREFIX = ".incoming-";
    private static final java.util.Set<java.nio.file.attribute.PosixFilePermission> SHARED_FILE =
            java.nio.file.attribute.PosixFilePermissions.fromString("rw-r-----");

    /** The folders this process has cleared of abandoned temporary files. */
    private static final java.util.Set<Path> SWEPT = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final Path folder;
    private final boolean shared;

    private EvidenceFiles(Path folder, boolean shared) {
        this.folder = folder.toAbsolutePath().normalize();
        this.shared = shared;
    }

    /** A folder of this desk's or workstation's own, created owner-only when first needed. */
    public static EvidenceFiles own(Path folder) {
        return new EvidenceFiles(folder, false);
    }

    /**
     * The office's shared folder, which must exist; files in it are readable by its group, and no evidence file in it
     * is removed.
     */
    public static EvidenceFiles shared(Path folder) {
        return new EvidenceFiles(folder, true);
    }

    public boolean isShared() {
        return shared;
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
            throw aboutSource(source, "does not exist", null);
        }
        if (!Files.isRegularFile(source)) {
            throw aboutSource(source, "is a folder or a device, not a file", null);
        }
        if (!Files.isReadable(source)) {
            throw aboutSource(source, "cannot be read: check its permissions", null);
        }
        long size;
        try {
            size = Files.size(source);
        } catch (IOException e) {
            throw unreadable(source, e);
        }
        if (size > 0) {
            // a size of 0 is decided by what is read: some files (a device's, /proc's) say 0 and hold more
            refuseUnlessKept(size);
        }
        return size;
    }

    /** Refuses a file of {@code size} the rules do not keep: too large, or empty ({@link EvidenceRules#fileSize}). */
    private static void refuseUnlessKept(long size) {
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
            temp = createTemp();
            removeAbandonedOnce(temp);
            MessageDigest digest = Sha256.digest();
            long size = 0;
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = open(source); OutputStream out = Files.newOutputStream(temp)) {
                for (int n; (n = read(in, buffer, source)) > 0; ) {
                    size += n;
                    // the file may have grown since it was checked
                    refuseUnlessKept(size);
                    digest.update(buffer, 0, n);
                    out.write(buffer, 0, n);
                }
            }
            // emptied since it was checked (a cloud folder's file made a placeholder)
            refuseUnlessKept(size);
            String hash = HexFormat.of().formatHex(digest.digest());
            Path target = folder.resolve(hash);
            boolean created = true;
            try {
                move(temp, target);
            } catch (FileAlreadyExistsException e) {
                EvidenceCopy there = presence(hash, size, true);
                if (there == EvidenceCopy.WHOLE || there == EvidenceCopy.UNREADABLE) {
                    // whole, or not readable here (another staff member's file the share's rules keep from us): kept
                    created = false;
                    Files.delete(temp);
                } else {
                    // cut short or altered (e.g. an interrupted copy of the folder), or gone since it was seen: this
                    // whole copy goes in its place
                    replace(temp, target);
                }
            }
            temp = null;
            return new Stored(org.claimdesk.domain.PlainText.shown(source.getFileName().toString()), hash, size, hash,
                    created);
        } catch (NoSuchFileException e) {
            throw aboutSource(source, "disappeared while it was copied", e);
        } catch (IOException e) {
            throw ClaimDeskException.withLogText("cannot copy the evidence file " + source + " into " + folder + ": "
                    + IoErrors.describe(e), "cannot copy an evidence file (its name is not logged) into " + folder
                    + ": " + e.getClass().getSimpleName(), e);
        } finally {
            if (temp != null) {
                deleteQuietly(temp);
            }
        }
    }

    /**
     * At this process's first add to the folder, removes in the background the temporary files of adds that never
     * ended ({@link #removeAbandoned}), judged by the folder's own clock: the time {@code temp}, just created there,
     * was given (a workstation whose clock runs a day ahead would otherwise take another's add under way for one that
     * never ended). A folder whose files could not be listed is looked at again at the next add; the add itself never
     * fails for this.
     */
    private void removeAbandonedOnce(Path temp) {
        if (!SWEPT.add(folder)) {
            return;
        }
        java.time.Instant now;
        try {
            now = Files.getLastModifiedTime(temp).toInstant();
        } catch (IOException e) {
            SWEPT.remove(folder);
            LOG.debug("could not read the time of {}; abandoned temporary files are looked for at the next add", temp);
            return;
        }
        Thread sweep = new Thread(() -> {
            try {
                removeAbandoned(now);
            } catch (IOException | RuntimeException e) {
                SWEPT.remove(folder);
                LOG.debug("could not look for abandoned temporary files in {}: {}", folder, e.toString());
            }
        }, "claimdesk-evidence-sweep");
        sweep.setDaemon(true);
        sweep.start();
    }

    /**
     * Removes the temporary files of adds that never ended ({@link LeftoverFiles#removeAbandoned}), at {@code now} by
     * the folder's clock.
     *
     * @return how many were removed
     * @throws IOException when the folder cannot be listed
     */
    int removeAbandoned(java.time.Instant now) throws IOException {
        int removed = LeftoverFiles.removeAbandoned(folder, name -> name.startsWith(TEMP_PREFIX), now);
        if (removed > 0) {
            LOG.info("removed {} temporary file(s) of evidence adds that never ended from {}", removed, folder);
        }
        return removed;
    }

    /**
     * A new temporary file in the folder: owner-only in one's own folder (created owner-only first if need be);
     * readable by the folder's group in the shared one, which must exist.
     */
    private Path createTemp() throws IOException {
        Path temp = folder.resolve(TEMP_PREFIX + UUID.randomUUID());
        if (!shared) {
            if (!Files.isDirectory(folder)) {
                OwnerOnly.create(folder, true);
            }
            OwnerOnly.create(temp, false);
            return temp;
        }
        if (!Files.isDirectory(folder)) {
            throw new ClaimDeskException("the shared evidence folder " + folder + " is not there: is the office's"
                    + " share mounted on this workstation? (docs/operations.md: evidence files)");
        }
        Files.createFile(temp);
        try {
            Files.setPosixFilePermissions(temp, SHARED_FILE);
        } catch (UnsupportedOperationException | IOException e) {
            // a share without POSIX permissions (SMB) applies its own access rules
        }
        return temp;
    }

    /**
     * What the folder has of a file reference's copy: whole (present with the size its row records, and readable),
     * missing, damaged or unreadable; null for an address. Looks at the file's size only, not its content.
     */
    public EvidenceCopy presence(Evidence reference) {
        return presence(reference, false);
    }

    /** As {@link #presence(Evidence)}; {@code hashed}: the copy's content is read and checked against its SHA-256. */
    public EvidenceCopy presence(Evidence reference, boolean hashed) {
        return reference.isFile() ? presence(reference.storedName(), reference.sizeBytes(), hashed) : null;
    }

    /** As {@link #presence(Evidence)} for the copy kept as {@code storedName}; {@code hashed}: its content too. */
    private EvidenceCopy presence(String storedName, long size, boolean hashed) {
        Path file = path(storedName);
        try {
            if (!Files.isRegularFile(file)) {
                return EvidenceCopy.MISSING;
            }
            if (Files.size(file) != size) {
                return EvidenceCopy.DAMAGED;
            }
            if (!Files.isReadable(file)) {
                return EvidenceCopy.UNREADABLE;
            }
            // a copy is kept under its SHA-256
            return !hashed || hash(file).equals(storedName) ? EvidenceCopy.WHOLE : EvidenceCopy.DAMAGED;
        } catch (IOException e) {
            return EvidenceCopy.UNREADABLE;
        }
    }

    /**
     * Whether a file can be written to the folder now (a temporary file made and removed), or why not: one sentence.
     */
    public java.util.Optional<String> writeProblem() {
        Path temp = null;
        try {
            temp = createTemp();
            return java.util.Optional.empty();
        } catch (ClaimDeskException e) {
            return java.util.Optional.of(e.getMessage());
        } catch (IOException e) {
            return java.util.Optional.of("cannot write to the evidence folder " + folder + " (" + e + ")");
        } finally {
            if (temp != null) {
                deleteQuietly(temp);
            }
        }
    }

    /** Puts the whole copy {@code temp} in place of the damaged {@code target}, or says why it cannot. */
    private void replace(Path temp, Path target) {
        try {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            LOG.warn("the evidence file {} in {} was cut short or altered; it was replaced by the whole copy just added",
                    target.getFileName(), folder);
        } catch (IOException e) {
            throw new ClaimDeskException("the evidence folder " + folder + " holds a damaged copy of this file ("
                    + target.getFileName() + ") that cannot be replaced from here (" + e.getClass().getSimpleName()
                    + "): IT removes it, then the file can be added again", e);
        }
    }

    private static String hash(Path file) throws IOException {
        MessageDigest digest = Sha256.digest();
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** Failures to read the source are the file's fault, named as such (not the evidence folder's). */
    private static InputStream open(Path source) {
        try {
            return Files.newInputStream(source);
        } catch (NoSuchFileException e) {
            throw aboutSource(source, "disappeared while it was copied", e);
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
        return ClaimDeskException.withLogText("the evidence file " + source + " cannot be read: " + why,
                "an evidence file (its name is not logged) cannot be read: " + e.getClass().getSimpleName(), e);
    }

    /**
     * A refusal of the file staff chose, said to them with its path and logged without it: a file's name says whose
     * document it is ("Maria Lopez SSN card.pdf").
     */
    private static ClaimDeskException aboutSource(Path source, String what, Throwable cause) {
        return ClaimDeskException.withLogText("the evidence file " + source + " " + what,
                "an evidence file (its name is not logged) " + what, cause);
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

    /** Whether the file {@code stored} names is in the folder (a failed add of the same content may have removed it). */
    public boolean isThere(Stored stored) {
        return Files.isRegularFile(path(stored.storedName()));
    }

    /**
     * Removes a file this copy created, when its database row could not be written; in the shared folder, nothing
     * (another workstation may be adding the same content, its row not yet visible here).
     */
    public void discard(Stored stored) {
        if (stored.created() && !shared) {
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

}
