package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.claimdesk.delivery.DeliveryWorker;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.delivery.WorkerSettings;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.domain.AuditEntry;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.Database;
import org.claimdesk.store.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class OperatorsAndSettingsAuditTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    @Test
    void theOperatorChosenAtFirstStartIsAudited() {
        try (Database db = TestDatabase.open(engine, dir.resolve("a"))) {
            Operators.recordChoice(db, Clock.systemUTC(), "  m.alvarez ", null);

            List<AuditEntry> entries = new Queries(db, Clock.systemUTC()).audit("operator", null, null, 0, 0);
            assertThat(entries).singleElement().satisfies(e -> {
                assertThat(e.actor()).isEqualTo("m.alvarez");
                assertThat(e.action()).isEqualTo(AuditActions.SETTINGS_CHANGE);
                assertThat(e.subjectType()).isEqualTo(AuditActions.SUBJECT_SETTINGS);
                assertThat(e.reason()).isEqualTo("first start");
                assertThat(e.details()).contains("\"operator\":\"m.alvarez\"")
                        // the name is typed: the system account and the workstation say who typed it
                        .contains("\"systemUser\":" + Json.write(Operators.osUser()))
                        .contains("\"workstation\":" + Json.write(Operators.workstation()));
            });
            assertThatThrownBy(() -> Operators.recordChoice(db, Clock.systemUTC(), " ", null))
                    .hasMessage("an actor name is required");
        }
    }

    @Test
    void workerSettingsChangesAreAuditedWithBeforeAndAfter() {
        try (Database db = TestDatabase.open(engine, dir.resolve("b"));
             SimulatedStateAdapter state = new SimulatedStateAdapter(new SimulatedState(SimulatedState.Config.reliable()));
             AuditedWorker worker = new AuditedWorker(new DeliveryWorker(db, state, WorkerSettings.defaults(),
                     Clock.systemUTC(), Deadlines.statutory()), db, Clock.systemUTC(), "r.okafor")) {
            worker.updateSettings(worker.settings());
            worker.as("s.patel").updateSettings(worker.settings().withConcurrency(3).withInterval(Duration.ofSeconds(5)));

            assertThat(worker.settings().concurrency()).isEqualTo(3);
            List<AuditEntry> entries = new Queries(db, Clock.systemUTC()).audit("worker", null, null, 0, 0);
            assertThat(entries).as("an unchanged apply writes nothing").singleElement().satisfies(e -> {
                assertThat(e.actor()).isEqualTo("s.patel");
                assertThat(e.action()).isEqualTo(AuditActions.SETTINGS_CHANGE);
                assertThat(e.details()).contains("\"workstation\":\"" + Operators.workstation() + "\"")
                        .contains("\"before\":{\"intervalMs\":2000,\"concurrency\":8")
                        .contains("\"after\":{\"intervalMs\":5000,\"concurrency\":3");
            });
        }
    }
}
