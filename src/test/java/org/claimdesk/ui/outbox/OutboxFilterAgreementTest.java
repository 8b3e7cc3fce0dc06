package org.claimdesk.ui.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.claimdesk.app.OutboxTriage;
import org.claimdesk.app.Queries;
import org.claimdesk.app.SubmitResult;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.domain.DeliveryState;
import org.claimdesk.domain.ErrorSignature;
import org.claimdesk.domain.FailureGroup;
import org.claimdesk.store.Database;
import org.claimdesk.testing.Outbox;
import org.claimdesk.ui.testing.DirectTaskRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One filter, one grouping, one age: for every combination of the Outbox page's filters (state, jurisdiction,
 * error text with blanks and the characters SQL treats specially, age) and every error group, the table, the
 * groups, the CSV export and a bulk action's preview select the same rows, and those are the rows a plain
 * reading of the filter picks from a real SQLite database of varied rows.
 */
class OutboxFilterAgreementTest {
    private static final String[] JURISDICTIONS = {"CA", "NY", "TX"};
    private static final String[] ERRORS = {
        "422 invalid_claim: holder id HLD-104233 not found in the holder's 2025 report",
        "422 invalid_claim: holder id HLD-998120 not found in the holder's 2024 report",
        "HOLDER ID hld-9 NOT FOUND",
        "503 Service Unavailable",
        "timeout: 50% of the budget used",
        "rate 50x over the budget",
        "field a_b missing",
        "field axb missing",
        "claimant O'Brien not matched",
        "bang! refused",
        "",
        null,
    };
    /** How long ago rows last changed: each far from the age filter's thresholds (1 h, 1 d, 7 d, 30 d). */
    private static final Duration[] CHANGED_AGO = {Duration.ofMinutes(10), Duration.ofHours(3), Duration.ofDays(2),
        Duration.ofDays(10), Duration.ofDays(45)};

    @TempDir
    Path dir;
    Database db;
    Queries queries;
    DirectTaskRunner tasks;
    OutboxViewModel model;
    final List<Row> rows = new ArrayList<>();

    /** A row as the fixture made it: what the oracle filters on. */
    record Row(long id, String jurisdiction, DeliveryState state, String lastError, Instant changedAt) {
    }

    @BeforeEach
    void setUp() {
        db = Database.open(dir.resolve("agreement.db"));
        queries = new Queries(db, Clock.systemUTC());
        Random random = new Random(15);
        Instant now = Instant.now();
        for (String jurisdiction : JURISDICTIONS) {
            for (SubmitResult s : Outbox.submitted(db, 50, jurisdiction)) {
                DeliveryState state = DeliveryState.values()[random.nextInt(10) < 5 ? 2 : random.nextInt(4)];
                String error = state == DeliveryState.SENT && random.nextBoolean() ? null : ERRORS[random.nextInt(ERRORS.length)];
                Instant changedAt = now.minus(CHANGED_AGO[random.nextInt(CHANGED_AGO.length)]);
                // created at an age unrelated to the last change, so filtering on the wrong column shows
                Instant createdAt = now.minus(CHANGED_AGO[random.nextInt(CHANGED_AGO.length)]).minus(Duration.ofDays(1));
                db.useTransaction(h -> h.createUpdate("""
                        UPDATE outbox_event SET delivery_state = :state, last_error = :error, updated_at = :changed,
                            created_at = :created WHERE outbox_event_id = :id""")
                        .bind("state", state.dbValue()).bind("error", error).bind("changed", changedAt.toEpochMilli())
                        .bind("created", createdAt.toEpochMilli()).bind("id", s.outboxEventId()).execute());
                rows.add(new Row(s.outboxEventId(), jurisdiction, state, error, changedAt));
            }
        }
        assertThat(rows.stream().filter(r -> r.state() == DeliveryState.FAILED).count()).isGreaterThan(50);
        tasks = new DirectTaskRunner();
        model = new OutboxViewModel(queries, new OutboxTriage(db, Clock.systemUTC(), Deadlines.statutory(), null),
                new org.claimdesk.app.Resubmission(db, Clock.systemUTC()), tasks,
                "tester");
        model.load();
    }

    @AfterEach
    void tearDown() {
        db.close();
    }

