package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.claimdesk.app.OutboxTriage;
import org.claimdesk.app.Queries;
import org.claimdesk.app.SubmitResult;
import org.claimdesk.app.Workflow;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ClaimType;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.PropertyType;
import org.claimdesk.store.ClaimStore;
import org.claimdesk.store.Database;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.store.NewClaim;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Claims whose data breaks the simulated state's rules, drained by a real worker over HTTP into a real
 * database: each attempt keeps the state's field, and a row re-queued unchanged is refused again the
 * same way.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class RefusalFieldTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    private static long insert(Database db, int n, String jurisdiction, String propertyId, String holderId,
            String taxId, long amountCents) {
        NewClaim claim = new NewClaim(String.format("UPC-2026-%06d", n), jurisdiction, propertyId, "Wells Fargo Bank NA",
                holderId, PropertyType.AC01, ClaimType.OWNER, "Claimant " + n, taxId, amountCents,
                ClaimStatus.READY_FOR_SUBMISSION, null, LocalDate.of(2026, 3, 1), null);
        return db.inTransaction(h -> new ClaimStore().insert(h, claim, Instant.parse("2026-03-01T10:00:00Z")));
    }

    @Test
    void eachAttemptKeepsTheFieldTheStateNamedAndAnUnchangedRowIsRefusedAgain() throws Exception {
        String recorded = PropertyLedger.ownerRecordedPropertyId("CA", 31);
        String owner = PropertyLedger.ownerTaxIdLast4("CA", recorded).orElseThrow();
        Map<String, Long> claims = new LinkedHashMap<>();
        try (Database db = TestDatabase.open(engine, dir);
             StateSimServer sim = StateSimServer.start(new SimulatedState(SimulatedState.Config.reliable()),
                     new InetSocketAddress("127.0.0.1", 0))) {
            claims.put("accepted", insert(db, 1, "CA", "40000001", "HLD-100200", "123-00-4567", 12_345));
            claims.put("holderId", insert(db, 2, "CA", "40000002", HolderRegistry.standard().unregisteredHolderId(2),
                    "123-00-4567", 12_345));
            claims.put("statePropertyId", insert(db, 3, "CA", PropertyLedger.paidPropertyId("CA", 3), "HLD-100200",
                    "123-00-4567", 12_345));
            claims.put("taxIdLast4", insert(db, 4, "CA", recorded, "HLD-100200",
                    "123-00-" + PropertyLedger.otherTaxIdLast4(owner), 12_345));
            claims.put("evidence.address", insert(db, 5, "CA", "40000005", "HLD-100200", "123-00-4567", 100_000));
            claims.put("matching owner", insert(db, 6, "CA", recorded, "HLD-100200", "123-00-" + owner, 12_345));
            Workflow workflow = new Workflow(db, Clock.systemUTC(), Deadlines.statutory());
            Map<String, SubmitResult> queued = new LinkedHashMap<>();
            claims.forEach((what, id) -> queued.put(what, workflow.submit(id, "s.patel", null)));

            Drain.Summary first = drain(db, sim);
            assertThat(first.sent()).isEqualTo(2);
            assertThat(first.failed()).isEqualTo(4);

            Queries queries = new Queries(db, Clock.systemUTC());
            for (String ok : List.of("accepted", "matching owner")) {
                assertThat(queries.outboxEvent(queued.get(ok).outboxEventId()).orElseThrow().deliveryState())
                        .isEqualTo(DeliveryState.SENT);
                assertThat(queries.attempts(queued.get(ok).outboxEventId())).singleElement()
                        .satisfies(a -> assertThat(a.field()).isNull());
            }
            Map<String, String> errors = Map.of("holderId", "422 invalid_claim: holder id ",
                    "statePropertyId", "422 already_paid: state property id ",
                    "taxIdLast4", "422 identity_mismatch: the claimant's tax id does not match",
                    "evidence.address", "400 missing_field: proof of address required");
            for (var e : errors.entrySet()) {
                long row = queued.get(e.getKey()).outboxEventId();
                OutboxEvent event = queries.outboxEvent(row).orElseThrow();
                assertThat(event.deliveryState()).isEqualTo(DeliveryState.FAILED);
                assertThat(event.lastError()).startsWith(e.getValue());
                assertThat(queries.attempts(row)).singleElement().satisfies(a -> {
                    assertThat(a.outcome()).isEqualTo(AttemptOutcome.PERMANENT);
                    assertThat(a.field()).isEqualTo(e.getKey());
                });
            }

            OutboxTriage triage = new OutboxTriage(db, Clock.systemUTC(), Deadlines.statutory(), null);
            List<Long> failed = errors.keySet().stream().map(k -> queued.get(k).outboxEventId()).toList();
            triage.apply(triage.preview(OutboxTriage.Action.REQUEUE, OutboxQuery.byIds(failed)), "m.alvarez",
                    "try again unchanged", false, n -> { });
            Drain.Summary second = drain(db, sim);
            assertThat(second.sent()).isZero();
            assertThat(second.failed()).isEqualTo(4);
            for (String field : errors.keySet()) {
                List<DeliveryAttempt> attempts = queries.attempts(queued.get(field).outboxEventId());
                assertThat(attempts).hasSize(2);
                assertThat(attempts.get(1).field()).as("refused again for the same field").isEqualTo(field);
                assertThat(attempts.get(1).httpStatus()).isEqualTo(attempts.get(0).httpStatus());
                assertThat(attempts.get(1).detail().lines().findFirst())
                        .isEqualTo(attempts.get(0).detail().lines().findFirst());
            }
            assertThat(sim.state().acceptances()).hasSize(2).allSatisfy((claim, n) -> assertThat(n).isEqualTo(1));
        }
    }

    private static Drain.Summary drain(Database db, StateSimServer sim) {
        try (HttpStateAdapter adapter = Workers.http(sim.baseUrl(), 2_000)) {
            return Drain.run(db, adapter, Workers.fast(), Deadlines.statutory(), Clock.systemUTC(), true,
                    Duration.ofSeconds(30), null);
        }
    }
}
