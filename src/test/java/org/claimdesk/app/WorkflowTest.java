package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.Claim;
import org.claimdesk.domain.ClaimDeskException;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.domain.ConflictException;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.domain.StatusChange;
import org.claimdesk.domain.SubmissionPayload;
import org.claimdesk.domain.TransitionRefusedException;
import org.claimdesk.store.Database;
import org.claimdesk.store.EvidenceFiles;
import org.claimdesk.store.Json;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.testing.TestClaims;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Triggers;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class WorkflowTest {
    @Parameter
    TestDatabase.Engine engine;

    private static final Instant NOW = Instant.parse("2026-11-02T15:00:00Z");

    @TempDir
    Path dir;

    Database db;
    Workflow workflow;
    Queries queries;

    @BeforeEach
    void open() {
        db = TestDatabase.open(engine, dir);
        Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
        workflow = new Workflow(db, clock, Deadlines.statutory());
        queries = new Queries(db, clock);
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void advanceWritesClaimHistoryAndAuditTogether() {
        long id = TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);

        AdvanceResult result = workflow.advance(id, ClaimStatus.EVIDENCE_PENDING, "j.chen", null, "ID verified", 0L);

        assertThat(result.from()).isEqualTo(ClaimStatus.IDENTITY_PENDING);
        assertThat(result.version()).isEqualTo(1);
        Claim stored = queries.claim(id).orElseThrow();
        assertThat(stored.status()).isEqualTo(ClaimStatus.EVIDENCE_PENDING);
        assertThat(stored.version()).isEqualTo(1);
        assertThat(queries.history(id)).singleElement().satisfies(h -> {
            assertThat(h.fromStatus()).isEqualTo(ClaimStatus.IDENTITY_PENDING);
            assertThat(h.toStatus()).isEqualTo(ClaimStatus.EVIDENCE_PENDING);
            assertThat(h.actor()).isEqualTo("j.chen");
            assertThat(h.reason()).isEqualTo("ID verified");
        });
        List<AuditEntry> audit = queries.audit(Long.toString(id), null, null, 0, 0);
        assertThat(audit).singleElement().satisfies(a -> {
            assertThat(a.action()).isEqualTo(AuditActions.CLAIM_ADVANCE);
            assertThat(a.actor()).isEqualTo("j.chen");
            assertThat(a.reason()).isEqualTo("ID verified");
            assertThat(a.at()).isEqualTo(NOW);
            assertThat(a.details()).contains("IDENTITY_PENDING").contains("EVIDENCE_PENDING");
        });
    }

    @Test
    void theQueriesTellWhetherTheDatabaseHasClaims() {
        assertThat(queries.hasClaims()).isFalse();

        TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);

        assertThat(queries.hasClaims()).isTrue();
    }

    @Test
    void refusedTransitionChangesNothing() {
        long id = TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);

        assertThatThrownBy(() -> workflow.advance(id, ClaimStatus.PAID, "j.chen", null, null, null))
                .isInstanceOf(TransitionRefusedException.class)
                .hasMessageContaining("IDENTITY_PENDING").hasMessageContaining("PAID");

        assertThat(queries.claim(id).orElseThrow().version()).isZero();
        assertThat(queries.history(id)).isEmpty();
        assertThat(queries.audit(null, null, null, 0, 0)).isEmpty();
    }

    @Test
    void replayingARequestKeyReturnsTheFirstResultAndChangesNothing() {
        long id = TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
        AdvanceResult first = workflow.advance(id, ClaimStatus.EVIDENCE_PENDING, "j.chen", "req-1", null, null);

        AdvanceResult replay = workflow.advance(id, ClaimStatus.EVIDENCE_PENDING, "j.chen", "req-1", null, null);

        assertThat(first.replayed()).isFalse();
        assertThat(replay.replayed()).isTrue();
        assertThat(replay.from()).isEqualTo(first.from());
        assertThat(replay.to()).isEqualTo(first.to());
        assertThat(replay.version()).isEqualTo(first.version());
        assertThat(queries.claim(id).orElseThrow().version()).isEqualTo(1);
        assertThat(queries.history(id)).hasSize(1);
        assertThat(queries.audit(null, null, null, 0, 0)).hasSize(1);
    }

    @Test
    void theSameKeyWithAnotherTargetIsAnError() {
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        workflow.advance(id, ClaimStatus.READY_FOR_SUBMISSION, "j.chen", "req-2", null, null);

        assertThatThrownBy(() -> workflow.advance(id, ClaimStatus.EVIDENCE_PENDING, "j.chen", "req-2", null, null))
                .isInstanceOf(ConflictException.class)
                .hasMessageContaining("req-2").hasMessageContaining("READY_FOR_SUBMISSION");
        assertThat(queries.claim(id).orElseThrow().status()).isEqualTo(ClaimStatus.READY_FOR_SUBMISSION);
    }

    @Test
    void aWithdrawalARejectionARequestForInformationAndAMoveBackNeedAReason() {
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        for (ClaimStatus target : List.of(ClaimStatus.WITHDRAWN, ClaimStatus.IDENTITY_PENDING)) {
            assertThatThrownBy(() -> workflow.advance(id, target, "j.chen", null, " ", null))
                    .isInstanceOf(ClaimDeskException.class).hasMessageContaining("needs a reason");
        }
        assertThat(queries.claim(id).orElseThrow().status()).isEqualTo(ClaimStatus.EVIDENCE_PENDING);
        assertThat(queries.history(id)).isEmpty();
        assertThat(workflow.advance(id, ClaimStatus.WITHDRAWN, "j.chen", null, "claimant withdrew by phone", null)
                .to()).isEqualTo(ClaimStatus.WITHDRAWN);
        long identity = TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
        assertThat(workflow.advance(identity, ClaimStatus.EVIDENCE_PENDING, "j.chen", null, null, null).to())
                .as("a step forward needs none").isEqualTo(ClaimStatus.EVIDENCE_PENDING);
    }

    /** What the state decided is kept: approved in full or in part, and how it was paid (warrant, amount, offset). */
    @Test
    void anApprovalAndAPaymentNeedAReasonSayingWhatTheStateDecided() {
        long id = TestClaims.insert(db, ClaimStatus.SUBMITTED_TO_STATE);
        assertThatThrownBy(() -> workflow.advance(id, ClaimStatus.APPROVED, "j.chen", null, null, null))
                .isInstanceOf(ClaimDeskException.class).hasMessageContaining("needs a reason");
        workflow.advance(id, ClaimStatus.APPROVED, "j.chen", null, "approved in part: $80.00 of $123.45", null);
        assertThatThrownBy(() -> workflow.advance(id, ClaimStatus.PAID, "j.chen", null, "", null))
                .isInstanceOf(ClaimDeskException.class).hasMessageContaining("needs a reason");
        assertThat(queries.claim(id).orElseThrow().status()).isEqualTo(ClaimStatus.APPROVED);
        workflow.advance(id, ClaimStatus.PAID, "j.chen", null, "warrant 40012877, $80.00, no offset", null);
        assertThat(queries.history(id)).extracting(StatusChange::reason)
                .containsExactly("approved in part: $80.00 of $123.45", "warrant 40012877, $80.00, no offset");
    }

    @Test
    void aStaleVersionIsAConflict() {
        long id = TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
        workflow.advance(id, ClaimStatus.EVIDENCE_PENDING, "j.chen", null, null, 0L);

        assertThatThrownBy(() -> workflow.advance(id, ClaimStatus.IDENTITY_PENDING, "r.okafor", null, null, 0L))
                .isInstanceOf(ConflictException.class)
                .hasMessageContaining("version 0").hasMessageContaining("version 1");
    }

    @Test
    void aSubmitCheckedAgainstTheEvidenceSeenIsRefusedWhenEvidenceWasAddedSince() {
        long id = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        ClaimEvidence evidence = new ClaimEvidence(db, Clock.fixed(NOW, ZoneOffset.UTC), EvidenceFiles.own(dir.resolve("evidence")));
        long seen = evidence.addUrl(id, "ownership", "https://records.example.gov/deed-1", "Deed 1", "j.chen")
                .evidenceId();
        evidence.addUrl(id, "address", "https://records.example.gov/lease-7", "Lease 7", "r.okafor");

        assertThatThrownBy(() -> workflow.submit(id, "s.patel", null, 0L, java.util.Set.of(seen)))
                .isInstanceOf(ConflictException.class)
                .hasMessageContaining("'s evidence changed after you opened it: ")
                .hasMessageContaining("\"Lease 7\" added by r.okafor at ")
                .hasMessageContaining("nothing was queued")
                // a title is often a file's name with the claimant's in it: the log keeps the counts
                .satisfies(e -> assertThat(((ConflictException) e).forLog()).doesNotContain("Lease 7")
                        .contains("1 reference(s) added, 0 withdrawn"));
        assertThat(queries.claim(id).orElseThrow().status()).isEqualTo(ClaimStatus.READY_FOR_SUBMISSION);
        assertThat(queries.outboxForClaim(id)).isEmpty();

        java.util.Set<Long> all = evidence.list(id).stream().map(org.claimdesk.domain.Evidence::evidenceId)
                .collect(java.util.stream.Collectors.toSet());
        assertThat(workflow.submit(id, "s.patel", null, 0L, all).outboxEventId()).isPositive();
        assertThat(queries.claim(id).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTING);
    }

    @Test
    void twoThreadsAdvancingOneClaimAtOnceOneWinsTheOtherGetsAConflict() throws Exception {
        for (int round = 0; round < 10; round++) {
            long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                List<Future<AdvanceResult>> futures = new ArrayList<>();
                for (ClaimStatus target : List.of(ClaimStatus.READY_FOR_SUBMISSION, ClaimStatus.IDENTITY_PENDING)) {
                    Callable<AdvanceResult> call = () -> {
                        start.await();
                        return workflow.advance(id, target, "staff-" + target, null, "checked", 0L);
                    };
                    futures.add(pool.submit(call));
                }
                start.countDown();
                int won = 0;
                List<Throwable> conflicts = new ArrayList<>();
                for (Future<AdvanceResult> f : futures) {
                    try {
                        f.get(30, TimeUnit.SECONDS);
                        won++;
                    } catch (java.util.concurrent.ExecutionException e) {
                        conflicts.add(e.getCause());
                    }
                }
                assertThat(won).isEqualTo(1);
                assertThat(conflicts).hasSize(1);
                assertThat(queries.claim(id).orElseThrow().version()).isEqualTo(1);
                assertThat(queries.history(id)).hasSize(1);
                String winner = queries.history(id).get(0).actor();
                assertThat(conflicts.get(0)).as("the one who lost is told who won, and when")
                        .isInstanceOf(ConflictException.class)
                        .hasMessageContaining("changed by " + winner + " at ")
                        .hasMessageContaining("nothing was saved");
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void submitMovesTheClaimAndWritesTheOutboxRowWithoutTheFullTaxId() throws Exception {
        long id = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);

        SubmitResult result = workflow.submit(id, "supervisor.kim", "sub-key-1");

        assertThat(queries.claim(id).orElseThrow().status()).isEqualTo(ClaimStatus.SUBMITTING);
        OutboxEvent row = queries.outboxEvent(result.outboxEventId()).orElseThrow();
        assertThat(row.deliveryState()).isEqualTo(DeliveryState.PENDING);
        assertThat(row.eventType()).isEqualTo(OutboxEvent.SUBMISSION_REQUESTED);
        assertThat(row.idempotencyKey()).isEqualTo("sub-key-1");
        assertThat(row.attempts()).isZero();
        assertThat(row.nextAttemptAt()).isEqualTo(NOW);
        SubmissionPayload payload = Json.mapper().readValue(row.payload(), SubmissionPayload.class);
        assertThat(payload.claimId()).isEqualTo(id);
        assertThat(payload.idempotencyKey()).isEqualTo("sub-key-1");
        Claim claim = queries.claim(id).orElseThrow();
        assertThat(payload.claimNumber()).isEqualTo(claim.claimNumber());
        assertThat(row.payload()).doesNotContain(claim.taxId());
        assertThat(queries.audit(Long.toString(id), null, AuditActions.CLAIM_SUBMIT, 0, 0)).hasSize(1);
    }

    @Test
    void submitReplayReturnsTheFirstRowAndAKeyOfAnotherClaimIsRefused() {
        long id = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        long other = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        SubmitResult first = workflow.submit(id, "supervisor.kim", "sub-key-2");

        SubmitResult replay = workflow.submit(id, "supervisor.kim", "sub-key-2");

        assertThat(replay.replayed()).isTrue();
        assertThat(replay.outboxEventId()).isEqualTo(first.outboxEventId());
        assertThat(queries.countOutbox(OutboxQuery.all())).isEqualTo(1);
        assertThatThrownBy(() -> workflow.submit(other, "supervisor.kim", "sub-key-2"))
                .isInstanceOf(ConflictException.class).hasMessageContaining("another claim");
        assertThat(queries.claim(other).orElseThrow().status()).isEqualTo(ClaimStatus.READY_FOR_SUBMISSION);

        // the replay says where things are now: a row superseded by a corrected one is still the claim's submission
        long newer = workflow.submit(TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION), "supervisor.kim", null)
                .outboxEventId();
        db.useTransaction(h -> h.execute("UPDATE outbox_event SET delivery_state = 'superseded', superseded_by = ?"
                + " WHERE outbox_event_id = ?", newer, first.outboxEventId()));
        SubmitResult later = workflow.submit(id, "supervisor.kim", "sub-key-2");
        assertThat(later.replayed()).isTrue();
        assertThat(later.rowState()).isEqualTo(org.claimdesk.domain.DeliveryState.SUPERSEDED);
        assertThat(later.claimStatus()).isEqualTo(ClaimStatus.SUBMITTING);
    }

    /**
     * A key whose submission went to the state, the claim since rejected, amended and ready again: replayed, the
     * submit would say all is well while nothing is queued; it is refused, as an abandoned row's key is.
     */
    @Test
    void aKeyWhoseSubmissionEndedIsRefusedOnceTheClaimIsBeforeSubmissionAgain() {
        long id = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        SubmitResult first = workflow.submit(id, "supervisor.kim", "sub-UPC-17");
        db.useTransaction(h -> {
            h.execute("UPDATE outbox_event SET delivery_state = 'sent', state_case_id = 'CA-9' WHERE outbox_event_id = ?",
                    first.outboxEventId());
            h.execute("UPDATE claim SET status = 'READY_FOR_SUBMISSION', state_case_id = 'CA-9', version = version + 1"
                    + " WHERE claim_id = ?", id);
        });

        assertThatThrownBy(() -> workflow.submit(id, "supervisor.kim", "sub-UPC-17"))
                .isInstanceOf(ConflictException.class)
                .hasMessageEndingWith("(outbox row " + first.outboxEventId() + ", sent); the claim is READY_FOR_SUBMISSION"
                        + " again: submitting it again needs a new key");
        assertThat(queries.countOutbox(OutboxQuery.all())).isEqualTo(1);
        assertThat(workflow.submit(id, "supervisor.kim", "sub-UPC-17-amended").replayed()).isFalse();
    }

    /** A key an HTTP header cannot carry is refused before anything is queued: the worker could never send it. */
    @Test
    void aSubmitKeyAHeaderCannotCarryIsRefusedAndNothingIsQueued() {
        long id = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        assertThatThrownBy(() -> workflow.submit(id, "supervisor.kim", "sub\u20132026-17"))
                .isInstanceOf(ClaimDeskException.class)
                .hasMessage("the idempotency key may hold only printable ASCII characters (letters, digits,"
                        + " punctuation and inner spaces): an HTTP header cannot carry it; nothing was queued");
        assertThat(queries.countOutbox(OutboxQuery.all())).isZero();
        assertThat(queries.claim(id).orElseThrow().status()).isEqualTo(ClaimStatus.READY_FOR_SUBMISSION);
    }

    /**
     * The same submit sent twice at once (a retried request, or two workstations with one key): one submission, the
     * other call its replay; one key for two claims at once: one submission, the other a conflict saying so.
     */
    @Test
    void concurrentSubmitsWithOneKeyMakeOneSubmission() throws Exception {
        java.util.concurrent.ExecutorService two = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 10; round++) {
                long id = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
                long other = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
                String key = "same-" + round;
                java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
                java.util.concurrent.Future<SubmitResult> a = two.submit(() -> {
                    start.await();
                    return workflow.submit(id, "s.patel", key);
                });
                java.util.concurrent.Future<SubmitResult> b = two.submit(() -> {
                    start.await();
                    return workflow.submit(id, "m.alvarez", key);
                });
                assertThat(List.of(a.get().replayed(), b.get().replayed())).containsExactlyInAnyOrder(false, true);
                assertThat(a.get().outboxEventId()).isEqualTo(b.get().outboxEventId());

                String shared = "shared-" + round;
                long third = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
                java.util.concurrent.Future<SubmitResult> c = two.submit(() -> {
                    start.await();
                    return workflow.submit(third, "s.patel", shared);
                });
                java.util.concurrent.Future<SubmitResult> d = two.submit(() -> {
                    start.await();
                    return workflow.submit(other, "m.alvarez", shared);
                });
                List<Throwable> refused = new java.util.ArrayList<>();
                for (java.util.concurrent.Future<SubmitResult> f : List.of(c, d)) {
                    try {
                        f.get();
                    } catch (java.util.concurrent.ExecutionException e) {
                        refused.add(e.getCause());
                    }
                }
                assertThat(refused).singleElement().isInstanceOf(ConflictException.class)
                        .extracting(Throwable::getMessage).asString().contains("another claim");
            }
        } finally {
            two.shutdownNow();
        }
        assertThat(queries.countOutbox(OutboxQuery.all())).isEqualTo(20);
    }

    @Test
    void submitIsAtomicWhenTheOutboxWriteFails() {
        long id = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        Triggers.failing(db, "outbox_write_fails", "outbox_event", "INSERT", "disk said no");

        assertThatThrownBy(() -> workflow.submit(id, "supervisor.kim", null)).hasMessageContaining("disk said no");

        Claim claim = queries.claim(id).orElseThrow();
        assertThat(claim.status()).isEqualTo(ClaimStatus.READY_FOR_SUBMISSION);
        assertThat(claim.version()).isZero();
        assertThat(queries.history(id)).isEmpty();
        assertThat(queries.countOutbox(OutboxQuery.all())).isZero();
        assertThat(queries.audit(null, null, null, 0, 0)).isEmpty();
    }

    @Test
    void submitOnlyFromReadyForSubmission() {
        long id = TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
        assertThatThrownBy(() -> workflow.submit(id, "supervisor.kim", null))
                .isInstanceOf(TransitionRefusedException.class);
        assertThat(queries.countOutbox(OutboxQuery.all())).isZero();
    }

    @Test
    void submittingIsReachedOnlyThroughSubmitAndLeftOnlyThroughDeliveryOrAbandon() {
        long ready = TestClaims.insert(db, ClaimStatus.READY_FOR_SUBMISSION);
        assertThatThrownBy(() -> workflow.advance(ready, ClaimStatus.SUBMITTING, "j.chen", null, null, null))
                .isInstanceOf(ClaimDeskException.class).hasMessageContaining("use submit");
        long submitting = TestClaims.insert(db, ClaimStatus.SUBMITTING);
        assertThatThrownBy(() -> workflow.advance(submitting, ClaimStatus.SUBMITTED_TO_STATE, "j.chen", null, null, null))
                .isInstanceOf(ClaimDeskException.class).hasMessageContaining("in flight");
        assertThatThrownBy(() -> workflow.advance(submitting, ClaimStatus.WITHDRAWN, "j.chen", null, null, null))
                .isInstanceOf(TransitionRefusedException.class);
    }

    @Test
    void reachingSubmittedToStateSetsTheStatutoryDecisionDate() {
        long ca = TestClaims.insert(db, ClaimStatus.NEEDS_INFO, "CA");
        long ut = TestClaims.insert(db, ClaimStatus.NEEDS_INFO, "UT");

        workflow.advance(ca, ClaimStatus.SUBMITTED_TO_STATE, "j.chen", null, "documents sent", null);
        workflow.advance(ut, ClaimStatus.SUBMITTED_TO_STATE, "j.chen", null, "documents sent", null);

        LocalDate today = LocalDate.ofInstant(NOW, java.time.ZoneId.systemDefault());
        assertThat(queries.claim(ca).orElseThrow().decisionDueOn()).isEqualTo(today.plusDays(180));
        assertThat(queries.claim(ut).orElseThrow().decisionDueOn()).isEqualTo(today.plusDays(90));
        assertThat(queries.claim(ca).orElseThrow().isOverdue(today.plusDays(181))).isTrue();
    }

    @Test
    void revealingATaxIdIsAuditedAndNeedsAReason() {
        long id = TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
        assertThatThrownBy(() -> workflow.revealTaxId(id, "j.chen", " ")).hasMessageContaining("reason is required");

        String taxId = workflow.revealTaxId(id, "j.chen", "claimant on the phone");

        assertThat(taxId).matches("123-00-\\d{4}");
        assertThat(queries.audit(Long.toString(id), "j.chen", AuditActions.TAX_ID_REVEAL, 0, 0))
                .singleElement().satisfies(a -> {
                    assertThat(a.reason()).isEqualTo("claimant on the phone");
                    assertThat(a.details()).doesNotContain(taxId);
                });
    }

    @Test
    void badInputIsRefusedWithAClearMessage() {
        long id = TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
        assertThatThrownBy(() -> workflow.advance(id, ClaimStatus.EVIDENCE_PENDING, "", null, null, null))
                .hasMessage("an actor name is required");
        assertThatThrownBy(() -> workflow.advance(id, ClaimStatus.EVIDENCE_PENDING, "j", null, "r".repeat(5000), null))
                .hasMessageContaining("longer than 2000");
        assertThatThrownBy(() -> workflow.advance(99_999, ClaimStatus.EVIDENCE_PENDING, "j", null, null, null))
                .hasMessage("no claim with id 99999");
    }
}
