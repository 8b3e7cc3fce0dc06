package org.claimdesk.ui.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.claimdesk.app.BulkEdit;
import org.claimdesk.app.OutboxTriage;
import org.claimdesk.app.Queries;
import org.claimdesk.app.Resubmission;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.ClaimField;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.FailureGroup;
import org.claimdesk.domain.OutboxEvent;
import org.claimdesk.store.Database;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.testing.DirectTaskRunner;
import org.claimdesk.ui.testing.TestDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** "Fix a field…" on the demo's rows the state refused for an unregistered holder, on a real database. */
class FixFieldViewModelTest {
    static final String REGISTERED = "HLD-100200";

    @TempDir
    Path dir;

    Database db;
    Queries queries;
    DirectTaskRunner tasks;
    OutboxViewModel outbox;
    FixFieldViewModel model;
    AtomicInteger reloads = new AtomicInteger();
    /** Every failed row the state refused because its holder is not in the registry. */
    OutboxQuery unregistered = OutboxQuery.all().withState(DeliveryState.FAILED).withErrorText("holder registry");

    @BeforeEach
    void setUp() {
        db = TestDatabases.demo(dir, 800);
        queries = TestDatabases.queries(db);
        tasks = new DirectTaskRunner();
        Resubmission resubmission = new Resubmission(db, Clock.systemUTC());
        outbox = new OutboxViewModel(queries, new OutboxTriage(db, Clock.systemUTC(), Deadlines.statutory(), null),
                resubmission, tasks, "tester");
        model = new FixFieldViewModel(new BulkEdit(db, Clock.systemUTC()), resubmission, tasks, "r.okafor");
        model.setOnChange(reloads::incrementAndGet);
    }

    @AfterEach
    void close() {
        db.close();
    }

    private List<OutboxEvent> refusedRows() {
        return queries.outbox(unregistered);
    }

    /** A dialog's model on the refused holder group whose background work runs only when the test says. */
    private FixFieldViewModel openedOnTheGroup(org.claimdesk.ui.testing.QueuedTaskRunner queued) {
        FixFieldViewModel m = new FixFieldViewModel(new BulkEdit(db, Clock.systemUTC()),
                new Resubmission(db, Clock.systemUTC()), queued, "r.okafor");
        m.open(unregistered, "the group");
        return m;
    }

    @Test
    void anOlderPreviewAnsweringLateNeitherShowsItselfNorEndsTheNewerOnesWait() {
        org.claimdesk.ui.testing.QueuedTaskRunner queued = new org.claimdesk.ui.testing.QueuedTaskRunner();
        FixFieldViewModel m = openedOnTheGroup(queued);
        m.valueProperty().set("HLD-100201");
        m.preview();
        m.valueProperty().set(REGISTERED);
        m.preview();
        assertThat(queued.size()).isEqualTo(2);
        queued.run(0);
        assertThat(m.previewProperty().get()).as("the older value's preview is dropped").isNull();
        assertThat(m.busyProperty().get()).as("the newer preview still runs").isTrue();
        queued.run(0);
        assertThat(m.busyProperty().get()).isFalse();
        assertThat(m.previewProperty().get().shownValue()).isEqualTo(REGISTERED);
    }

    /** Enter in the value field while the change runs neither previews nor ends the run's busy state; nor runs it twice. */
    @Test
    void whileAChangeRunsNoPreviewOrSecondRunStarts() {
        org.claimdesk.ui.testing.QueuedTaskRunner queued = new org.claimdesk.ui.testing.QueuedTaskRunner();
        FixFieldViewModel m = openedOnTheGroup(queued);
        m.valueProperty().set(REGISTERED);
        m.preview();
        queued.runAll();
        m.apply("registered holder id");
        assertThat(queued.names()).containsExactly("set a field on claims");

        m.preview();
        m.apply("again");
        assertThat(queued.names()).as("nothing more while it runs").containsExactly("set a field on claims");
        assertThat(m.busyProperty().get()).isTrue();
        assertThat(m.runningProperty().get()).isTrue();

        queued.run(0);
        assertThat(m.runningProperty().get()).isFalse();
        assertThat(queued.names()).containsExactly("preview resubmitting rows");
        assertThat(m.busyProperty().get()).as("the resubmission's preview runs").isTrue();
        queued.runAll();
        assertThat(m.busyProperty().get()).isFalse();
        assertThat(m.resubmitPreviewProperty().get().eligible()).isEqualTo(refusedRows().size());
    }

