package org.claimdesk.cli;

import picocli.CommandLine;

/** The version from the jar manifest, or "development" when run from classes. */
public final class VersionProvider implements CommandLine.IVersionProvider {
    public static String version() {
        String v = VersionProvider.class.getPackage().getImplementationVersion();
        return v == null ? "development" : v;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"ClaimDesk " + version() + " (Java " + System.getProperty("java.version") + ")"};
    }
}
