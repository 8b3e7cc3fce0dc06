package org.claimdesk.cli;

/**
 * A command line that asks for what cannot be: options that exclude each other, one missing that another needs, a
 * value out of its range. Said in one line and exit code 2, as picocli's own usage errors, where a refusal of the
 * work itself is exit code 1.
 */
public final class UsageException extends IllegalArgumentException {
    public UsageException(String message) {
        super(message);
    }
}
