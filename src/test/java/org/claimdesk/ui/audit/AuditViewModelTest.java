package org.claimdesk.ui.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.claimdesk.app.Workflow;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.store.Database;
import org.claimdesk.ui.testing.DirectTaskRunner;
import org.claimdesk.ui.testing.TestDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditViewModelTest {
    @TempDir
    Path dir;
    Database db;
    AuditViewModel model;
    /** The entries the demo data wrote for the staff actions its histories imply. */
    int demoEntries;

    @BeforeEach
    void setUp() {
        db = TestDatabases.demo(dir, 30);
        Workflow workflow = TestDatabases.workflow(db);
        demoEntries = TestDatabases.queries(db).audit(null, null, null, 0, 10_000).size();
        for (long id = 1; id <= 25; id++) {
            workflow.revealTaxId(id, id % 2 == 0 ? "ann" : "bob", "reason, with \"quotes\" " + id);
        }
        for (long id = 1; id <= 230; id++) {
            workflow.revealTaxId(1 + id % 30, "carl", "bulk " + id);
        }
        model = new AuditViewModel(TestDatabases.queries(db), new DirectTaskRunner());
        model.applyFilters();
    }

    @AfterEach
    void tearDown() {
        db.close();
    }

    @Test
    void theActionFilterOffersEveryActionOfTheAuditTrail() {
        assertThat(model.actions()).isEqualTo(AuditActions.ALL).contains(AuditActions.CLAIMS_IMPORT,
                AuditActions.CLAIMS_EXPORT_TAX_IDS, AuditActions.CLAIM_CREATE, AuditActions.WORKER_PAUSE);
    }

    @Test
    void namesEachSubjectAsStaffKnowIt() {
        java.time.Instant at = java.time.Instant.parse("2026-12-01T10:00:00Z");
        assertThat(model.subjectText(new AuditEntry(1, at, "kim", AuditActions.OUTBOX_REQUEUE,
                AuditActions.SUBJECT_OUTBOX, "1194", null, null))).isEqualTo("outbox row 1194");
        assertThat(model.subjectText(new AuditEntry(2, at, "kim", AuditActions.WORKER_PAUSE,
                AuditActions.SUBJECT_WORKER, AuditActions.WORKER_ID, null, null))).isEqualTo("worker");
        assertThat(model.subjectText(new AuditEntry(3, at, "kim", AuditActions.SETTINGS_CHANGE,
                AuditActions.SUBJECT_SETTINGS, AuditActions.WORKER_ID, null, null))).isEqualTo("settings worker");
        // a claim not on the page shown: by its id
        assertThat(model.subjectText(new AuditEntry(4, at, "kim", AuditActions.CLAIM_ADVANCE,
                AuditActions.SUBJECT_CLAIM, "4709", null, null))).isEqualTo("claim 4709");
        // the claims on the page: by the number staff quote
        AuditEntry reveal = model.rows().get(0);
        String number = TestDatabases.queries(db).claim(Long.parseLong(reveal.subjectId())).orElseThrow().claimNumber();
        assertThat(model.subjectText(reveal)).isEqualTo("claim " + number);
    }

    @Test
    void aClaimsEntriesAreFoundByItsNumberAndAnOutboxRowsByItsName() {
        org.claimdesk.app.Queries queries = TestDatabases.queries(db);
        String number = queries.claim(4L).orElseThrow().claimNumber();

        model.subjectProperty().set(number.toLowerCase(java.util.Locale.ROOT));
        model.applyFilters();
        assertThat(model.rows()).isNotEmpty().allSatisfy(a -> {
            assertThat(a.subjectType()).isEqualTo(AuditActions.SUBJECT_CLAIM);
            assertThat(a.subjectId()).isEqualTo("4");
        });
        model.subjectProperty().set("claim " + number);
        model.applyFilters();
        assertThat(model.rows()).as("as the Subject column writes it").isNotEmpty()
                .allSatisfy(a -> assertThat(a.subjectId()).isEqualTo("4"));
        model.subjectProperty().set("Claim 004");
        model.applyFilters();
        assertThat(model.rows()).isNotEmpty().allSatisfy(a -> assertThat(a.subjectType())
                .isEqualTo(AuditActions.SUBJECT_CLAIM));

        // an outbox row with the same id is another subject: "outbox row 4" is its entries only
        db.useTransaction(h -> new org.claimdesk.store.AuditStore().append(h, java.time.Instant.now(), "kim",
                AuditActions.OUTBOX_REQUEUE, AuditActions.SUBJECT_OUTBOX, "4", "portal back", null));
        model.subjectProperty().set("outbox row 4");
        model.applyFilters();
        assertThat(model.rows()).singleElement().satisfies(a -> assertThat(a.reason()).isEqualTo("portal back"));
        model.subjectProperty().set("4");
        model.applyFilters();
        assertThat(model.rows()).extracting(AuditEntry::subjectType).contains(AuditActions.SUBJECT_CLAIM,
                AuditActions.SUBJECT_OUTBOX);

        model.subjectProperty().set("UPC-1999-999999");
        model.applyFilters();
        assertThat(model.rows()).isEmpty();
        assertThat(model.pageTextProperty().get()).isEqualTo("no entries");
    }

    @Test
    void pagesNewestFirst() {
        assertThat(model.rows()).hasSize(AuditViewModel.PAGE_SIZE);
        assertThat(model.rows().get(0).reason()).isEqualTo("bulk 230");
        assertThat(model.hasNextProperty().get()).isTrue();
        assertThat(model.pageTextProperty().get()).isEqualTo("1–200 of more");
        model.nextPage();
        assertThat(demoEntries).as("a demo database carries its audit trail").isPositive();
        assertThat(model.rows()).hasSize(demoEntries + 255 - AuditViewModel.PAGE_SIZE);
        assertThat(model.hasNextProperty().get()).isFalse();
        assertThat(model.hasPreviousProperty().get()).isTrue();
    }

    /** Entries added elsewhere while staff page back: Next shows the entries after the page, none again. */
    @Test
    void entriesAddedMeanwhileNeitherRepeatNorSkipEntriesOnNext() {
        List<AuditEntry> first = List.copyOf(model.rows());
        Workflow workflow = TestDatabases.workflow(db);
        for (long id = 1; id <= 3; id++) {
            workflow.revealTaxId(id, "dana", "added meanwhile " + id);
        }
        model.nextPage();
        assertThat(model.rows().get(0).auditId()).as("the entry after the first page's last")
                .isEqualTo(first.get(first.size() - 1).auditId() - 1);
        model.previousPage();
        assertThat(model.rows()).as("back on the first page: the newest again, the added ones first")
                .first().satisfies(e -> assertThat(e.reason()).isEqualTo("added meanwhile 3"));
    }

    /** Next right after another filter is applied, before its first page came: nothing read from the old filter's pin. */
    @Test
    void nextBeforeANewFiltersFirstPageArrivesReadsNothingOfTheOldFilter() {
        org.claimdesk.ui.testing.QueuedTaskRunner queued = new org.claimdesk.ui.testing.QueuedTaskRunner();
        AuditViewModel m = new AuditViewModel(TestDatabases.queries(db), queued);
        m.actorProperty().set("carl");
        m.applyFilters();
        queued.runAll();
        assertThat(m.hasNextProperty().get()).isTrue();

        m.actorProperty().set("");
        m.applyFilters();
        m.nextPage();
        queued.runAll();

        assertThat(m.rows()).as("the first page of the new filter, newest first").hasSize(AuditViewModel.PAGE_SIZE)
                .first().satisfies(e -> assertThat(e.reason()).isEqualTo("bulk 230"));
        assertThat(m.pageTextProperty().get()).isEqualTo("1–200 of more");
    }

    @Test
    void filtersBySubjectActorAndAction() {
        model.showSubject("4");
        assertThat(model.rows()).isNotEmpty().allSatisfy(a -> assertThat(a.subjectId()).isEqualTo("4"));
        model.subjectProperty().set("");
        model.actorProperty().set("ann");
        model.applyFilters();
        assertThat(model.rows()).hasSize(12).allSatisfy(a -> assertThat(a.actor()).isEqualTo("ann"));
        model.actionProperty().set(AuditActions.CLAIM_SUBMIT);
        model.applyFilters();
        assertThat(model.rows()).as("ann only revealed tax ids").isEmpty();
        assertThat(model.pageTextProperty().get()).isEqualTo("no entries");

        // an actor typed and not applied changes nothing a refresh reads
        model.actionProperty().set(null);
        model.applyFilters();
        model.actorProperty().set("bob");
        model.refresh();
        assertThat(model.rows()).hasSize(12).allSatisfy(a -> assertThat(a.actor()).isEqualTo("ann"));
    }

    /**
     * Entries other workstations add while the trail is exported, newest first, do not come in, and no entry is
     * repeated or left out at the batches' edges: the export is the trail as it stood when it began.
     */
    @Test
    void anExportIsTheTrailAsItStoodWhenItBegan() throws Exception {
        Workflow workflow = TestDatabases.workflow(db);
        org.claimdesk.store.AuditStore store = new org.claimdesk.store.AuditStore();
        db.useTransaction(h -> {
            for (int i = 0; i < AuditViewModel.EXPORT_BATCH; i++) {
                store.append(h, java.time.Instant.parse("2026-11-01T00:00:00Z"), "carl", AuditActions.TAX_ID_REVEAL,
                        AuditActions.SUBJECT_CLAIM, "3", "seeded " + i, null);
            }
        });
        int before = TestDatabases.queries(db).audit(null, null, null, 0, 100_000).size();
        java.util.concurrent.ExecutorService elsewhere = java.util.concurrent.Executors.newSingleThreadExecutor();
        DirectTaskRunner writingElsewhere = new DirectTaskRunner() {
            boolean wrote;

            @Override
            public <T> void submit(String what, Work<T> work, java.util.function.Consumer<? super T> onSuccess,
                    java.util.function.Consumer<? super Throwable> onFailure,
                    java.util.function.Consumer<ProgressUpdate> onProgress) {
                super.submit(what, work, onSuccess, onFailure, update -> {
                    if (!wrote) {
                        wrote = true;
                        try {
                            elsewhere.submit(() -> {
                                for (long id = 1; id <= 40; id++) {
                                    workflow.revealTaxId(id % 30 + 1, "dana", "meanwhile " + id);
                                }
                            }).get();
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }
                    onProgress.accept(update);
                });
            }
        };
        AuditViewModel exporting = new AuditViewModel(TestDatabases.queries(db), writingElsewhere);
        Path file = dir.resolve("trail.csv");
        try {
            exporting.exportCsv(file);
        } finally {
            elsewhere.shutdownNow();
        }

        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(before + 1);
        assertThat(lines.stream().skip(1).map(l -> l.substring(0, l.indexOf(','))).distinct()).hasSize(before);
        assertThat(String.join("\n", lines)).doesNotContain("meanwhile");
        assertThat(TestDatabases.queries(db).audit(null, "dana", null, 0, 100)).hasSize(40);
    }

    @Test
    void exportsEveryMatchingEntryAsCsv() throws Exception {
        model.actorProperty().set("ann");
        model.applyFilters();
        // typed but not applied: not part of the entries shown, nor of the export
        model.subjectProperty().set("no such subject");
        Path file = dir.resolve("audit.csv");
        model.exportCsv(file);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(13);
        assertThat(lines.get(1)).contains("ann,claim.reveal_tax_id,claim,24,\"reason, with \"\"quotes\"\" 24\"");
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.endsWith(".part"));
        }
        assertThat(model.exportingProperty().get()).isFalse();
        assertThat(model.rows()).as("the page is as applied").extracting(AuditEntry::actor).containsOnly("ann");
    }
}
