package org.claimdesk.bench;

import java.util.Map;

/**
 * {@code claimdesk bench ui}: runs the real console on a generated database and returns its measurements
 * (names to values, in the order they should be printed).
 */
@FunctionalInterface
public interface ConsoleBench {
    Map<String, Object> run(int claims, int outboxRows, int drain);
}
