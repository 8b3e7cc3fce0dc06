package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.claimdesk.testing.StatementsRun;
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

    /**
     * A page with several filters is read through the subject's index when a subject is asked for, else through the
     * rarer of the actor and the action (SQLite alone would read every entry of the action), with the entries the
     * statement without a choice of index gives.
     */
    @ParameterizedTest
    @CsvSource(nullValues = "-", value = {
            "7, -, claim.advance, audit_subject_idx",
            "8, a.lee, claim.advance, audit_subject_idx",
            "-, new.colleague, claim.advance, audit_actor_idx",
            "-, a.lee, outbox.requeue, audit_action_idx"})
    void aPageWithSeveralFiltersIsReadThroughTheMostSelectiveIndex(String subject, String actor, String action,
            String index) {
        try (Database db = TestDatabase.open(TestDatabase.Engine.SQLITE, dir)) {
            db.useTransaction(h -> {
                AuditStore audit = new AuditStore();
                java.time.Instant at = java.time.Instant.parse("2026-12-01T09:00:00Z");
                for (int i = 0; i < 600; i++) {
                    audit.append(h, at.plusSeconds(i), i % 2 == 0 ? "a.lee" : "b.ortiz", "claim.advance", "claim",
                            Integer.toString(i % 50), null, null);
                }
                audit.append(h, at.plusSeconds(700), "new.colleague", "claim.advance", "claim", "7", null, null);
                audit.append(h, at.plusSeconds(701), "a.lee", "outbox.requeue", "outbox_event", "3", null, null);
                audit.append(h, at.plusSeconds(702), "new.colleague", "claim.edit", "claim", "8", null, null);
            });
            AuditStore store = new AuditStore();
            StatementsRun.Seen<List<Long>> seen = db.read(h -> StatementsRun.of(h, "SELECT * FROM audit_log",
                    run -> store.list(run, subject, actor, action, 0, 20).stream().map(e -> e.auditId()).toList()));
            List<Long> page = seen.result();
            List<String> statements = seen.statements();
            List<Long> expected = db.read(h -> {
                Query q = h.createQuery(AuditStore.listStatement(subject != null, actor != null, action != null, true))
                        .bind("limit", 20).bind("offset", 0);
                if (subject != null) {
                    q.bind("subject", subject);
                }
                if (actor != null) {
                    q.bind("actor", actor);
                }
                return q.bind("action", action).map(Rows.AUDIT_ENTRY).list().stream().map(e -> e.auditId()).toList();
            });
            assertThat(page).isNotEmpty().isEqualTo(expected);
            assertThat(statements).hasSize(1);
            List<String> plan = plan(db, statements.get(0), q -> {
                if (subject != null) {
                    q.bind("subject", subject);
                }
                if (actor != null) {
                    q.bind("actor", actor);
                }
                q.bind("action", action).bind("limit", 20).bind("offset", 0);
            });
            assertThat(plan).as(statements.get(0) + "\n" + String.join("\n", plan))
                    .containsExactly("SEARCH audit_log USING INDEX " + index + " (" + (index.contains("subject")
                            ? "subject_id" : index.contains("actor") ? "actor" : "action") + "=?)");
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
