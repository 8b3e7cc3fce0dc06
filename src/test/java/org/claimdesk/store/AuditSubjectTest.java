package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** One subject's audit entries (a claim's detail), on both engines; SQLite's plan: {@link SqliteAuditPlanTest}. */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class AuditSubjectTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    private final AuditStore audit = new AuditStore();

    @Test
    void aSubjectsEntriesAreItsOwnNewestFirstUpToTheLimit() {
        try (Database db = TestDatabase.open(engine, dir)) {
            Instant at = Instant.parse("2026-11-30T09:00:00Z");
            db.useTransaction(h -> {
                for (int i = 0; i < 5; i++) {
                    audit.append(h, at.plusSeconds(i), "j.chen", "claim.edit", "claim", "7", "step " + i, null);
                }
                // the same id on another kind of subject, and another claim
                audit.append(h, at, "j.chen", "outbox.requeue", "outbox_event", "7", "not the claim", null);
                audit.append(h, at, "j.chen", "claim.edit", "claim", "70", "another claim", null);
            });
            List<AuditEntry> entries = db.read(h -> audit.ofSubject(h, "claim", "7", 3));
            assertThat(entries).extracting(AuditEntry::reason).containsExactly("step 4", "step 3", "step 2");
            List<AuditEntry> all = db.read(h -> audit.ofSubject(h, "claim", "7", 200));
            assertThat(all).hasSize(5).allSatisfy(e -> assertThat(e.subjectType()).isEqualTo("claim"));
            List<AuditEntry> none = db.read(h -> audit.ofSubject(h, "claim", "8", 200));
            assertThat(none).isEmpty();
        }
    }
}
