package org.claimdesk.store;

/** This machine's name: what the audit trail calls a workstation and what a team database's connections carry. */
public final class HostName {
    private HostName() {
    }

    /**
     * The host name from the environment ({@code COMPUTERNAME} on Windows, {@code HOSTNAME} elsewhere), else the
     * resolver's (which may ask the network: call off the FX thread), else {@code unknown}.
     */
    public static String orElse(String unknown) {
        String env = System.getenv(System.getProperty("os.name", "").startsWith("Windows") ? "COMPUTERNAME" : "HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env.strip();
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return unknown;
        }
    }
}
