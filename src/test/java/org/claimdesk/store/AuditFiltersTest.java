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

/** The Audit page's filters ({@link AuditStore#list}) on both engines; their plans: {@link SqliteAuditPlanTest}. */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class AuditFiltersTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    private final AuditStore audit = new AuditStore();

    @Test
    void eachFilterAloneAndTogetherFindsItsEntriesNewestFirstAPageAtATime() {
        try (Database db = TestDatabase.open(engine, dir)) {
            Instant at = Instant.parse("2026-12-02T09:00:00Z");
            db.useTransaction(h -> {
                audit.append(h, at, "j.chen", "claim.edit", "claim", "7", "first", null);
                audit.append(h, at, "a.okafor", "claim.advance", "claim", "7", "second", null);
                audit.append(h, at, "j.chen", "outbox.requeue", "outbox_event", "7", "third", null);
                audit.append(h, at, "j.chen", "claim.edit", "claim", "70", "fourth", null);
                audit.append(h, at, "a.okafor", "claim.edit", "claim", "7", "fifth", null);
            });
            assertThat(reasons(db, " 7 ", null, null, 0, 0)).as("by subject id, any type, trimmed")
                    .containsExactly("fifth", "third", "second", "first");
            assertThat(reasons(db, null, "j.chen", null, 0, 0)).containsExactly("fourth", "third", "first");
            assertThat(reasons(db, null, null, "claim.edit", 0, 0)).containsExactly("fifth", "fourth", "first");
            assertThat(reasons(db, "7", "a.okafor", "claim.edit", 0, 0)).containsExactly("fifth");
            assertThat(reasons(db, "7", " ", "", 0, 0)).as("blank filters ignored")
                    .containsExactly("fifth", "third", "second", "first");
            assertThat(reasons(db, "7", null, null, 1, 2)).as("the second page of two").containsExactly("third", "second");
            assertThat(reasons(db, null, null, null, 4, 2)).as("past the end").containsExactly("first");
            assertThat(reasons(db, "8", null, null, 0, 0)).isEmpty();
        }
    }

    private List<String> reasons(Database db, String subject, String actor, String action, int offset, int limit) {
        return db.read(h -> audit.list(h, subject, actor, action, offset, limit)).stream()
                .map(AuditEntry::reason).toList();
    }
}
