package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.LocalDate;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A team database's office sets its decision deadlines once, on the database, for every workstation: a claim's due
 * date does not depend on the workstation whose worker delivered it, whatever that workstation's own setting.
 */
class OfficeDeadlinesTest {

    @AfterEach
    void clearWorkstationSetting() {
        System.clearProperty(DeadlineSettings.PROPERTY);
    }

    @Test
    void theTeamDatabasesDeadlinesDateTheClaimsEveryWorkstationDelivers() {
        DatabaseLocation.Postgres staff = staffOnDatabaseSetting("'NY=150, *=100'");
        System.setProperty(DeadlineSettings.PROPERTY, "NY=90");

        try (Database asStaff = Database.open(staff)) {
            assertThat(asStaff.officeDeadlineDays()).isEqualTo("NY=150, *=100");
            Deadlines deadlines = DeadlineSettings.current(asStaff);
            assertThat(deadlines.daysFor("NY")).isEqualTo(150);
            assertThat(deadlines.daysFor("TX")).isEqualTo(100);
            assertThat(deadlines.daysFor("CA")).isEqualTo(180);

            Outbox.submitted(asStaff, 1, "NY");
            LocalDate sentFrom = LocalDate.now(asStaff.clock());
            Drain.Summary drained = Drain.run(asStaff, new SimulatedStateAdapter(new SimulatedState(
                    SimulatedState.Config.reliable())), Workers.fast(), deadlines, asStaff.clock(), true,
                    Duration.ofSeconds(30), null);
            assertThat(drained.sent()).isEqualTo(1);
            String due = Sql.scalar(asStaff, "SELECT decision_due_on FROM claim WHERE status = 'SUBMITTED_TO_STATE'",
                    String.class);
            assertThat(due).isIn(sentFrom.plusDays(150).toString(),
                    LocalDate.now(asStaff.clock()).plusDays(150).toString());

            Doctor.Report report = new Doctor(asStaff, asStaff.clock(), Duration.ofHours(24)).examine();
            assertThat(report.findings()).filteredOn(f -> f.check().equals("deadlines")).singleElement()
                    .satisfies(f -> {
                        assertThat(f.level()).isEqualTo(Doctor.Level.WARN);
                        assertThat(f.message()).contains("claimdesk.deadline_days=NY=150, *=100")
                                .contains("CLAIMDESK_DEADLINE_DAYS=NY=90 is not used");
                    });
        }
    }

    @Test
    void aSettingTheTeamDatabaseCannotReadIsRefusedNamingItAndDoctorFailsIt() {
        DatabaseLocation.Postgres staff = staffOnDatabaseSetting("'NY=often'");

        try (Database asStaff = Database.open(staff)) {
            assertThatThrownBy(() -> DeadlineSettings.current(asStaff))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("the team database's claimdesk.deadline_days: decision deadline setting 'NY=often': the"
                            + " days must be a whole number; IT corrects it on the database (docs/operations.md)");

            Doctor.Report report = new Doctor(asStaff, asStaff.clock(), Duration.ofHours(24)).examine();
            assertThat(report.findings()).filteredOn(f -> f.check().equals("deadlines")).singleElement()
                    .satisfies(f -> assertThat(f.level()).isEqualTo(Doctor.Level.FAIL));
        }
    }

    @Test
    void withoutTheTeamDatabasesSettingTheWorkstationsOwnIsUsedAndDoctorSaysHowToShareIt() {
        System.setProperty(DeadlineSettings.PROPERTY, "NY=90");
        try (Database db = Database.open(TestDatabase.newServerDatabase())) {
            assertThat(db.officeDeadlineDays()).isNull();
            assertThat(DeadlineSettings.current(db).daysFor("NY")).isEqualTo(90);

            Doctor.Report report = new Doctor(db, db.clock(), Duration.ofHours(24)).examine();
            assertThat(report.findings()).filteredOn(f -> f.check().equals("deadlines")).singleElement()
                    .satisfies(f -> {
                        assertThat(f.level()).isEqualTo(Doctor.Level.WARN);
                        assertThat(f.message()).contains("CLAIMDESK_DEADLINE_DAYS=NY=90")
                                .contains("SET claimdesk.deadline_days TO");
                    });
        }
    }

    /** A new team database whose owner (the tests' superuser) sets the office's deadlines; staff log in to it. */
    private static DatabaseLocation.Postgres staffOnDatabaseSetting(String quotedValue) {
        DatabaseLocation.Postgres owner = TestDatabase.newServerDatabase();
        try (Database db = Database.open(owner)) {
            db.jdbi().useHandle(h -> h.execute("ALTER DATABASE \"" + owner.database() + "\" SET claimdesk.deadline_days TO "
                    + quotedValue));
            return TestDatabase.staffRole(db, "staff_" + owner.database());
        }
    }
}
