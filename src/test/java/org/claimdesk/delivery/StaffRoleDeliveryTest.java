package org.claimdesk.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import org.claimdesk.domain.Deadlines;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.testing.Outbox;
import org.claimdesk.testing.Sql;
import org.claimdesk.testing.TestDatabase;
import org.claimdesk.testing.Workers;
import org.junit.jupiter.api.Test;

/**
 * A workstation's worker on a team database as the staff role, with exactly the grants docs/operations.md gives it:
 * it leases rows, records attempts, moves claims on and writes their audit entries (and the tallies' triggers and
 * the change feed's notifications run under it).
 */
class StaffRoleDeliveryTest {

    @Test
    void theStaffRolesWorkerDeliversWhatStaffSubmitted() {
        DatabaseLocation.Postgres owner = TestDatabase.newServerDatabase();
        DatabaseLocation.Postgres staff;
        try (Database db = Database.open(owner)) {
            staff = TestDatabase.staffRole(db, "staff_" + owner.database());
        }

        try (Database asStaff = Database.open(staff)) {
            Outbox.submitted(asStaff, 12);
            Drain.Summary drained = Drain.run(asStaff, new SimulatedStateAdapter(new SimulatedState(
                    SimulatedState.Config.reliable())), Workers.fast(), Deadlines.statutory(), Clock.systemUTC(),
                    true, Duration.ofSeconds(30), null);

            assertThat(drained.sent()).as(String.valueOf(drained.lastError())).isEqualTo(12);
            assertThat(drained.pending()).isZero();
        }
        try (Database db = Database.open(owner)) {
            assertThat(Sql.scalar(db, "SELECT count(*) FROM claim WHERE status = 'SUBMITTED_TO_STATE'", Long.class))
                    .isEqualTo(12);
            assertThat(Sql.scalar(db, "SELECT count(*) FROM delivery_attempt", Long.class)).isEqualTo(12);
        }
    }
}
