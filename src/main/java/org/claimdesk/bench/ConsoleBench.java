package org.claimdesk.bench;

import java.util.Map;
import org.claimdesk.store.DatabaseLocation;

/**
 * {@code claimdesk bench ui}: runs the real console on a generated database and returns its measurements
 * (names to values, in the order they should be printed).
 */
@FunctionalInterface
public interface ConsoleBench {
    /** @param database the empty database to seed and measure on; null for a temporary file */
    Map<String, Object> run(int claims, int outboxRows, int drain, DatabaseLocation database);
}