    @Test
    void tableGroupsExportAndPreviewAgreeForEveryFilterCombination() throws IOException {
        List<DeliveryState> states = new ArrayList<>(Arrays.asList(DeliveryState.values()));
        states.add(0, null);
        List<String> jurisdictions = Arrays.asList(null, "", "  ", "CA", "ny", " tx ", "ZZ");
        List<String> texts = Arrays.asList(null, "", "   ", "holder id", "HOLDER ID", " 503 ", "%", "_", "'", "50%", "a_b",
                "o'brien", "!", "no such text");
        int combinations = 0;
        int groupsChecked = 0;
        for (OutboxViewModel.Age age : OutboxViewModel.Age.values()) {
            for (String jurisdiction : jurisdictions) {
                for (String text : texts) {
                    for (DeliveryState state : states) {
                        model.stateProperty().set(state);
                        model.jurisdictionProperty().set(jurisdiction);
                        model.errorTextProperty().set(text);
                        model.ageProperty().set(age);
                        model.applyFilters();
                        String what = "state " + state + ", jurisdiction '" + jurisdiction + "', text '" + text
                                + "', " + age.label();
                        Instant now = Instant.now();
                        List<Row> others = rows.stream()
                                .filter(r -> matches(r, jurisdiction, text, age, now)).toList();
                        List<Long> expected = ids(others.stream().filter(r -> state == null || r.state() == state).toList());
                        List<Row> failed = others.stream().filter(r -> r.state() == DeliveryState.FAILED).toList();

                        assertThat(tableIds()).as("table, " + what).isEqualTo(expected);
                        assertThat(groups(model.groups())).as("groups, " + what).isEqualTo(groups(failed));
                        assertThat(exportIds()).as("export, " + what).isEqualTo(expected);
                        assertPreview(OutboxViewModel.Scope.FILTER, expected, failed.stream()
                                .filter(r -> state == null || state == DeliveryState.FAILED).toList(), what);

                        if (state == null || state == DeliveryState.FAILED) {
                            for (FailureGroup group : List.copyOf(model.groups())) {
                                List<Long> inGroup = ids(failed.stream()
                                        .filter(r -> ErrorSignature.of(r.lastError()).equals(group.signature())).toList());
                                model.selectGroup(group);
                                String which = what + ", group '" + group.signature() + "'";
                                assertThat(tableIds()).as("table, " + which).isEqualTo(inGroup);
                                assertThat(exportIds()).as("export, " + which).isEqualTo(inGroup);
                                assertPreview(OutboxViewModel.Scope.GROUP, inGroup, failed.stream()
                                        .filter(r -> inGroup.contains(r.id())).toList(), which);
                                groupsChecked++;
                            }
                            model.selectGroup(null);
                        }
                        combinations++;
                    }
                }
            }
        }
        assertThat(combinations).isEqualTo(states.size() * jurisdictions.size() * texts.size()
                * OutboxViewModel.Age.values().length);
        assertThat(groupsChecked).isGreaterThan(combinations / 2);
    }

    /** The filter read plainly: jurisdiction in any case, text contained in any case, age by the last change. */
    private static boolean matches(Row r, String jurisdiction, String text, OutboxViewModel.Age age, Instant now) {
        if (jurisdiction != null && !jurisdiction.isBlank() && !r.jurisdiction().equalsIgnoreCase(jurisdiction.strip())) {
            return false;
        }
        if (text != null && !text.isBlank() && (r.lastError() == null
                || !r.lastError().toLowerCase(Locale.ROOT).contains(text.strip().toLowerCase(Locale.ROOT)))) {
            return false;
        }
        Duration older = switch (age) {
            case ANY -> null;
            case HOUR -> Duration.ofHours(1);
            case DAY -> Duration.ofDays(1);
            case WEEK -> Duration.ofDays(7);
            case MONTH -> Duration.ofDays(30);
        };
        return older == null || r.changedAt().isBefore(now.minus(older));
    }

    private static List<Long> ids(List<Row> selected) {
        return selected.stream().map(Row::id).sorted().toList();
    }

    /** Signature to count, first and last change, as the oracle groups {@code failed}. */
    private static Map<String, String> groups(List<Row> failed) {
        return failed.stream().collect(Collectors.groupingBy(r -> ErrorSignature.of(r.lastError()), TreeMap::new,
                Collectors.collectingAndThen(Collectors.toList(), g -> g.size() + " "
                        + g.stream().map(Row::changedAt).min(Instant::compareTo).orElseThrow().toEpochMilli() + " "
                        + g.stream().map(Row::changedAt).max(Instant::compareTo).orElseThrow().toEpochMilli())));
    }

    private static Map<String, String> groups(Iterable<FailureGroup> shown) {
        Map<String, String> byKey = new TreeMap<>();
        for (FailureGroup g : shown) {
            byKey.put(g.signature(), g.count() + " " + g.firstSeen().toEpochMilli() + " " + g.lastSeen().toEpochMilli());
        }
        return byKey;
    }

    /** Every row the table shows, page by page. */
    private List<Long> tableIds() {
        List<Long> ids = new ArrayList<>();
        while (model.pagingProperty().get().hasPrevious()) {
            model.previousPage();
        }
        while (true) {
            model.rows().forEach(r -> ids.add(r.id()));
            if (!model.pagingProperty().get().hasNext()) {
                break;
            }
            model.nextPage();
        }
        assertThat(ids).hasSize(model.pagingProperty().get().total());
        return ids;
    }

    private List<Long> exportIds() throws IOException {
        Path file = dir.resolve("export.csv");
        Files.deleteIfExists(file);
        model.exportCsv(file);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        return lines.subList(1, lines.size()).stream().map(l -> Long.parseLong(l.substring(0, l.indexOf(','))))
                .toList();
    }

    /**
     * A re-queue's preview of {@code scope}: the failed rows among those {@code selected} (OutboxQuery.failedAmong),
     * without reading or listing the others one by one.
     */
    private void assertPreview(OutboxViewModel.Scope scope, List<Long> selected, List<Row> failed, String what) {
        model.preview(OutboxTriage.Action.REQUEUE, scope);
        OutboxViewModel.Plan plan = model.planProperty().get();
        List<Long> failedIds = ids(failed);
        if (failedIds.isEmpty()) {
            assertThat(plan).as("preview, " + what).isNull();
            assertThat(model.noticeProperty().get().text()).as("preview, " + what).contains("0 will be re-queued");
            return;
        }
        assertThat(plan).as("preview, " + what + ": " + model.noticeProperty().get()).isNotNull();
        assertThat(plan.preview().targetIds()).as("preview, " + what).isEqualTo(failedIds);
        assertThat(selected).as("the scope's rows hold the failed ones, " + what).containsAll(failedIds);
        assertThat(plan.preview().notFailed()).as("the others are not listed, " + what).isEmpty();
        model.cancelPlan();
    }
}
