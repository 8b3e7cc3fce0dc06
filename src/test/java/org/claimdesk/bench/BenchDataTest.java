package org.claimdesk.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.testing.Sql;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** The console benchmark's database, seeded on either engine: the counts asked for, and only into an empty one. */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class BenchDataTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    @Test
    void seedsTheClaimsTheOutboxRowsAndTheRowsToDrain() {
        DatabaseLocation location = TestDatabase.location(engine, dir, "bench");

        // 12,000 claims: more than two loader batches and more than one transaction of extra sent rows
        BenchData.Summary seeded = BenchData.prepare(location, 12_000, 13_000, 700);

        assertThat(seeded.claims()).isEqualTo(12_000);
        assertThat(seeded.outboxRows()).isEqualTo(13_000);
        assertThat(seeded.drainRows()).isEqualTo(700);
        try (Database db = Database.open(location)) {
            assertThat(Sql.count(db, "claim")).isEqualTo(12_000);
            int due = db.read(h -> h.createQuery("SELECT count(*) FROM outbox_event WHERE delivery_state = 'pending'"
                    + " AND next_attempt_at = 0").mapTo(Integer.class).one());
            assertThat(due).isEqualTo(700);
            // every claim has a submission row once the outbox is topped up past the claims
            int without = db.read(h -> h.createQuery("SELECT count(*) FROM claim c WHERE NOT EXISTS"
                    + " (SELECT 1 FROM outbox_event o WHERE o.aggregate_id = c.claim_id)").mapTo(Integer.class).one());
            assertThat(without).isZero();
            if (engine == TestDatabase.Engine.POSTGRESQL) {
                // measured as after claimdesk migrate: settled as a running server's database would be
                long analyzed = db.read(h -> h.createQuery("SELECT count(*) FROM pg_stats WHERE tablename = 'claim'")
                        .mapTo(Long.class).one());
                assertThat(analyzed).as("columns of claim with statistics").isPositive();
                assertThat(Sql.count(db, "outbox_state_tally")).as("the outbox's tally folded, one row per state")
                        .isLessThanOrEqualTo(DeliveryState.values().length);
                assertThat(Sql.count(db, "claim_status_tally")).as("the claims' tally folded, one row per status")
                        .isLessThanOrEqualTo(ClaimStatus.values().length);
                boolean vacuumed = db.read(h -> h.createQuery("SELECT last_vacuum IS NOT NULL FROM pg_stat_user_tables"
                        + " WHERE relname = 'outbox_event'").mapTo(Boolean.class).one());
                assertThat(vacuumed).as("outbox_event vacuumed").isTrue();
                int tallyPages = db.read(h -> h.createQuery("SELECT relpages FROM pg_class WHERE relname = 'outbox_state_tally'")
                        .mapTo(Integer.class).one());
                assertThat(tallyPages).as("the outbox's tally rewritten after the fold of one row per sent row").isLessThanOrEqualTo(1);
            }
        }
    }

    @Test
    void refusesADatabaseThatHoldsDataAndWritesNothing() {
        DatabaseLocation location = TestDatabase.location(engine, dir, "busy");
        BenchData.prepare(location, 50, 50, 0);

        assertThatThrownBy(() -> BenchData.prepare(location, 50, 80, 0))
                .hasMessageContaining("already holds claims, outbox rows or audit entries")
                .hasMessageContaining("nothing was written");
        try (Database db = Database.open(location)) {
            assertThat(Sql.count(db, "claim")).isEqualTo(50);
            assertThat(Sql.count(db, "outbox_event")).isEqualTo(50);
        }
    }
}
