package org.claimdesk.cli;

import java.util.List;

/**
 * A start as the desktop makes it (no argument), the console and the refusal window replaced by lines on standard
 * output; run in a JVM of its own, whose environment the test sets.
 */
public final class DesktopStartProbe {
    private DesktopStartProbe() {
    }

    public static void main(String[] args) {
        int exit = ClaimDeskCommand.execute(location -> System.out.println("OPENED " + location),
                why -> System.out.println("CANNOT START: " + why), List.of());
        System.exit(exit);
    }
}
