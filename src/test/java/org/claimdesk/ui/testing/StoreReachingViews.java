package org.claimdesk.ui.testing;

import org.claimdesk.store.ClaimQuery;
import org.claimdesk.store.Database;
import org.claimdesk.store.OutboxQuery;

/** Fixtures for ArchitectureTest: a ui class holding the database, and one using only query records. */
public final class StoreReachingViews {
    private StoreReachingViews() {
    }

    public static final class Forbidden {
        public String path(Database database) {
            return database.path().toString();
        }
    }

    public static final class Allowed {
        public String describe(ClaimQuery claims, OutboxQuery outbox) {
            return claims + " " + outbox;
        }
    }
}