    /**
     * The dialog opens on the field the shown row's refusal named, whatever was chosen before; else as it was, saying
     * where a named field it does not set is corrected.
     */
    @Test
    void theFieldTheStateNamedIsTheOneOffered() {
        outbox.load();
        model.fieldProperty().set(ClaimField.CLAIMANT_ADDRESS);
        model.open(outbox.rowsOf(OutboxViewModel.Scope.FILTER).orElseThrow(), "rows", "statePropertyId");
        assertThat(model.fieldProperty().get()).isEqualTo(ClaimField.STATE_PROPERTY_ID);
        assertThat(model.noticeProperty().get()).isNull();
        model.open(outbox.rowsOf(OutboxViewModel.Scope.FILTER).orElseThrow(), "rows", "taxIdLast4");
        assertThat(model.fieldProperty().get()).as("not one set on many claims").isEqualTo(ClaimField.STATE_PROPERTY_ID);
        // and staff are told where that one is corrected
        assertThat(model.noticeProperty().get().text()).startsWith("The state named the tax id")
                .contains("Replace…");
        model.open(outbox.rowsOf(OutboxViewModel.Scope.FILTER).orElseThrow(), "rows", "evidence[0].address");
        assertThat(model.noticeProperty().get().text()).contains("Evidence tab");
        model.open(outbox.rowsOf(OutboxViewModel.Scope.FILTER).orElseThrow(), "rows", "evidence.address");
        assertThat(model.noticeProperty().get().text()).contains("Evidence tab");
        model.open(outbox.rowsOf(OutboxViewModel.Scope.FILTER).orElseThrow(), "rows", "notAField");
        assertThat(model.noticeProperty().get().text()).startsWith("The state named “notAField”, which is no field");
        model.open(outbox.rowsOf(OutboxViewModel.Scope.FILTER).orElseThrow(), "rows", null);
        assertThat(model.fieldProperty().get()).isEqualTo(ClaimField.STATE_PROPERTY_ID);
        assertThat(model.noticeProperty().get()).as("nothing named").isNull();
    }

    @Test
    void anErrorGroupIsFixedInOneStepAndItsRowsResubmittedTogether() {
        outbox.load();
        FailureGroup group = outbox.groups().stream().filter(g -> g.signature().contains("holder registry"))
                .findFirst().orElseThrow();
        outbox.selectGroup(group);
        model.open(outbox.rowsOf(OutboxViewModel.Scope.GROUP).orElseThrow(), OutboxViewModel.Scope.GROUP.words());
        assertThat(model.fieldProperty().get()).isEqualTo(ClaimField.HOLDER_ID);
        assertThat(model.fields()).doesNotContain(ClaimField.TAX_ID);

        model.valueProperty().set("HLD 1");
        assertThat(model.valueErrorProperty().get()).startsWith("Holder id must be HLD- and six digits");
        model.preview();
        assertThat(model.previewProperty().get()).isNull();
        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.WARNING);

        model.valueProperty().set(REGISTERED);
        assertThat(model.valueErrorProperty().get()).isNull();
        model.preview();
        BulkEdit.Preview preview = model.previewProperty().get();
        assertThat(preview.eligible()).isEqualTo(group.count());
        assertThat(preview.targets()).allSatisfy(t -> assertThat(t.before()).isNotEqualTo(REGISTERED));

        model.apply(" ");
        assertThat(model.editResultProperty().get()).isNull();
        model.apply("registered id from the state's holder list");

        BulkEdit.Result edited = model.editResultProperty().get();
        assertThat(edited.changed()).hasSize(group.count());
        assertThat(tasks.progress).last().satisfies(p -> assertThat(p.done()).isEqualTo(group.count()));
        assertThat(model.progressProperty().get()).isNull();
        assertThat(model.runningProperty().get()).isFalse();
        assertThat(queries.audit(null, "r.okafor", AuditActions.CLAIM_EDIT, 0, 100)).hasSize(group.count());
        // the resubmission is offered at once for the corrected rows
        assertThat(model.resubmitPreviewProperty().get().eligible()).isEqualTo(group.count());

