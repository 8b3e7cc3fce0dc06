package org.claimdesk.app;

import java.util.Set;
import java.util.function.Consumer;
import org.claimdesk.domain.DataChange;
import org.claimdesk.store.ChangeFeed;
import org.claimdesk.store.Database;

/**
 * What other workstations change in a team database, as they commit it, for the console's open pages: they read
 * again what changed instead of waiting for staff to refresh. On a local file nothing arrives: the console is the
 * only one working on it.
 */
public final class LiveChanges {
    private final Database database;

    public LiveChanges(Database database) {
        this.database = database;
    }

    /** True when changes made elsewhere arrive (a team database). */
    public boolean live() {
        return database.changes().live();
    }

    /** True while the changes made elsewhere arrive; false on a local file and while the connection is lost. */
    public boolean connected() {
        return database.changes().connected();
    }

    /**
     * Calls {@code listener}, on a thread of its own (never the FX thread), with the kinds of data each transaction
     * committed elsewhere changed; closing the returned handle stops the calls.
     */
    public AutoCloseable subscribe(Consumer<Set<DataChange>> listener) {
        ChangeFeed.Subscription subscription = database.changes().subscribe(listener);
        return subscription::close;
    }

    /**
     * Waits, up to {@code timeout}, until changes made elsewhere are heard (after the first {@link #subscribe}):
     * what a subscriber reads once this returns true cannot have changed unheard since. False on a local file, and
     * when the server was not reached in time (or the wait was interrupted).
     */
    public boolean awaitListening(java.time.Duration timeout) {
        try {
            return database.changes().awaitListening(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
