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

/**
 * The audit trail's reads on both engines: one subject's entries (a claim's detail) and the Audit page's filters.
 * Their plans: {@link SqliteAuditPlanTest}, {@link PostgresAuditPlanTest}.
 */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class AuditStoreTest {
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

    /** Pages counted among the entries up to one pinned: entries added after it do not move them. */
    @Test
    void pagesUpToAPinnedEntryDoNotMoveAsEntriesAreAdded() {
        try (Database db = TestDatabase.open(engine, dir)) {
            Instant at = Instant.parse("2026-12-06T09:00:00Z");
            db.useTransaction(h -> {
                for (int i = 1; i <= 5; i++) {
                    audit.append(h, at, "j.chen", "claim.edit", "claim", "7", "entry " + i, null);
                }
            });
            long pinned = db.read(h -> audit.list(h, null, null, null, 0, 1)).get(0).auditId();
            db.useTransaction(h -> audit.append(h, at, "j.chen", "claim.edit", "claim", "7", "added later", null));

            List<AuditEntry> second = db.read(h -> audit.list(h, null, "j.chen", null, pinned, 2, 2));
            assertThat(second).extracting(AuditEntry::reason).containsExactly("entry 3", "entry 2");
            List<AuditEntry> newest = db.read(h -> audit.list(h, null, "j.chen", null, null, 0, 1));
            assertThat(newest).extracting(AuditEntry::reason).containsExactly("added later");
        }
    }

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
            assertThat(found(db, " 7 ", null, null, 0, 0)).as("by subject id, any type, trimmed")
                    .containsExactly("fifth", "third", "second", "first");
            assertThat(found(db, null, "j.chen", null, 0, 0)).containsExactly("fourth", "third", "first");
            assertThat(found(db, null, null, "claim.edit", 0, 0)).containsExactly("fifth", "fourth", "first");
            assertThat(found(db, "7", "a.okafor", "claim.edit", 0, 0)).containsExactly("fifth");
            assertThat(found(db, "7", " ", "", 0, 0)).as("blank filters ignored")
                    .containsExactly("fifth", "third", "second", "first");
            assertThat(found(db, "7", null, null, 1, 2)).as("the second page of two").containsExactly("third", "second");
            assertThat(found(db, null, null, null, 4, 2)).as("past the end").containsExactly("first");
            assertThat(found(db, "8", null, null, 0, 0)).isEmpty();
        }
    }

    private List<String> found(Database db, String subject, String actor, String action, int offset, int limit) {
        return db.read(h -> audit.list(h, subject, actor, action, offset, limit)).stream()
                .map(AuditEntry::reason).toList();
    }

    /** Three entries written by a build before schema version 11, as {@link #assertFoundAfterTheUpgrade} reads them. */
    static final String ENTRIES_BEFORE_THE_UPGRADE = """
            INSERT INTO audit_log (at, actor, action, subject_type, subject_id, reason)
            VALUES (1, 'j.chen', 'claim.edit', 'claim', '7', 'first'),
                   (2, 'j.chen', 'outbox.requeue', 'outbox_event', '7', 'second'),
                   (3, 'a.okafor', 'claim.edit', 'claim', '8', 'third')""";

    /** The entries of {@link #ENTRIES_BEFORE_THE_UPGRADE}, found by subject, by subject and type, and by action. */
    static void assertFoundAfterTheUpgrade(Database db) {
        AuditStore audit = new AuditStore();
        assertThat(reasons(db.read(h -> audit.list(h, "7", null, null, 0, 0)))).containsExactly("second", "first");
        assertThat(reasons(db.read(h -> audit.ofSubject(h, "claim", "7", 200)))).containsExactly("first");
        assertThat(reasons(db.read(h -> audit.list(h, null, null, "claim.edit", 0, 0)))).containsExactly("third", "first");
    }

    private static List<String> reasons(List<AuditEntry> entries) {
        return entries.stream().map(AuditEntry::reason).toList();
    }
}
