package org.claimdesk.domain;

/**
 * What is found of a file reference's copy in an evidence folder: whole (there, with the size its row records, and
 * readable), missing, damaged (another size or content) or unreadable by this workstation's user.
 */
public enum EvidenceCopy {
    WHOLE, MISSING, DAMAGED, UNREADABLE
}
