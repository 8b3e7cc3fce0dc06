package org.claimdesk.app;

/**
 * Words of a command ClaimDesk prints for someone to run (pg_dump for a team database's backup, a copy of evidence
 * files after a move), quoted for the shell of the system it runs on: a POSIX shell, or on Windows the command line
 * as programs there split it.
 */
public final class ShellWords {
    private static final String PLAIN = "[A-Za-z0-9_./:@%+=,-]+";

    private ShellWords() {
    }

    /** True on Windows. */
    public static boolean windows() {
        return System.getProperty("os.name", "").startsWith("Windows");
    }

    /** {@code word} as this system's shell reads it ({@link #posix} or {@link #windows(String)}). */
    public static String word(String word) {
        return windows() ? windows(word) : posix(word);
    }

    /** A word as a POSIX shell reads it: as it is when plain, else in single quotes. */
    static String posix(String word) {
        return word.matches(PLAIN) ? word : "'" + word.replace("'", "'\\''") + "'";
    }

    /**
     * A word as a Windows program splits its command line: as it is when plain or a path with backslashes, else in
     * double quotes, a quote inside as {@code \"} and the backslashes before a quote or the closing quote doubled.
     * cmd.exe passes such a word on as it is unless it holds a double quote (a path cannot) or {@code %} (which it
     * expands, quoted or not): a host or role name with either is to be typed with care.
     */
    static String windows(String word) {
        if (word.matches("[A-Za-z0-9_./:@%+=,\\\\-]+")) {
            return word;
        }
        StringBuilder quoted = new StringBuilder("\"");
        int backslashes = 0;
        for (char c : word.toCharArray()) {
            if (c == '\\') {
                backslashes++;
                continue;
            }
            quoted.append("\\".repeat(c == '"' ? backslashes * 2 + 1 : backslashes)).append(c);
            backslashes = 0;
        }
        return quoted.append("\\".repeat(backslashes * 2)).append('"').toString();
    }
}
