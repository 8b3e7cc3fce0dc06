package org.claimdesk.app;

/** One field an edit changed, as it may be shown: the tax id masked to its last four digits. */
public record FieldChange(String field, String before, String after) {
}
