package org.claimdesk.ui.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.claimdesk.app.Queries;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.store.Database;
import org.claimdesk.store.OutboxQuery;
import org.claimdesk.ui.common.Notice;
import org.claimdesk.ui.testing.DirectTaskRunner;
import org.claimdesk.ui.testing.FakeTriage;
import org.claimdesk.ui.testing.TestDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutboxViewModelTest {
    @TempDir
    Path dir;
    Database db;
    Queries queries;
    DirectTaskRunner tasks;
    FakeTriage triage;
    OutboxViewModel model;

    @BeforeEach
    void setUp() {
        db = TestDatabases.demo(dir, 800);
        queries = TestDatabases.queries(db);
        tasks = new DirectTaskRunner();
        triage = new FakeTriage();
        model = new OutboxViewModel(queries, triage, tasks, "tester");
    }

    @AfterEach
    void tearDown() {
        db.close();
    }

    @Test
    void showsFailedRowsByDefaultWhenThereAreAny() {
        model.load();
        int failed = queries.countOutbox(OutboxQuery.all().withState(DeliveryState.FAILED));
        assertThat(failed).isPositive();
        assertThat(model.stateProperty().get()).isEqualTo(DeliveryState.FAILED);
        assertThat(model.pagingProperty().get().total()).isEqualTo(failed);
        assertThat(model.rows()).isNotEmpty().allSatisfy(r -> {
            assertThat(r.event().deliveryState()).isEqualTo(DeliveryState.FAILED);
            assertThat(r.claimNumber()).startsWith("UPC-");
        });
        assertThat(model.groups()).hasSize(2);
        assertThat(triage.lastFilter.state()).isEqualTo(DeliveryState.FAILED);
    }

    @Test
    void showsEveryRowWhenNothingFailed() {
        db.useTransaction(h -> h.execute("UPDATE outbox_event SET delivery_state = 'sent' WHERE delivery_state = 'failed'"));
        model.load();
        assertThat(model.stateProperty().get()).isNull();
        assertThat(model.pagingProperty().get().total()).isEqualTo(queries.countOutbox(OutboxQuery.all()));
    }

    @Test
    void filtersByErrorTextJurisdictionAndAge() {
        model.load();
        model.errorTextProperty().set("holder id");
        model.applyFilters();
        assertThat(model.rows()).isNotEmpty().allSatisfy(r -> assertThat(r.event().lastError()).contains("holder id"));
        model.jurisdictionProperty().set("CA");
        model.applyFilters();
        assertThat(model.rows()).allSatisfy(r -> assertThat(r.jurisdiction()).isEqualTo("CA"));
        model.ageProperty().set(OutboxViewModel.Age.MONTH);
        assertThat(model.filter().createdBefore()).isNotNull();
    }

    @Test
    void changingTheStateFilterAloneKeepsTheErrorGroupsOtherFiltersAndRefreshRegroup() {
        model.load();
        assertThat(triage.calls).containsExactly("groups");
        model.stateProperty().set(DeliveryState.PENDING);
        model.applyFilters();
        assertThat(model.rows()).isNotEmpty()
                .allSatisfy(r -> assertThat(r.event().deliveryState()).isEqualTo(DeliveryState.PENDING));
        assertThat(triage.calls).as("the groups are of failed rows whatever state the table shows")
                .containsExactly("groups");
        assertThat(model.groups()).hasSize(2);
        model.jurisdictionProperty().set("CA");
        model.applyFilters();
        assertThat(triage.calls).containsExactly("groups", "groups");
        assertThat(triage.lastFilter.jurisdiction()).isEqualTo("CA");
        model.refresh();
        assertThat(triage.calls).containsExactly("groups", "groups", "groups");
    }

    @Test
    void selectingAGroupShowsItsRows() {
        model.load();
        List<Long> ids = model.rows().stream().limit(3).map(OutboxRow::id).toList();
        triage.groupIds = ids;
        model.selectGroup(model.groups().get(0));
        assertThat(model.rows()).extracting(OutboxRow::id).containsExactlyElementsOf(ids);
        assertThat(model.pagingProperty().get().total()).isEqualTo(3);
        model.selectGroup(null);
        assertThat(model.rows().size()).isGreaterThan(3);
    }

    @Test
    void theDetailHasPrettyPayloadAndAttempts() {
        model.load();
        OutboxRow row = model.rows().get(0);
        model.select(List.of(row));
        OutboxViewModel.Detail d = model.detailProperty().get();
        assertThat(d.prettyPayload()).contains("\n").contains("\"claimNumber\"");
        assertThat(d.attempts()).isNotEmpty().hasSize(row.event().attempts());
    }

    @Test
    void requeueOfASelectionIsPreviewedThenAppliedWithReasonAndReportsTheResult() {
        model.load();
        List<OutboxRow> selected = model.rows().subList(0, 4);
        List<Long> ids = selected.stream().map(OutboxRow::id).toList();
        triage.changedSincePreview = java.util.Set.of(ids.get(3));
        model.select(selected);

        model.preview(OutboxTriage.Action.REQUEUE, OutboxViewModel.Scope.SELECTION);
        OutboxViewModel.Plan plan = model.planProperty().get();
        assertThat(plan.ids()).containsExactlyElementsOf(ids);
        assertThat(plan.preview().describe()).isEqualTo("3 will be re-queued, 1 skipped because their state changed");

        model.execute(plan, "state portal is back", true);
        assertThat(triage.calls).contains("apply:REQUEUE:" + ids + ":tester:state portal is back:true");
        assertThat(model.planProperty().get()).isNull();
        assertThat(model.lastResultProperty().get().changed()).isEqualTo(3);
        assertThat(model.noticeProperty().get().text()).isEqualTo("3 row(s) re-queued, 1 skipped because their state changed");
        assertThat(tasks.progress).last().satisfies(p -> assertThat(p.fraction()).isEqualTo(1.0));
        assertThat(model.progressProperty().get()).isNull();
        assertThat(model.busyProperty().get()).isFalse();
    }

    @Test
    void aBulkActionWithoutReasonChangesNothing() {
        model.load();
        model.select(model.rows().subList(0, 2));
        model.preview(OutboxTriage.Action.ABANDON, OutboxViewModel.Scope.SELECTION);
        model.execute(model.planProperty().get(), " ", false);
        assertThat(triage.calls).noneMatch(c -> c.startsWith("apply"));
        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.WARNING);
    }

    @Test
    void groupAndFilterScopesResolveTheirRowsInTheDatabaseNotFromTheScreen() {
        model.load();
        model.preview(OutboxTriage.Action.REQUEUE, OutboxViewModel.Scope.GROUP);
        assertThat(model.planProperty().get()).as("no group selected").isNull();
        assertThat(model.noticeProperty().get().text()).contains("Select an error group");

        model.selectGroup(model.groups().get(1));
        model.preview(OutboxTriage.Action.REQUEUE, OutboxViewModel.Scope.GROUP);
        assertThat(model.planProperty().get().ids()).isEqualTo(triage.groupIds);
        model.cancelPlan();

        model.preview(OutboxTriage.Action.ABANDON, OutboxViewModel.Scope.FILTER);
        assertThat(model.planProperty().get().ids()).isEqualTo(triage.filterIds);
        assertThat(triage.lastFilter.state()).isEqualTo(DeliveryState.FAILED);
    }

    @Test
    void anEmptySelectionAsksToSelectFirst() {
        model.load();
        model.preview(OutboxTriage.Action.REQUEUE, OutboxViewModel.Scope.SELECTION);
        assertThat(model.planProperty().get()).isNull();
        assertThat(model.noticeProperty().get().kind()).isEqualTo(Notice.Kind.WARNING);
    }

    @Test
    void exportsTheCurrentFilterToCsv() throws Exception {
        model.load();
        Path file = dir.resolve("outbox.csv");
        model.exportCsv(file);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        int failed = queries.countOutbox(OutboxQuery.all().withState(DeliveryState.FAILED));
        assertThat(lines).hasSize(failed + 1);
        assertThat(lines.get(0)).startsWith("\uFEFFoutbox_event_id,claim_id,claim_number");
        assertThat(lines.subList(1, lines.size())).allSatisfy(l -> assertThat(l).contains(",failed,"));
        assertThat(model.noticeProperty().get().text()).startsWith("Exported " + failed + " outbox rows");
    }

    @Test
    void refreshKeepsTheSelectedRows() {
        model.load();
        List<OutboxRow> selected = model.rows().subList(2, 4);
        model.select(selected);
        model.refresh();
        assertThat(model.selectionProperty().get()).extracting(OutboxRow::id)
                .containsExactly(selected.get(0).id(), selected.get(1).id());
    }
}
