package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.claimdesk.cli.ClaimDeskCommand;
import org.claimdesk.delivery.Drain;
import org.claimdesk.delivery.HttpStateAdapter;
import org.claimdesk.domain.AttemptOutcome;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.KeyPolicy;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.testing.FaultyStateServer;
import org.claimdesk.testing.FaultyStateServer.Fault;
import org.claimdesk.testing.Sql;
import org.claimdesk.testing.TestClaims;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Resubmitting a corrected claim whose failed row never had the state's answer, over real HTTP (a state server on
 * 127.0.0.1 with faults): one row the state accepted though its answer was lost (503 after recording it), one it
 * never recorded (503). The state is asked about the old key first: a row it holds is not resubmitted (the state
 * would refuse the corrections as a duplicate, and they would read as delivered), one it does not hold is.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class LostAnswerResubmissionTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    Database db;
    FaultyStateServer server;
    HttpStateAdapter adapter;
    Queries queries;
    final Clock clock = Clock.systemUTC();
    long heldClaim;
    long heldRow;
    long lostClaim;
    long lostRow;

    @BeforeEach
    void twoRowsFailedWithoutAnAnswer() throws Exception {
        db = TestDatabase.open(engine, dir);
        queries = new Queries(db, clock);
        Workflow workflow = new Workflow(db, clock, Deadlines.statutory());
        heldClaim = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        lostClaim = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        heldRow = workflow.submit(heldClaim, "s.patel", null).outboxEventId();
        lostRow = workflow.submit(lostClaim, "s.patel", null).outboxEventId();
        String heldKey = key(heldRow);
        String lostKey = key(lostRow);
        server = FaultyStateServer.start((key, n) -> key.equals(heldKey) ? Fault.ACCEPTED_THEN_503
                : key.equals(lostKey) ? Fault.UNAVAILABLE_503 : Fault.NONE, Duration.ofSeconds(2));
        adapter = Workers.http(server.baseUrl(), 2_000);
        assertThat(drain().failed()).isEqualTo(2);
        for (long row : List.of(heldRow, lostRow)) {
            assertThat(queries.outboxEvent(row).orElseThrow().deliveryState()).isEqualTo(DeliveryState.FAILED);
            assertThat(queries.attempts(row)).extracting(DeliveryAttempt::outcome).last().isEqualTo(AttemptOutcome.TRANSIENT);
        }
        assertThat(server.state().caseIds()).containsOnlyKeys(heldClaim);
        ClaimEditing editing = new ClaimEditing(db, clock);
        for (long claim : List.of(heldClaim, lostClaim)) {
            editing.edit(claim, queries.claim(claim).orElseThrow().version(), Map.of("claimantName", "Maria L. Garcia"),
                    "r.okafor", "name as on the ID");
        }
    }

    @AfterEach
    void close() {
        adapter.close();
        server.close();
        db.close();
    }

    private Drain.Summary drain() {
        return Drain.run(db, adapter, Workers.fast(), Deadlines.statutory(), clock, true, Duration.ofSeconds(30), null);
    }

    private String key(long row) {
        return queries.outboxEvent(row).orElseThrow().idempotencyKey();
    }

    @Test
    void aRowTheStateHoldsIsNotResubmittedAndAReconcileSaysWhichCorrectionsItLacks() {
        Resubmission resubmission = new Resubmission(db, clock, adapter);
        Resubmission.Check check = resubmission.check(heldRow);
        assertThat(check.decision()).isEqualTo(KeyPolicy.Decision.RESUBMIT);
        assertThat(check.stateMayHoldIt()).isTrue();
        String caseId = server.state().caseIds().get(heldClaim);
        int posts = server.totalPosts();

        assertThatThrownBy(() -> resubmission.resubmit(heldRow, "r.okafor", "name corrected"))
                .isInstanceOf(ClaimDeskException.class)
                .hasMessage("the state already holds outbox row " + heldRow + "'s first submission as case " + caseId
                        + " (its answer was lost): it has claim " + check.claimNumber() + " as first sent, without the"
                        + " corrections, and would refuse them as a duplicate. Re-queue the row with reconcile to record"
                        + " the case, and take the corrections to the state; nothing was resubmitted");
        assertThat(server.lookups()).isEqualTo(1);
        assertThat(server.totalPosts()).isEqualTo(posts);
        assertThat(queries.outboxEvent(heldRow).orElseThrow().deliveryState()).isEqualTo(DeliveryState.FAILED);
        assertThat(Sql.count(db, "outbox_event")).isEqualTo(2);
        assertThat(queries.audit(null, null, AuditActions.OUTBOX_RESUBMIT, 0, 10)).isEmpty();

        OutboxTriage triage = new OutboxTriage(db, clock, Deadlines.statutory(), adapter);
        OutboxTriage.Preview preview = triage.preview(OutboxTriage.Action.REQUEUE, OutboxQuery.byIds(List.of(heldRow)));
        OutboxTriage.Result result = triage.apply(preview, "r.okafor", "the state has it", true, null);
        assertThat(result.reconciledIds()).containsExactly(heldRow);
        Claim claim = queries.claim(heldClaim).orElseThrow();
        assertThat(claim.status()).isEqualTo(ClaimStatus.SUBMITTED_TO_STATE);
        assertThat(claim.stateCaseId()).isEqualTo(caseId);
        assertThat(queries.history(heldClaim)).last().satisfies(c -> assertThat(c.reason()).isEqualTo(
                "reconciled: the state already holds this submission as case " + caseId
                        + ", as queued: it does not have the corrections made since (claimantName)"));
        List<AuditEntry> audit = queries.audit(Long.toString(heldRow), null, AuditActions.OUTBOX_RECONCILE, 0, 10);
        assertThat(audit).singleElement().satisfies(a -> assertThat(Json.readObject(a.details()))
                .containsKey("correctionsNotWithTheState"));
        assertThat(server.state().acceptances()).containsExactly(Map.entry(heldClaim, 1));
    }

    @Test
    void aRowTheStateNeverRecordedIsResubmittedAfterAskingAndDelivered() {
        Resubmission resubmission = new Resubmission(db, clock, adapter);
        Resubmission.Result r = resubmission.resubmit(lostRow, "r.okafor", "name corrected");

        assertThat(server.lookups()).isEqualTo(1);
        assertThat(queries.outboxEvent(lostRow).orElseThrow().deliveryState()).isEqualTo(DeliveryState.SUPERSEDED);
        assertThat(drain().sent()).isEqualTo(1);
        OutboxEvent sent = queries.outboxEvent(r.newOutboxEventId()).orElseThrow();
        assertThat(sent.deliveryState()).isEqualTo(DeliveryState.SENT);
        assertThat(Json.readObject(sent.payload())).containsEntry("claimantName", "Maria L. Garcia");
        assertThat(queries.claim(lostClaim).orElseThrow().stateCaseId())
                .isEqualTo(server.state().caseIds().get(lostClaim));
    }

    @Test
    void aStateThatDoesNotAnswerLeavesEveryRowAloneAndIsAskedOnce() {
        server.lookupFault(Fault.UNAVAILABLE_503);
        Resubmission resubmission = new Resubmission(db, clock, adapter);
        Resubmission.BulkPreview preview = resubmission.preview(OutboxQuery.byIds(List.of(heldRow, lostRow)));
        assertThat(preview.eligible()).isEqualTo(2);
        assertThat(preview.describe()).isEqualTo("2 corrected row(s) will be resubmitted under new keys (2 after asking"
                + " the state whether it holds the first submission, whose answer never came)");

        Resubmission.BulkResult result = resubmission.resubmitAll(preview, "r.okafor", "names corrected", null, null);

        assertThat(result.resubmitted()).isEmpty();
        assertThat(server.lookups()).as("not asked again once it did not answer").isEqualTo(1);
        long first = preview.targets().get(0).outboxEventId();
        long second = preview.targets().get(1).outboxEventId();
        assertThat(result.skipped().get(first)).startsWith("could not ask the state whether it holds outbox row "
                + first + "'s first submission (503").endsWith("nothing was resubmitted: try again when the state answers");
        assertThat(result.skipped().get(second)).startsWith("the state may hold outbox row " + second
                + "'s first submission; not asked, as it did not answer about row " + first + " (503");
        assertThat(queries.countOutboxByState()).containsEntry(DeliveryState.FAILED, 2);
        assertThat(Sql.count(db, "outbox_event")).isEqualTo(2);
    }

    @Test
    void theCommandLineAsksTheStateApiItNamesAndRefusesWhenNoneIsNamed() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = ClaimDeskCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true), "--db",
                TestDatabase.argument(db.location()), "outbox", "resubmit", Long.toString(heldRow), "--actor", "r.okafor",
                "--reason", "name corrected", "--state-api", server.baseUrl().toString());
        assertThat(exit).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(err.toString()).startsWith("claimdesk: the state already holds outbox row " + heldRow
                + "'s first submission as case " + server.state().caseIds().get(heldClaim));
        assertThat(server.lookups()).isEqualTo(1);

        // the simulated state a command would start knows no earlier submission: it is not asked
        StringWriter unnamed = new StringWriter();
        exit = ClaimDeskCommand.execute(new PrintWriter(new StringWriter(), true), new PrintWriter(unnamed, true),
                "--db", TestDatabase.argument(db.location()), "outbox", "resubmit", Long.toString(lostRow),
                "--actor", "r.okafor", "--reason", "name corrected");
        assertThat(exit).isEqualTo(ClaimDeskCommand.EXIT_REFUSED);
        assertThat(unnamed.toString()).isEqualTo("claimdesk: the last attempt of outbox row " + lostRow
                + " ended without the state's answer, so the state may hold its first submission, and ClaimDesk"
                + " cannot ask it: no state API is named (--state-api URL or CLAIMDESK_STATE_URL); nothing was"
                + " resubmitted\n");
        assertThat(server.lookups()).isEqualTo(1);
        assertThat(queries.countOutboxByState()).containsEntry(DeliveryState.FAILED, 2);
    }

    @Test
    void withoutAStateToAskSuchARowIsRefusedSayingSo() {
        assertThatThrownBy(() -> new Resubmission(db, clock).resubmit(lostRow, "r.okafor", "name corrected"))
                .isInstanceOf(ClaimDeskException.class)
                .hasMessage("the last attempt of outbox row " + lostRow + " ended without the state's answer, so the"
                        + " state may hold its first submission, and ClaimDesk cannot ask it: no state is configured;"
                        + " nothing was resubmitted");
        assertThat(queries.outboxEvent(lostRow).orElseThrow().deliveryState()).isEqualTo(DeliveryState.FAILED);
        assertThat(server.lookups()).isZero();
    }
}
