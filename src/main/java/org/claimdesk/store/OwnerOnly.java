package org.claimdesk.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * Files and folders only their owner may read: 0600 and 0700 where the file system keeps POSIX
 * permissions, unchanged elsewhere. Every file ClaimDesk writes about claims or staff goes through here.
 */
public final class OwnerOnly {
    private OwnerOnly() {
    }

    /** Makes an existing file 0600 or folder 0700. */
    public static void restrict(Path path) throws IOException {
        if (posix(path)) {
            Files.setPosixFilePermissions(path, permissions(Files.isDirectory(path)));
        }
    }

    /** Creates a folder (with its parents) or an empty file, owner-only from the start. */
    public static void create(Path path, boolean directory) throws IOException {
        if (directory) {
            Files.createDirectories(path, attributes(path, true));
        } else {
            Files.createFile(path, attributes(path, false));
        }
    }

    /** Creates a new file, owner-only from the start, and opens it for writing; fails if the file exists. */
    public static FileChannel createForWriting(Path path) throws IOException {
        return createNew(path, StandardOpenOption.WRITE);
    }

    /** Creates a new file, owner-only from the start, and opens it with {@code options}; fails if the file exists. */
    static FileChannel createNew(Path path, StandardOpenOption... options) throws IOException {
        Set<StandardOpenOption> open = EnumSet.of(StandardOpenOption.CREATE_NEW, options);
        return FileChannel.open(path, open, attributes(path, false));
    }

    /** The permissions a new file or folder is created with: owner-only where the file system keeps them. */
    private static FileAttribute<?>[] attributes(Path path, boolean directory) {
        return posix(path)
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(permissions(directory))}
                : new FileAttribute<?>[0];
    }

    private static boolean posix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    private static Set<PosixFilePermission> permissions(boolean directory) {
        return PosixFilePermissions.fromString(directory ? "rwx------" : "rw-------");
    }
}
