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
    }

    @Test
    void exportsEveryMatchingEntryAsCsv() throws Exception {
        model.actorProperty().set("ann");
        Path file = dir.resolve("audit.csv");
        model.exportCsv(file);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(13);
        assertThat(lines.get(1)).contains("ann,claim.reveal_tax_id,claim,24,\"reason, with \"\"quotes\"\" 24\"");
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.endsWith(".part"));
        }
        assertThat(model.exportingProperty().get()).isFalse();
        assertThat(model.rows()).extracting(AuditEntry::actor).contains("carl");
    }
}
