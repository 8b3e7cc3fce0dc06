package org.claimdesk.testing;

import org.claimdesk.bench.BenchCommand;

/** Fixture for ArchitectureTest: a class outside bench (and not the launcher) that uses bench. */
public final class BenchUser {
    private BenchUser() {
    }

    public static Object command() {
        return new BenchCommand();
    }
}
