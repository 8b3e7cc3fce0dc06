package org.claimdesk.ui.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.claimdesk.app.OutboxTriage;
import org.claimdesk.app.Queries;
import org.claimdesk.app.Resubmission;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.KeyPolicy;
import org.claimdesk.store.Database;
import org.claimdesk.ui.common.Keys;
import org.claimdesk.ui.testing.DirectTaskRunner;
import org.claimdesk.ui.testing.TestDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Outbox page's Resubmit: check, diff, resubmit off the FX thread, then the next failed row. */
class ResubmitViewModelTest {
    @TempDir
    Path dir;

    Database db;
    Queries queries;
    OutboxViewModel model;

    @BeforeEach
    void setUp() {
        db = TestDatabases.demo(dir, 800);
        queries = TestDatabases.queries(db);
        model = new OutboxViewModel(queries, new OutboxTriage(db, Clock.systemUTC(), Deadlines.statutory(), null),
                new Resubmission(db, Clock.systemUTC()), new DirectTaskRunner(), "tester");
        model.load();
    }

    @AfterEach
    void close() {
        db.close();
    }

    private OutboxRow firstFailedOfASubmittingClaim() {
        return model.rows().stream().filter(r -> r.event().deliveryState() == DeliveryState.FAILED)
                .filter(r -> queries.claim(r.event().aggregateId()).orElseThrow().status().name().equals("SUBMITTING"))
                .findFirst().orElseThrow();
    }

    @Test
    void anUnchangedRowIsCheckedAndTheRequeueIsOfferedWithTheWarning() {
        OutboxRow row = firstFailedOfASubmittingClaim();
        model.select(java.util.List.of(row));
        model.prepareResubmit();
        Resubmission.Check check = model.resubmitCheckProperty().get();
        assertThat(check).isNotNull();
        assertThat(check.diff().isEmpty()).isTrue();
        assertThat(check.decision()).isNotEqualTo(KeyPolicy.Decision.RESUBMIT);
        model.requeueInstead(check);
        assertThat(model.planProperty().get().preview().targetIds()).containsExactly(row.id());
    }

    /**
     * Several rows selected (or a group, or the filter): the failed rows whose claims were corrected are resubmitted
     * together with one reason, the others skipped with theirs; one selected row keeps its own check and diff.
     */
    @Test
    void severalRowsAreResubmittedTogetherAndTheUnchangedOnesSkippedWithTheReason() {
        List<OutboxRow> failed = model.rows().stream().filter(r -> r.event().deliveryState() == DeliveryState.FAILED)
                .filter(r -> queries.claim(r.event().aggregateId()).orElseThrow().status().name().equals("SUBMITTING"))
                .limit(3).toList();
        assertThat(failed).hasSize(3);
        for (OutboxRow row : failed.subList(0, 2)) {
            db.useTransaction(h -> h.createUpdate("UPDATE claim SET holder_id = 'HLD-CORRECTED' WHERE claim_id = :id")
                    .bind("id", row.event().aggregateId()).execute());
        }
        model.select(failed);

        model.prepareResubmit(OutboxViewModel.Scope.SELECTION);

        assertThat(model.resubmitCheckProperty().get()).as("not the one-row check").isNull();
        OutboxViewModel.BulkResubmit plan = model.bulkResubmitProperty().get();
        assertThat(plan.preview().targets()).extracting(Resubmission.Check::outboxEventId)
                .containsExactly(failed.get(0).id(), failed.get(1).id());
        assertThat(plan.preview().skipped()).containsOnlyKeys(failed.get(2).id());

        model.resubmitAll(plan, "holder ids corrected from the registry");

        assertThat(model.bulkResubmitProperty().get()).isNull();
        assertThat(model.noticeProperty().get().text()).startsWith("2 of 2 row(s) resubmitted under new keys");
        for (OutboxRow row : failed.subList(0, 2)) {
            assertThat(queries.outboxEvent(row.id()).orElseThrow().deliveryState()).isEqualTo(DeliveryState.SUPERSEDED);
        }
        assertThat(queries.outboxEvent(failed.get(2).id()).orElseThrow().deliveryState())
                .isEqualTo(DeliveryState.FAILED);

        // nothing corrected among them: said, and nothing to confirm
        model.select(List.of(failed.get(2), model.rows().stream().filter(r -> r.event().deliveryState()
                == DeliveryState.FAILED && r.id() != failed.get(2).id()).findFirst().orElseThrow()));
        model.prepareResubmit(OutboxViewModel.Scope.SELECTION);
        assertThat(model.bulkResubmitProperty().get()).isNull();
        assertThat(model.noticeProperty().get().text()).startsWith("Nothing to resubmit in the selected rows");
    }

