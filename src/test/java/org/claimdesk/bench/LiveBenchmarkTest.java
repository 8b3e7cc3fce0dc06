package org.claimdesk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.claimdesk.cli.ClaimDeskCommand;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;

/** {@code bench live} on a real team database: every edit is heard by the other workstation; refusals. */
class LiveBenchmarkTest {

    @Test
    void everyEditMadeOnOneWorkstationIsHeardOnTheOtherAndTimed() throws Exception {
        DatabaseLocation.Postgres empty = TestDatabase.newEmptyServerDatabase();

        BenchCommandTest.Run run = BenchCommandTest.run(new BenchCommand(), "--db", TestDatabase.url(empty), "bench",
                "live", "--changes", "5", "--json");

        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode result = run.json();
        assertThat(result.get("edits").asInt()).isEqualTo(5);
        for (String figure : List.of("heardP50Ms", "heardP95Ms", "heardMaxMs", "pageReadP50Ms", "pageReadMaxMs")) {
            assertThat(result.get(figure).asDouble()).as(figure).isPositive();
        }
        assertThat(result.get("heardMaxMs").asDouble()).isLessThanOrEqualTo(result.get("pageReadMaxMs").asDouble());
        try (Database db = Database.open(empty)) {
            int edits = db.read(h -> h.createQuery("SELECT count(*) FROM audit_log WHERE actor = 'bench.live'"
                    + " AND reason LIKE 'bench live: edit %'").mapTo(Integer.class).one());
            assertThat(edits).isEqualTo(5);
        }
    }

    @Test
    void aDatabaseHoldingClaimsAndALocalFileAreRefused() {
        DatabaseLocation.Postgres used = TestDatabase.newServerDatabase();
        try (Database db = Database.open(used)) {
            org.claimdesk.testing.TestClaims.insert(db, org.claimdesk.domain.ClaimStatus.IDENTITY_PENDING);
        }

        BenchCommandTest.Run onUsed = BenchCommandTest.run(new BenchCommand(), "--db", TestDatabase.url(used), "bench",
                "live");
        BenchCommandTest.Run onFile = BenchCommandTest.run(new BenchCommand(), "--db", "desk.db", "bench", "live");

        assertThat(onUsed.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(onUsed.err()).contains("needs an empty team database");
        assertThat(onFile.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(onFile.err()).contains("give --db postgresql://");

        // an office's audit trail alone: a console was started on it
        DatabaseLocation.Postgres audited = TestDatabase.newServerDatabase();
        try (Database db = Database.open(audited)) {
            org.claimdesk.app.Operators.recordChoice(db, java.time.Clock.systemUTC(), "m.alvarez", null);
        }
        BenchCommandTest.Run onAudited = BenchCommandTest.run(new BenchCommand(), "--db", TestDatabase.url(audited),
                "bench", "live");
        assertThat(onAudited.exit()).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(onAudited.err()).contains("already holds claims, outbox rows or audit entries");
        try (Database db = Database.open(audited)) {
            assertThat(new org.claimdesk.app.Queries(db, java.time.Clock.systemUTC()).hasClaims()).isFalse();
        }
    }
}
