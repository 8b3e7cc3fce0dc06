package org.claimdesk.domain;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The rules for an evidence reference, used by the console, the command line and the import: its kind,
 * its title, its address and its file's size.
 */
public final class EvidenceRules {
    /** 25 MB: a scanned deed or death certificate, not a video. */
    public static final long MAX_FILE_BYTES = 25L * 1024 * 1024;
    public static final int MAX_TITLE = 200;
    public static final int MAX_URL = 2000;

    /** http or https, a host without user name or password, then an optional path, query or fragment. */
    private static final Pattern URL = Pattern.compile("(?i)https?://[^\\s/?#@]+(?:[/?#]\\S*)?");

    private EvidenceRules() {
    }

    public static Checked<EvidenceKind> kind(String raw) {
        String text = raw == null ? "" : raw.strip().toUpperCase(Locale.ROOT);
        for (EvidenceKind kind : EvidenceKind.values()) {
            if (kind.name().equals(text)) {
                return Checked.ok(kind);
            }
        }
        return broken("kind", "Kind", "must be one of " + EvidenceKind.codes());
    }

    /**
     * The title, or {@code fallback} (the file name or the address) when none is given: a title typed with a hidden
     * character ({@link PlainText}) is refused, a file name's is shown as '?', as staff did not type it.
     */
    public static Checked<String> title(String raw, String fallback) {
        boolean typed = raw != null && !raw.isBlank();
        String text = typed ? raw.strip() : PlainText.shown(fallback);
        if (text == null || text.isBlank()) {
            return broken("title", "Title", "must not be blank");
        }
        if (PlainText.hasHidden(text)) {
            return broken("title", "Title", "must be one line without tabs or control characters");
        }
        if (text.codePointCount(0, text.length()) > MAX_TITLE) {
            return raw == null || raw.isBlank()
                    ? Checked.ok(text.substring(0, text.offsetByCodePoints(0, MAX_TITLE - 1)) + "…")
                    : broken("title", "Title", "must be at most " + MAX_TITLE + " characters");
        }
        return Checked.ok(text);
    }

    public static Checked<String> url(String raw) {
        String text = raw == null ? "" : raw.strip();
        if (text.isEmpty()) {
            return broken("url", "Address", "must not be blank");
        }
        if (text.length() > MAX_URL || !URL.matcher(text).matches()) {
            return broken("url", "Address", "must be an http or https address without a user name"
                    + " (e.g. https://records.example.gov/deed/123)");
        }
        return Checked.ok(text);
    }

    /** Null when a file of {@code bytes} may be kept, else the rule it breaks. */
    public static FieldViolation fileSize(long bytes) {
        if (bytes == 0) {
            // a download that failed, or a cloud folder's placeholder: it proves nothing
            return new FieldViolation("file", "File", "is empty (0 bytes): choose the scanned document itself");
        }
        if (bytes > MAX_FILE_BYTES) {
            return new FieldViolation("file", "File", "must be at most 25 MB (this one is "
                    + megabytes(bytes) + ")");
        }
        return null;
    }

    public static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024.0));
    }

    /** A file's size for staff: "812 bytes", "14.2 KB", "3.1 MB". */
    public static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + (bytes == 1 ? " byte" : " bytes");
        }
        if (bytes < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KB", bytes / 1024.0);
        }
        return megabytes(bytes);
    }

    private static <T> Checked<T> broken(String field, String label, String rule) {
        return Checked.broken(new FieldViolation(field, label, rule));
    }
}
