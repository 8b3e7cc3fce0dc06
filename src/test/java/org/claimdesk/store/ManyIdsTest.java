package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;
import org.claimdesk.app.SubmitResult;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Reads by a list of ids take any number of them on both engines: a bulk edit's group may name more claims than a
 * statement takes parameters (65,535 on PostgreSQL, 32,766 on SQLite), so the ids go as one JSON array.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class ManyIdsTest {
    static final int IDS = 70_000;

    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    @Test
    void claimsAndOutboxRowsAreReadByMoreIdsThanAStatementTakesParameters() {
        try (Database db = TestDatabase.open(engine, dir)) {
            List<SubmitResult> queued = Outbox.submitted(db, 3);
            List<Long> ids = LongStream.rangeClosed(1, IDS).boxed().toList();
            assertThat(db.read(h -> new ClaimStore().findAll(h, ids)).keySet())
                    .containsExactlyInAnyOrderElementsOf(queued.stream().map(SubmitResult::claimId).toList());
            List<org.claimdesk.domain.OutboxEvent> rows = db.read(h -> new OutboxStore().findAll(h, ids));
            assertThat(rows).extracting(e -> e.outboxEventId())
                    .containsExactlyElementsOf(queued.stream().map(SubmitResult::outboxEventId).sorted().toList());
            java.util.Set<Long> pending = db.read(h -> new OutboxStore().withPending(h, ids));
            assertThat(pending).containsExactlyInAnyOrderElementsOf(queued.stream().map(SubmitResult::claimId).toList());
            long withTwo = queued.get(1).claimId();
            db.useTransaction(h -> {
                EvidenceStore store = new EvidenceStore();
                java.time.Instant at = java.time.Instant.parse("2026-11-02T15:00:00Z");
                store.insertUrl(h, withTwo, org.claimdesk.domain.EvidenceKind.OWNERSHIP, "Deed",
                        "https://docs.example/deed", "ann", at);
                store.insertUrl(h, withTwo, org.claimdesk.domain.EvidenceKind.ADDRESS, "Utility bill",
                        "https://docs.example/bill", "ann", at);
            });
            java.util.Map<Long, List<org.claimdesk.domain.Evidence>> evidence =
                    db.read(h -> new EvidenceStore().forClaims(h, ids));
            assertThat(evidence.get(withTwo)).extracting(org.claimdesk.domain.Evidence::title)
                    .containsExactly("Deed", "Utility bill");
            assertThat(evidence).hasSize(IDS).containsEntry((long) IDS, List.of());
            for (SubmitResult q : queued) {
                List<org.claimdesk.domain.Evidence> one = db.read(h -> new EvidenceStore().forClaim(h, q.claimId()));
                assertThat(evidence.get(q.claimId())).as("claim " + q.claimId()).isEqualTo(one);
            }
        }
    }
}