    /** A fix still typed on the Claims page and not saved would not go with the resubmission: it waits for the save. */
    @Test
    void aRowWhoseClaimHasUnsavedChangesIsNotOfferedForResubmitUntilTheyAreSaved() {
        OutboxRow row = firstFailedOfASubmittingClaim();
        java.util.concurrent.atomic.AtomicBoolean typing = new java.util.concurrent.atomic.AtomicBoolean(true);
        model.setUnsavedEdit(claimId -> typing.get() && claimId == row.event().aggregateId());
        model.select(java.util.List.of(row));

        model.prepareResubmit();

        assertThat(model.resubmitCheckProperty().get()).isNull();
        assertThat(model.noticeProperty().get().text()).startsWith("Claim ")
                .contains(Keys.say("has changes not saved on the Claims page: save them (Ctrl+S) first"));
        typing.set(false);
        model.prepareResubmit();
        assertThat(model.resubmitCheckProperty().get()).isNotNull();
    }

    /** A failed row whose claim's holder id was corrected, selected, and its resubmit checked. */
    private OutboxRow correctedAndChecked() {
        OutboxRow row = firstFailedOfASubmittingClaim();
        db.useTransaction(h -> h.createUpdate("UPDATE claim SET holder_id = 'HLD-CORRECTED' WHERE claim_id = :id")
                .bind("id", row.event().aggregateId()).execute());
        model.select(java.util.List.of(row));
        model.prepareResubmit();
        return row;
    }

    @Test
    void aCorrectedRowIsResubmittedAndCtrlEnterFindsTheNextFailedRow() {
        OutboxRow row = correctedAndChecked();
        Resubmission.Check check = model.resubmitCheckProperty().get();
        assertThat(check.diff().fields()).containsExactly("holderId");

        model.resubmit(check, "holder id corrected");

        Resubmission.Result result = model.lastResubmitProperty().get();
        assertThat(result).isNotNull();
        assertThat(result.oldOutboxEventId()).isEqualTo(row.id());
        assertThat(queries.outboxEvent(row.id()).orElseThrow().deliveryState()).isEqualTo(DeliveryState.SUPERSEDED);
        assertThat(model.noticeProperty().get().text()).contains("superseded by row " + result.newOutboxEventId());
        assertThat(model.rows()).noneMatch(r -> r.id() == row.id());
        assertThat(model.nextFailedRow(row.id())).get()
                .satisfies(next -> assertThat(next.event().deliveryState()).isEqualTo(DeliveryState.FAILED))
                .satisfies(next -> assertThat(next.id()).isNotEqualTo(row.id()));
    }

    @Test
    void theReasonOfAResubmitThatFailedIsOfferedAgain() {
        OutboxRow row = correctedAndChecked();
        Resubmission.Check check = model.resubmitCheckProperty().get();
        // the claim changes again before staff confirm: the check no longer holds
        db.useTransaction(h -> h.createUpdate("UPDATE claim SET holder_id = 'HLD-AGAIN', version = version + 1"
                + " WHERE claim_id = :id").bind("id", row.event().aggregateId()).execute());

        model.resubmit(check, "holder id corrected");

        assertThat(model.lastResubmitProperty().get()).isNull();
        assertThat(model.resubmitReasonToRetry(row.id())).isEqualTo("holder id corrected");
        model.prepareResubmit();
        model.resubmit(model.resubmitCheckProperty().get(), "holder id corrected");
        assertThat(model.lastResubmitProperty().get()).isNotNull();
        assertThat(model.resubmitReasonToRetry(row.id())).isEmpty();
    }

    @Test
    void theCsvExportNamesTheRowThatSupersededAFailedOne() throws Exception {
        OutboxRow row = correctedAndChecked();
        model.resubmit(model.resubmitCheckProperty().get(), "holder id corrected");
        long successor = model.lastResubmitProperty().get().newOutboxEventId();

        model.stateProperty().set(DeliveryState.SUPERSEDED);
        model.applyFilters();
        java.nio.file.Path file = dir.resolve("superseded.csv");
        model.exportCsv(file);
        java.util.List<String> lines = java.nio.file.Files.readAllLines(file);
        assertThat(lines.get(0)).endsWith(",last_changed_at,superseded_by");
        assertThat(lines).hasSize(2);
        assertThat(lines.get(1)).startsWith(row.id() + ",").endsWith("," + successor);
    }
}
