package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL's plans for the audit trail's reads over 20,000 entries: a subject, an actor or an action with few
 * entries is found through its index, not by reading the whole log; an actor with many entries gives its newest
 * page in the log's order, without sorting them. SQLite's: {@link SqliteAuditPlanTest}.
 */
class PostgresAuditPlanTest {
    @TempDir
    Path dir;

    @Test
    void eachFilterReadsThroughItsIndexAndACommonActorWithoutASort() {
        try (Database db = TestDatabase.open(TestDatabase.Engine.POSTGRESQL, dir)) {
            db.useTransaction(h -> {
                h.execute("""
                        INSERT INTO audit_log (at, actor, action, subject_type, subject_id)
                        SELECT i, CASE WHEN i % 100 = 0 THEN 'supervisor.kim' ELSE 'staff' || (i % 7) END,
                            CASE WHEN i % 2 = 0 THEN 'claim.edit' ELSE 'claim.advance' END,
                            'claim', (i % 5000)::text
                        FROM generate_series(1, 20000) AS i""");
                h.execute("""
                        INSERT INTO audit_log (at, actor, action, subject_type, subject_id)
                        VALUES (20001, 'it.admin', 'worker.pause', 'worker', 'desk-3')""");
                h.execute("ANALYZE audit_log");
            });
            Map<String, Object> page = Map.of("limit", 51, "offset", 0);
            assertUses(db, AuditStore.listStatement(true, false, false, true), with(page, "subject", "desk-3"),
                    "audit_subject_idx");
            assertUses(db, AuditStore.listStatement(false, true, false, true), with(page, "actor", "it.admin"),
                    "audit_actor_idx");
            assertUses(db, AuditStore.listStatement(false, false, true, true), with(page, "action", "worker.pause"),
                    "audit_action_idx");
            assertUses(db, AuditStore.OF_SUBJECT, Map.of("type", "claim", "subject", "42", "limit", 200),
                    "audit_subject_idx");

            // an actor with 200 entries: the newest page straight from the actor's index, none of them sorted
            String byActor = AuditStore.listStatement(false, true, false, true);
            List<String> plan = db.read(h -> h.createQuery("EXPLAIN " + byActor)
                    .bindMap(with(page, "actor", "supervisor.kim")).mapTo(String.class).list());
            assertThat(plan).as(String.join("\n", plan))
                    .anySatisfy(step -> assertThat(step).contains("Index Scan Backward using audit_actor_idx"))
                    .noneSatisfy(step -> assertThat(step).contains("Sort"));
        }
    }

    private static Map<String, Object> with(Map<String, Object> page, String parameter, String value) {
        Map<String, Object> all = new HashMap<>(page);
        all.put(parameter, value);
        return all;
    }

    private static void assertUses(Database db, String sql, Map<String, Object> parameters, String index) {
        List<String> plan = db.read(h -> h.createQuery("EXPLAIN " + sql).bindMap(parameters).mapTo(String.class).list());
        assertThat(plan).as(sql + "\n" + String.join("\n", plan))
                .anySatisfy(step -> assertThat(step).contains(" " + index + " "))
                .noneSatisfy(step -> assertThat(step).contains("Seq Scan on audit_log"));
    }
}
