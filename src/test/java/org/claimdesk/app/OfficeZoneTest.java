package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import org.claimdesk.delivery.Drain;
import org.claimdesk.delivery.SimulatedState;
import org.claimdesk.delivery.SimulatedStateAdapter;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.Sql;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A team database counts days in the office's zone, which IT sets on the database, whatever zone the workstation
 * keeps. The two zones tried are 26 hours apart: at any moment at least one of them is on another day than this
 * machine, so a day counted in the workstation's zone fails one of the two.
 */
class OfficeZoneTest {

    @ParameterizedTest
    @ValueSource(strings = {"Pacific/Kiritimati", "Etc/GMT+12"})
    void todayAndADecisionsDueDateAreTheOfficesDaysForTheStaffRoleToo(String office) {
        DatabaseLocation.Postgres owner = TestDatabase.newServerDatabase();
        DatabaseLocation.Postgres staff;
        try (Database db = Database.open(owner)) {
            db.jdbi().useHandle(h -> h.execute("ALTER DATABASE \"" + owner.database() + "\" SET timezone TO '" + office
                    + "'"));
            staff = TestDatabase.staffRole(db, "staff_" + owner.database());
        }
        ZoneId zone = ZoneId.of(office);

        try (Database asStaff = Database.open(staff)) {
            assertThat(asStaff.officeZone().set()).isTrue();
            assertThat(asStaff.clock().getZone()).isEqualTo(zone);
            LocalDate before = LocalDate.now(zone);
            LocalDate today = new Queries(asStaff, asStaff.clock()).today();
            assertThat(today).isIn(before, LocalDate.now(zone));

            Outbox.submitted(asStaff, 1, "CA");
            LocalDate sentFrom = LocalDate.now(zone);
            Drain.Summary drained = Drain.run(asStaff, new SimulatedStateAdapter(new SimulatedState(
                    SimulatedState.Config.reliable())), Workers.fast(), Deadlines.statutory(), asStaff.clock(),
                    true, Duration.ofSeconds(30), null);
            assertThat(drained.sent()).isEqualTo(1);
            String due = Sql.scalar(asStaff, "SELECT decision_due_on FROM claim WHERE status = 'SUBMITTED_TO_STATE'",
                    String.class);
            assertThat(due).isIn(Deadlines.statutory().dueDate("CA", sentFrom).toString(),
                    Deadlines.statutory().dueDate("CA", LocalDate.now(zone)).toString());
        }
    }

    @Test
    void aTeamDatabaseWithoutAZoneCountsInTheWorkstationsAndDoctorSaysHowToSetIt() {
        try (Database db = Database.open(TestDatabase.newServerDatabase())) {
            assertThat(db.officeZone().set()).isFalse();
            assertThat(db.clock().getZone()).isEqualTo(ZoneId.systemDefault());

            Doctor.Report report = new Doctor(db, db.clock(), Duration.ofHours(24)).examine();
            assertThat(report.findings()).filteredOn(f -> f.check().equals("time zone")).singleElement()
                    .satisfies(f -> {
                        assertThat(f.level()).isEqualTo(Doctor.Level.WARN);
                        assertThat(f.message()).contains("names no time zone").contains("ALTER DATABASE");
                    });
        }
    }
}
