package org.claimdesk.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * A file system failure in words staff can act on. Java names many of them by the file alone ("/home/kim/x.csv" for
 * a file that may not be written), so the kind of failure is said here.
 */
public final class IoErrors {
    private IoErrors() {
    }

    public static String describe(IOException e) {
        if (e instanceof AccessDeniedException denied) {
            return "no permission for " + denied.getFile() + " (check the folder's and the file's permissions)";
        }
        if (e instanceof NoSuchFileException missing) {
            return missing.getFile() + " does not exist";
        }
        if (e instanceof FileAlreadyExistsException exists) {
            return exists.getFile() + " already exists";
        }
        if (e instanceof NotDirectoryException notFolder) {
            return notFolder.getFile() + " is not a folder";
        }
        if (e instanceof DirectoryNotEmptyException notEmpty) {
            return notEmpty.getFile() + " is a folder that is not empty";
        }
        if (e instanceof FileSystemException other && other.getReason() != null) {
            return (other.getFile() == null ? "" : other.getFile() + ": ") + other.getReason();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** As {@link #describe(IOException)} for an unchecked one: its message when ClaimDesk wrote one, else its cause's. */
    public static String describe(UncheckedIOException e) {
        return e.getMessage() != null && !e.getMessage().equals(String.valueOf(e.getCause()))
                ? e.getMessage() : describe(e.getCause());
    }
}
