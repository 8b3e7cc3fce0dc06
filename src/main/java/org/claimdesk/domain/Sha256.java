package org.claimdesk.domain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256, which every Java runtime has: a new digest, or the digest of a text in hex. */
public final class Sha256 {
    private Sha256() {
    }

    /** A new SHA-256 digest. */
    public static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /** The digest of {@code text}'s UTF-8 bytes. */
    public static byte[] of(String text) {
        return digest().digest(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The digest of {@code text}'s UTF-8 bytes, in lower-case hex. */
    public static String hexOf(String text) {
        return HexFormat.of().formatHex(of(text));
    }
}
