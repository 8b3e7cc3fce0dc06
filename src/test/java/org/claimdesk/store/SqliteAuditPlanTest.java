package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SQLite's plan for one subject's audit entries ({@link AuditStore#ofSubject}). */
class SqliteAuditPlanTest {
    @TempDir
    Path dir;

    /** Read through the subject's index: neither the whole log scanned nor its entries sorted. */
    @Test
    void onSqliteTheEntriesAreReadThroughTheSubjectsIndex() {
        try (Database db = TestDatabase.open(TestDatabase.Engine.SQLITE, dir)) {
            List<String> plan = db.read(h -> h.createQuery("EXPLAIN QUERY PLAN " + AuditStore.OF_SUBJECT)
                    .bind("type", "claim").bind("subject", "7").bind("limit", 200)
                    .map((rs, ctx) -> rs.getString("detail")).list());
            assertThat(plan).as(String.join("\n", plan))
                    .anySatisfy(step -> assertThat(step).startsWith("SEARCH audit_log USING INDEX audit_subject_idx"))
                    .noneSatisfy(step -> assertThat(step).startsWith("SCAN audit_log"))
                    .noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
        }
    }
}
