package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** The triggers doctor expects, read from the migration scripts a database ran, against a database's own. */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class SchemaTriggersTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    Database db;

    @BeforeEach
    void open() {
        db = TestDatabase.open(engine, dir);
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void theScriptsANewDatabaseRanNameExactlyTheTriggersItHas() {
        db.jdbi().useHandle(h -> {
            SortedMap<String, String> expected = SchemaTriggers.created(SchemaTriggers.applied(h));
            Map<String, Boolean> present = SchemaTriggers.present(h);

            assertThat(expected.keySet()).isEqualTo(present.keySet());
            assertThat(present.values()).containsOnly(true);
            assertThat(expected).containsKeys("audit_log_no_update", "outbox_tally_insert", "claim_tally_update");
            assertThat(new HealthStore().triggers(h).inPlace()).isTrue();
        });
    }

    @Test
    void aDroppedTriggerIsMissingAndNamedWithItsScript() {
        db.jdbi().useHandle(h -> {
            h.execute(engine == TestDatabase.Engine.SQLITE ? "DROP TRIGGER outbox_tally_delete"
                    : "DROP TRIGGER outbox_tally_delete ON outbox_event");

            HealthStore.Triggers triggers = new HealthStore().triggers(h);

            assertThat(triggers.inPlace()).isFalse();
            assertThat(triggers.missing()).containsExactly(new HealthStore.Trigger("outbox_tally_delete",
                    engine == TestDatabase.Engine.SQLITE ? "V16__tallies.sql" : "V12__outbox_tally.sql"));
            assertThat(triggers.notFiring()).isEmpty();
        });
    }

    @Test
    void scriptsCreateReplaceAndDropTriggersInTheOrderTheyRan() {
        Map<String, String> scripts = new LinkedHashMap<>();
        scripts.put("V1__a.sql", """
                -- CREATE TRIGGER in_a_comment AFTER INSERT ON t
                /* CREATE TRIGGER in_a_block
                   comment */
                CREATE TRIGGER kept AFTER INSERT ON t BEGIN SELECT 1; END;
                create trigger if not exists Dropped_Later after delete on t begin select 1; end;
                CREATE TRIGGER replaced AFTER UPDATE ON t BEGIN SELECT 1; END;
                """);
        scripts.put("V2__b.sql", """
                DROP TRIGGER IF EXISTS dropped_later;
                CREATE OR REPLACE TRIGGER replaced AFTER UPDATE ON t FOR EACH ROW EXECUTE FUNCTION f();
                CREATE CONSTRAINT TRIGGER "quoted" AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION f();
                CREATE TRIGGER main.qualified AFTER INSERT ON t BEGIN SELECT 1; END;
                """);

        assertThat(SchemaTriggers.created(scripts)).containsExactly(Map.entry("kept", "V1__a.sql"),
                Map.entry("qualified", "V2__b.sql"), Map.entry("quoted", "V2__b.sql"),
                Map.entry("replaced", "V2__b.sql"));
    }
}
