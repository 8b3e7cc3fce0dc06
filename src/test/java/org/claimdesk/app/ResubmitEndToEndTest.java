package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.claimdesk.delivery.Drain;
import org.claimdesk.delivery.HttpStateAdapter;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.StateSimServer;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.KeyPolicy;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.StatusChange;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.testing.RuleBreakingClaims;
import org.claimdesk.testing.RuleBreakingClaims.Rule;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The whole fix-and-resubmit loop through the app's use cases, over real HTTP against the simulated state
 * ({@code state-sim}'s server on 127.0.0.1) and a real SQLite file: refused, re-queued unchanged and refused
 * again the same way, corrected, resubmitted under a new key and accepted.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class ResubmitEndToEndTest {
    @Parameter
    TestDatabase.Engine engine;

    private static final String CORRECTED_BY = "r.okafor";

    @TempDir
    Path dir;

    Database db;
    StateSimServer sim;
    Clock clock = Clock.systemUTC();
    Queries queries;

    @BeforeEach
    void open() throws Exception {
        db = TestDatabase.open(engine, dir);
        sim = StateSimServer.start(new SimulatedState(SimulatedState.Config.reliable()),
                new InetSocketAddress("127.0.0.1", 0));
        queries = new Queries(db, clock);
    }

    @AfterEach
    void close() {
        sim.close();
        db.close();
    }

    private Drain.Summary drain() {
        try (HttpStateAdapter adapter = Workers.http(sim.baseUrl(), 2_000)) {
            return Drain.run(db, adapter, Workers.fast(), Deadlines.statutory(), clock, true, Duration.ofSeconds(30), null);
        }
    }

    @Test
    void refusedRequeuedUnchangedRefusedAgainCorrectedResubmittedAndAcceptedUnderANewKey() {
        Map<Rule, Long> claims = new EnumMap<>(Rule.class);
        Map<Rule, Long> rows = new EnumMap<>(Rule.class);
        Workflow workflow = new Workflow(db, clock, Deadlines.statutory());
        int n = 0;
        for (Rule rule : Rule.values()) {
            long claimId = RuleBreakingClaims.insert(db, rule, ++n);
            claims.put(rule, claimId);
            rows.put(rule, workflow.submit(claimId, "supervisor.kim", null).outboxEventId());
        }

        // 1. refused, each for its rule, naming its field
        Drain.Summary first = drain();
        assertThat(first.sent()).isZero();
        assertThat(first.failed()).isEqualTo(4);
        Map<Rule, String> keys = new EnumMap<>(Rule.class);
        for (Rule rule : Rule.values()) {
            OutboxEvent row = queries.outboxEvent(rows.get(rule)).orElseThrow();
            keys.put(rule, row.idempotencyKey());
            assertThat(row.deliveryState()).isEqualTo(DeliveryState.FAILED);
            assertThat(row.lastError()).startsWith(rule.errorStart);
            assertThat(queries.attempts(row.outboxEventId())).singleElement().satisfies(a -> {
                assertThat(a.outcome()).isEqualTo(AttemptOutcome.PERMANENT);
                assertThat(a.httpStatus()).isEqualTo(rule.httpStatus);
                assertThat(a.field()).isEqualTo(rule.field);
            });
            assertThat(new Resubmission(db, clock).check(row.outboxEventId()).decision())
                    .isEqualTo(KeyPolicy.Decision.REQUEUE_NEEDS_CONFIRMATION);
        }

        // 2. re-queued unchanged: the preview asks for the confirmation, the reason gives it; refused again alike
        OutboxTriage triage = new OutboxTriage(db, clock, Deadlines.statutory(), null);
        OutboxTriage.Preview preview = triage.preview(OutboxTriage.Action.REQUEUE,
                OutboxQuery.byIds(List.copyOf(rows.values())));
        assertThat(preview.refusedUnchanged()).containsExactlyInAnyOrderElementsOf(rows.values());
        assertThat(preview.confirmation()).isEqualTo("4 of them: " + KeyPolicy.UNCHANGED_REFUSAL_WARNING);
        assertThat(triage.apply(preview, "m.alvarez", "the state's portal was updated; trying once more", false, null)
                .changed()).isEqualTo(4);
        Drain.Summary second = drain();
        assertThat(second.sent()).isZero();
        assertThat(second.failed()).isEqualTo(4);
        for (Rule rule : Rule.values()) {
            OutboxEvent row = queries.outboxEvent(rows.get(rule)).orElseThrow();
            assertThat(row.deliveryState()).isEqualTo(DeliveryState.FAILED);
            assertThat(row.idempotencyKey()).as("re-queued under its old key").isEqualTo(keys.get(rule));
            List<DeliveryAttempt> attempts = queries.attempts(row.outboxEventId());
            assertThat(attempts).hasSize(2);
            assertThat(attempts.get(1).outcome()).isEqualTo(AttemptOutcome.PERMANENT);
            assertThat(attempts.get(1).httpStatus()).isEqualTo(attempts.get(0).httpStatus());
            assertThat(attempts.get(1).field()).isEqualTo(rule.field);
            assertThat(attempts.get(1).detail()).isEqualTo(attempts.get(0).detail());
            assertThat(sim.state().postsFor(keys.get(rule))).isEqualTo(2);
        }

        // 3. corrected: fields edited (the tax id replaced whole), proof of address added
        ClaimEditing editing = new ClaimEditing(db, clock);
        editing.edit(claims.get(Rule.UNREGISTERED_HOLDER), version(claims.get(Rule.UNREGISTERED_HOLDER)),
                Map.of("holderId", RuleBreakingClaims.REGISTERED_HOLDER), CORRECTED_BY, "holder id from the holder's report");
        editing.edit(claims.get(Rule.ALREADY_PAID), version(claims.get(Rule.ALREADY_PAID)),
                Map.of("statePropertyId", RuleBreakingClaims.openPropertyId(3)), CORRECTED_BY, "property id mistyped");
        editing.replaceTaxId(claims.get(Rule.IDENTITY_MISMATCH), version(claims.get(Rule.IDENTITY_MISMATCH)),
                RuleBreakingClaims.ownerTaxId(4), CORRECTED_BY, "tax id read off the SSN card");
        new ClaimEvidence(db, clock).addUrl(claims.get(Rule.NO_PROOF_OF_ADDRESS), "address",
                "https://records.example.gov/utility/2", "Utility bill", CORRECTED_BY);
        Map<Rule, String> changedField = Map.of(Rule.UNREGISTERED_HOLDER, "holderId",
                Rule.NO_PROOF_OF_ADDRESS, "evidence", Rule.ALREADY_PAID, "statePropertyId",
                Rule.IDENTITY_MISMATCH, "taxIdLast4");

        // 4. resubmitted: a new row under a new key, the old one superseded
        Resubmission resubmission = new Resubmission(db, clock);
        Map<Rule, Resubmission.Result> resubmitted = new EnumMap<>(Rule.class);
        for (Rule rule : Rule.values()) {
            Resubmission.Check check = resubmission.check(rows.get(rule));
            assertThat(check.decision()).isEqualTo(KeyPolicy.Decision.RESUBMIT);
            assertThat(check.diff().fields()).containsExactly(changedField.get(rule));
            resubmitted.put(rule, resubmission.resubmit(rows.get(rule), CORRECTED_BY, "corrected: " + rule.field));
        }

        // 5. accepted
        Drain.Summary third = drain();
        assertThat(third.sent()).isEqualTo(4);
        assertThat(third.failed()).isZero();
        for (Rule rule : Rule.values()) {
            Resubmission.Result r = resubmitted.get(rule);
            OutboxEvent old = queries.outboxEvent(rows.get(rule)).orElseThrow();
            OutboxEvent sent = queries.outboxEvent(r.newOutboxEventId()).orElseThrow();
            Claim claim = queries.claim(claims.get(rule)).orElseThrow();

            assertThat(r.oldKey()).isEqualTo(keys.get(rule));
            assertThat(sent.idempotencyKey()).isEqualTo(r.newKey()).isNotEqualTo(keys.get(rule)).startsWith("sub-");
            assertThat(sent.deliveryState()).isEqualTo(DeliveryState.SENT);
            assertThat(old.deliveryState()).isEqualTo(DeliveryState.SUPERSEDED);
            assertThat(old.supersededBy()).isEqualTo(r.newOutboxEventId());
            assertThat(queries.attempts(old.outboxEventId())).as("the old row keeps its attempts")
                    .extracting(DeliveryAttempt::outcome, DeliveryAttempt::field)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(AttemptOutcome.PERMANENT, rule.field),
                            org.assertj.core.groups.Tuple.tuple(AttemptOutcome.PERMANENT, rule.field));
            assertThat(queries.attempts(sent.outboxEventId())).singleElement().satisfies(a -> {
                assertThat(a.outcome()).isEqualTo(AttemptOutcome.DELIVERED);
                assertThat(a.field()).isNull();
            });
            assertThat(claim.status()).isEqualTo(ClaimStatus.SUBMITTED_TO_STATE);
            assertThat(claim.stateCaseId()).isNotBlank().isEqualTo(sent.stateCaseId())
                    .isEqualTo(sim.state().caseIds().get(claim.claimId()));
            assertThat(sim.state().postsFor(r.newKey())).isEqualTo(1);
            assertChain(claim, rule, old, r);
        }
        assertThat(sim.state().acceptances()).hasSize(4).allSatisfy((claim, times) -> assertThat(times).isEqualTo(1));
    }

    private long version(long claimId) {
        return queries.claim(claimId).orElseThrow().version();
    }

    /** History and audit trail read refused, re-queued, edited, resubmitted, accepted, in that order. */
    private void assertChain(Claim claim, Rule rule, OutboxEvent old, Resubmission.Result r) {
        List<StatusChange> history = queries.history(claim.claimId());
        assertThat(history).extracting(StatusChange::toStatus).endsWith(
                ClaimStatus.SUBMITTING, ClaimStatus.SUBMITTING, ClaimStatus.SUBMITTED_TO_STATE);
        StatusChange note = history.get(history.size() - 2);
        assertThat(note.actor()).isEqualTo(CORRECTED_BY);
        assertThat(note.reason()).startsWith("resubmitted after the state refused \"" + rule.errorStart)
                .contains("outbox row " + old.outboxEventId() + " superseded by row " + r.newOutboxEventId())
                .contains("corrected: " + rule.field);
        assertThat(history.get(history.size() - 1).reason()).contains(claim.stateCaseId());

        String row = Long.toString(old.outboxEventId());
        String claimId = Long.toString(claim.claimId());
        List<String> trail = queries.audit(null, null, null, 0, 1_000).stream()
                .filter(a -> a.subjectId().equals(row) && a.subjectType().equals(AuditActions.SUBJECT_OUTBOX)
                        || a.subjectId().equals(claimId) && a.subjectType().equals(AuditActions.SUBJECT_CLAIM))
                .sorted(Comparator.comparingLong(AuditEntry::auditId))
                .map(AuditEntry::action).toList();
        String edit = switch (rule) {
            case NO_PROOF_OF_ADDRESS -> AuditActions.EVIDENCE_ADD;
            case IDENTITY_MISMATCH -> AuditActions.TAX_ID_REPLACE;
            default -> AuditActions.CLAIM_EDIT;
        };
        assertThat(trail).endsWith(AuditActions.OUTBOX_REQUEUE, edit, AuditActions.OUTBOX_RESUBMIT);
        AuditEntry resubmit = queries.audit(row, null, AuditActions.OUTBOX_RESUBMIT, 0, 10).get(0);
        Map<String, Object> details = Json.readObject(resubmit.details());
        assertThat(details).containsEntry("oldIdempotencyKey", r.oldKey()).containsEntry("newIdempotencyKey", r.newKey())
                .containsEntry("refusedWith", old.lastError());
        assertThat(resubmit.details()).contains("\"field\":\"" + r.diff().fields().get(0) + "\"")
                .doesNotContain(claim.taxId()).doesNotContain(claim.taxId().replace("-", ""));
    }
}
