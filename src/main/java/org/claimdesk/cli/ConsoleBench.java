package org.claimdesk.cli;

import java.util.Map;

/**
 * {@code claimdesk bench ui}: runs the real console on a generated database and returns its measurements
 * (names to numbers, in the order they should be printed). Supplied by the launcher; the CLI itself knows
 * nothing of the console.
 */
@FunctionalInterface
public interface ConsoleBench {
    Map<String, Object> run(int claims, int outboxRows, int drain);
}
