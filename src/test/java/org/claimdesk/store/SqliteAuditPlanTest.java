package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.claimdesk.testing.TestDatabase;
import org.jdbi.v3.core.statement.Query;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * SQLite's plans for the audit trail's reads: one subject's entries ({@link AuditStore#ofSubject}) and each of the
 * Audit page's filters ({@link AuditStore#list}). PostgreSQL's: {@link PostgresAuditPlanTest}.
 */
class SqliteAuditPlanTest {
    @TempDir
    Path dir;

    /** Read through the subject's index: neither the whole log scanned nor its entries sorted. */
    @Test
    void onSqliteTheEntriesAreReadThroughTheSubjectsIndex() {
        try (Database db = TestDatabase.open(TestDatabase.Engine.SQLITE, dir)) {
            List<String> plan = plan(db, AuditStore.OF_SUBJECT, q -> q.bind("type", "claim").bind("subject", "7")
                    .bind("limit", 200));
            assertThat(plan).as(String.join("\n", plan))
                    .anySatisfy(step -> assertThat(step).startsWith("SEARCH audit_log USING INDEX audit_subject_idx"))
                    .noneSatisfy(step -> assertThat(step).startsWith("SCAN audit_log"))
                    .noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
        }
    }

    /** A page of one filter's entries is read through that filter's index in the log's order, newest first. */
    @ParameterizedTest
    @CsvSource({"subject, audit_subject_idx", "actor, audit_actor_idx", "action, audit_action_idx"})
    void eachAuditPageFilterReadsThroughItsOwnIndexWithoutSorting(String filter, String index) {
        try (Database db = TestDatabase.open(TestDatabase.Engine.SQLITE, dir)) {
            String sql = AuditStore.listStatement(filter.equals("subject"), filter.equals("actor"),
                    filter.equals("action"), true);
            List<String> plan = plan(db, sql, q -> q.bind(filter, "7").bind("limit", 51).bind("offset", 0));
            assertThat(plan).as(sql + "\n" + String.join("\n", plan))
                    .anySatisfy(step -> assertThat(step).startsWith("SEARCH audit_log USING INDEX " + index))
                    .noneSatisfy(step -> assertThat(step).startsWith("SCAN audit_log"))
                    .noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
        }
    }

    /** A claim's entries found by its number (the subject and its type): through the subject's index too. */
    @Test
    void aPageOfOneSubjectOfOneTypeReadsThroughTheSubjectsIndex() {
        try (Database db = TestDatabase.open(TestDatabase.Engine.SQLITE, dir)) {
            String sql = AuditStore.listStatement(true, true, false, false, true, false);
            List<String> plan = plan(db, sql, q -> q.bind("subject", "7").bind("type", "claim").bind("limit", 201)
                    .bind("offset", 0));
            assertThat(plan).as(sql + "\n" + String.join("\n", plan))
                    .anySatisfy(step -> assertThat(step).startsWith("SEARCH audit_log USING INDEX audit_subject_idx"))
                    .noneSatisfy(step -> assertThat(step).startsWith("SCAN audit_log"))
                    .noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
        }
    }

    private static List<String> plan(Database db, String sql, java.util.function.Consumer<Query> binding) {
        return db.read(h -> {
            Query q = h.createQuery("EXPLAIN QUERY PLAN " + sql);
            binding.accept(q);
            return q.map((rs, ctx) -> rs.getString("detail")).list();
        });
    }
}
