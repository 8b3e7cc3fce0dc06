package org.claimdesk.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.claimdesk.domain.AuditActions;
import org.claimdesk.store.Database;
import org.claimdesk.store.DatabaseLocation;
import org.claimdesk.testing.Sql;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a team database the staff role, with exactly the grants docs/operations.md gives it (no write to the audit trail
 * beyond adding, none to the schema's history or the counts' tallies), previews an import (a temporary table), imports
 * (the new claims' lock, the sequences, the tallies' triggers) and exports.
 */
class StaffRoleImportTest {
    @TempDir
    Path dir;

    @Test
    void theStaffRolePreviewsImportsAndExports() throws Exception {
        int rows = ClaimImport.BATCH_ROWS + 10;
        Path file = ClaimImportTest.validRows(dir.resolve("office.csv"), rows);
        DatabaseLocation.Postgres owner = TestDatabase.newServerDatabase();
        DatabaseLocation.Postgres staff;
        try (Database db = Database.open(owner)) {
            staff = TestDatabase.staffRole(db, "staff_" + owner.database());
        }

        try (Database asStaff = Database.open(staff)) {
            ClaimImport staffImport = new ClaimImport(asStaff, ClaimIntakeTest.CLOCK);
            ClaimImport.Report dry = staffImport.run(file, "s.patel", new ClaimImport.Options(true, false, null));
            assertThat(dry.imported()).isEqualTo(rows);
            ClaimImport.Report done = staffImport.run(file, "s.patel", ClaimImport.Options.defaults());
            assertThat(done.imported()).isEqualTo(rows);
            ClaimExport.Result exported = new ClaimExport(asStaff, ClaimIntakeTest.CLOCK).run(dir.resolve("out.csv"),
                    org.claimdesk.store.ClaimQuery.all(), ClaimExport.TaxIds.included("s.patel", "the state asked"));
            assertThat(exported.claims()).isEqualTo(rows);
        }
        try (Database db = Database.open(owner)) {
            assertThat(Sql.count(db, "claim")).isEqualTo(rows);
            assertThat(new Queries(db, ClaimIntakeTest.CLOCK).audit(null, null, AuditActions.CLAIMS_IMPORT, 0, 0))
                    .singleElement().satisfies(a -> assertThat(a.actor()).isEqualTo("s.patel"));
        }
    }
}
