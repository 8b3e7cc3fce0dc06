package org.claimdesk.domain;

/**
 * What is found of a file reference's copy in an evidence folder: whole (there, with the size its row records, and
 * readable), missing, damaged (another size or content) or unreadable by this workstation's user.
 */
public enum EvidenceCopy {
    WHOLE, MISSING, DAMAGED, UNREADABLE;

    /** As the CLI and doctor write it: {@code whole}, {@code missing}, {@code damaged}, {@code unreadable}. */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
