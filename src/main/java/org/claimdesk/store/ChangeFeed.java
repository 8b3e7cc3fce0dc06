package org.claimdesk.store;

import java.util.Set;
import java.util.function.Consumer;
import org.claimdesk.domain.DataChange;

/**
 * What other workstations (and other ClaimDesk programs) change in the database, as they commit it. On a team database the server announces
 * every change (LISTEN/NOTIFY, {@link PostgresChangeFeed}); a local file has no other workstation, so its feed
 * is silent ({@link #NONE}).
 */
public interface ChangeFeed {
    /** A listener's place in the feed; closing it stops the calls. */
    interface Subscription extends AutoCloseable {
        @Override
        void close();
    }

    /** A feed that never hears of a change: a local file, where this workstation is the only one. */
    ChangeFeed NONE = new ChangeFeed() {
        @Override
        public boolean live() {
            return false;
        }

        @Override
        public boolean connected() {
            return false;
        }

        @Override
        public Subscription subscribe(Consumer<Set<DataChange>> listener) {
            return () -> { };
        }

        @Override
        public boolean awaitListening(long timeoutMs) {
            return false;
        }
    };

    /** True when changes made elsewhere arrive through this feed. */
    boolean live();

    /** True while the feed listens: false before its first subscriber and while it has lost its connection. */
    boolean connected();

    /**
     * Calls {@code listener}, on the feed's own thread, with the kinds of data changed by each transaction other
     * programs commit (this open database's own changes are left out: its console knows of them). After the feed lost its connection and got it back, it calls
     * with every kind: what changed meanwhile was not heard.
     */
    Subscription subscribe(Consumer<Set<DataChange>> listener);

    /**
     * Waits until the feed listens (it starts with its first subscriber), up to {@code timeoutMs}; true when it does.
     * What is committed after that is heard: a subscriber that reads its state once this returns true misses
     * nothing in between.
     */
    boolean awaitListening(long timeoutMs) throws InterruptedException;
}
