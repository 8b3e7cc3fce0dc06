package org.claimdesk.testing;

import java.time.Instant;
import java.time.LocalDate;
import java.util.concurrent.atomic.AtomicInteger;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.PropertyType;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.NewClaim;

/** Inserts claims straight into a real database for tests. */
public final class TestClaims {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private TestClaims() {
    }

    public static long insert(Database db, ClaimStatus status) {
        return insert(db, status, "CA");
    }

    public static long insert(Database db, ClaimStatus status, String jurisdiction) {
        int n = SEQUENCE.incrementAndGet();
        NewClaim claim = new NewClaim(String.format("UPC-T%02d-%06d", n % 100, n), jurisdiction, Integer.toString(40_000_000 + n),
                "Wells Fargo Bank NA", "HLD-100200", PropertyType.AC01, ClaimType.OWNER, "Maria Garcia " + n,
                "123-00-" + String.format("%04d", n % 10_000), 12_345, status, null, LocalDate.of(2026, 3, 1), null);
        return db.inTransaction(h -> new ClaimStore().insert(h, claim, Instant.parse("2026-03-01T10:00:00Z")));
    }
}
