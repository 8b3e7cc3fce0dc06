package org.claimdesk.domain;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** What an evidence reference proves. Written in lower case in payloads, the CLI and the database. */
public enum EvidenceKind {
    IDENTITY("Identity"),
    ADDRESS("Proof of address"),
    OWNERSHIP("Proof of ownership"),
    HEIRSHIP("Heirship"),
    BUSINESS("Business authority");

    private final String label;

    EvidenceKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** {@code identity}, {@code address}, ...: the name in payloads and on the command line. */
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static String codes() {
        return Arrays.stream(values()).map(EvidenceKind::code).collect(Collectors.joining(", "));
    }

    public static EvidenceKind fromCode(String code) {
        return valueOf(code.toUpperCase(Locale.ROOT));
    }
}
