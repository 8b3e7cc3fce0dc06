package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.PropertyType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SearchIndexTest {
    @TempDir
    Path dir;

    private final ClaimStore claims = new ClaimStore();

    @Test
    void aFailedAppendRollsBackWithItsTriggerAndTheIndexStillFollowsInserts() {
        try (Database db = Database.open(dir.resolve("failed.db"))) {
            assertThatThrownBy(() -> db.useTransaction(h -> SearchIndex.append(h, () -> {
                claims.insert(h, claim("UPC-2026-000001", "Lost Claimant"), Instant.EPOCH);
                throw new IllegalStateException("the load failed");
            }))).hasMessageContaining("the load failed");
            int triggers = db.read(h -> h.createQuery(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'claim_search_insert'")
                    .mapTo(Integer.class).one());
            assertThat(triggers).isEqualTo(1);
            db.useTransaction(h -> claims.insert(h, claim("UPC-2026-000002", "Kept Claimant"), Instant.EPOCH));
            assertThat(count(db, "Claimant")).isEqualTo(1);
            assertThat(count(db, "Lost")).isZero();
        }
    }

    @Test
    void appendedClaimsAreSearchableAndLaterClaimsToo() {
        try (Database db = Database.open(dir.resolve("loaded.db"))) {
            db.useTransaction(h -> claims.insert(h, claim("UPC-2026-000001", "Earlier Claimant"), Instant.EPOCH));
            db.useTransaction(h -> SearchIndex.append(h, () -> {
                for (int i = 0; i < 50; i++) {
                    claims.insert(h, claim("UPC-2026-1000" + (10 + i), "Loaded Claimant " + i), Instant.EPOCH);
                }
                return null;
            }));
            db.useTransaction(h -> claims.insert(h, claim("UPC-2026-000099", "Later Claimant"), Instant.EPOCH));
            assertThat(count(db, "Loaded Claimant")).isEqualTo(50);
            assertThat(count(db, "later claim")).isEqualTo(1);
            assertThat(count(db, "earlier claim")).as("claims before the append are indexed once").isEqualTo(1);
            int indexed = db.read(h -> h.createQuery("SELECT count(*) FROM claim_search").mapTo(Integer.class).one());
            assertThat(indexed).isEqualTo(52);
        }
    }

    @Test
    void anAppendNeedsATransaction() {
        try (Database db = Database.open(dir.resolve("none.db"))) {
            assertThatThrownBy(() -> db.read(h -> SearchIndex.append(h, () -> null)))
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    private int count(Database db, String search) {
        return db.read(h -> claims.count(h, ClaimQuery.all().withSearch(search)));
    }

    private static NewClaim claim(String number, String claimant) {
        return new NewClaim(number, "CA", "4000001", "Holder", null, PropertyType.AC01, ClaimType.OWNER, claimant,
                "123-00-4567", 1_000, ClaimStatus.IDENTITY_PENDING, null, LocalDate.of(2026, 3, 1), null);
    }
}