        model.resubmit("holder id corrected");

        Resubmission.BulkResult result = model.resubmitResultProperty().get();
        assertThat(result.resubmitted()).hasSize(group.count());
        assertThat(result.resubmitted()).allSatisfy(r -> assertThat(queries.outboxEvent(r.oldOutboxEventId())
                .orElseThrow().deliveryState()).isEqualTo(DeliveryState.SUPERSEDED));
        assertThat(model.noticeProperty().get().text()).startsWith(group.count() + " of " + group.count() + " row(s) resubmitted");
        assertThat(reloads.get()).isEqualTo(2);
    }

    @Test
    void cancellingStopsBeforeTheNextClaimAndTheResultSaysWhatWasDone() {
        int claims = (int) refusedRows().stream().map(OutboxEvent::aggregateId).distinct().count();
        assertThat(claims).as("the demo has several rows refused for an unregistered holder").isGreaterThanOrEqualTo(3);
        model.open(unregistered, "the rows refused for an unregistered holder");
        model.valueProperty().set(REGISTERED);
        model.preview();
        model.progressProperty().addListener((obs, old, p) -> {
            if (p != null && p.done() == 1) {
                model.cancel();
            }
        });

        model.apply("registered id");

        BulkEdit.Result result = model.editResultProperty().get();
        assertThat(result.cancelled()).isTrue();
        assertThat(result.changed()).hasSize(1);
        assertThat(result.notReached()).isEqualTo(claims - 1);
        assertThat(model.noticeProperty().get().text())
                .startsWith("1 of " + claims + " claim(s) changed").contains("cancelled: " + (claims - 1) + " not reached");
        assertThat(queries.audit(null, "r.okafor", AuditActions.CLAIM_EDIT, 0, 100)).hasSize(1);
        // only the corrected row is offered for resubmission; the others are skipped, unchanged
        assertThat(model.resubmitPreviewProperty().get().eligible()).isEqualTo(1);
    }

    /**
     * A claim of the group that someone else corrected while this fix was previewed is left alone by the fix, and
     * its row is not offered for resubmission under this fix's name and reason either.
     */
    @Test
    void theResubmissionOffersOnlyTheRowsThisFixCorrected() {
        List<OutboxEvent> refused = refusedRows();
        int claims = (int) refused.stream().map(OutboxEvent::aggregateId).distinct().count();
        assertThat(claims).isGreaterThanOrEqualTo(3);
        model.open(unregistered, "the rows refused for an unregistered holder");
        model.valueProperty().set(REGISTERED);
        model.preview();
        long colleagues = refused.get(0).aggregateId();
        org.claimdesk.domain.Claim claim = queries.claim(colleagues).orElseThrow();
        new org.claimdesk.app.ClaimEditing(db, Clock.systemUTC()).edit(colleagues, claim.version(),
                java.util.Map.of("holderId", "HLD-777000"), "m.alvarez", "holder merged, checking the address next");

        model.apply("registered id");

        assertThat(model.editResultProperty().get().changed()).hasSize(claims - 1);
        Resubmission.BulkPreview offered = model.resubmitPreviewProperty().get();
        assertThat(offered.targets()).extracting(Resubmission.Check::claimId).doesNotContain(colleagues)
                .hasSize(claims - 1);
        assertThat(offered.skipped()).containsEntry(refused.get(0).outboxEventId(), "claim " + claim.claimNumber()
                + " was corrected by someone else, not by this fix: resubmit it on its own once it is checked");
    }

    @Test
    void aNewValueDropsTheOldPreviewAndTheTaxIdIsRefused() {
        model.open(unregistered, "the rows");
        model.valueProperty().set(REGISTERED);
        model.preview();
        assertThat(model.previewProperty().get()).isNotNull();
        model.valueProperty().set("HLD-906986");
        assertThat(model.previewProperty().get()).isNull();

        model.fieldProperty().set(ClaimField.TAX_ID);
        model.valueProperty().set("123-45-6789");
        assertThat(model.valueErrorProperty().get()).startsWith("Tax id cannot be set on many claims at once")
                .doesNotContain("6789");
    }
}
