package org.claimdesk.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.claimdesk.app.Queries;
import org.claimdesk.store.Database;
import org.claimdesk.ui.audit.AuditViewModel;
import org.claimdesk.ui.outbox.OutboxViewModel;
import org.claimdesk.ui.testing.DirectTaskRunner;
import org.claimdesk.ui.testing.TestDatabases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The console's CSV exports never carry a tax id, not even after one was revealed on screen. */
class ExportsPersonalDataTest {
    @TempDir
    Path dir;

    @Test
    void outboxAndAuditExportsHoldNoTaxId() throws Exception {
        try (Database db = TestDatabases.demo(dir, 600)) {
            Queries queries = TestDatabases.queries(db);
            List<String> taxIds = new java.util.ArrayList<>(
                    db.read(h -> h.createQuery("SELECT tax_id FROM claim").mapTo(String.class).list()));
            TestDatabases.workflow(db).revealTaxId(1L, "j.chen", "claimant on the phone");
            // a refused claim's tax id replaced whole and the row resubmitted: both audited with the diff
            org.claimdesk.domain.OutboxEvent refused = queries.outbox(org.claimdesk.store.OutboxQuery.all()
                    .withState(org.claimdesk.domain.DeliveryState.FAILED)).get(0);
            org.claimdesk.domain.Claim claim = queries.claim(refused.aggregateId()).orElseThrow();
            String corrected = claim.taxId().endsWith("3141") ? "789-00-2718" : "789-00-3141";
            taxIds.add(corrected);
            new org.claimdesk.app.ClaimEditing(db, java.time.Clock.systemUTC())
                    .replaceTaxId(claim.claimId(), claim.version(), corrected, "j.chen", "SSN card");
            new org.claimdesk.app.Resubmission(db, java.time.Clock.systemUTC())
                    .resubmit(refused.outboxEventId(), "j.chen", "tax id corrected");

            OutboxViewModel outbox = new OutboxViewModel(queries,
                    new org.claimdesk.app.OutboxTriage(db, java.time.Clock.systemUTC(), org.claimdesk.domain.Deadlines.statutory(), null),
                    new org.claimdesk.app.Resubmission(db, java.time.Clock.systemUTC()),
                    new DirectTaskRunner(), "j.chen");
            outbox.load();
            Path outboxCsv = dir.resolve("outbox.csv");
            outbox.exportCsv(outboxCsv);
            AuditViewModel audit = new AuditViewModel(queries, new DirectTaskRunner());
            audit.refresh();
            Path auditCsv = dir.resolve("audit.csv");
            audit.exportCsv(auditCsv);

            for (Path csv : List.of(outboxCsv, auditCsv)) {
                String text = Files.readString(csv, StandardCharsets.UTF_8);
                assertThat(text.lines().count()).as(csv.toString()).isGreaterThan(1);
                assertThat(taxIds).allSatisfy(t -> assertThat(text).as(csv.toString())
                        .doesNotContain(t).doesNotContain(t.replace("-", "")));
            }
            assertThat(Files.readString(auditCsv, StandardCharsets.UTF_8)).contains("claim.reveal_tax_id")
                    .contains("claim.replace_tax_id").contains("outbox.resubmit").contains("taxIdLast4")
                    .contains(corrected.substring(7));
        }
    }
}
