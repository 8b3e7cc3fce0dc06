package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.testing.Sql;
import org.claimdesk.testing.TestClaims;
import org.claimdesk.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link Database#snapshot}: one state of the database for every statement, and a pool left clean after a failure. */
@ParameterizedClass
@EnumSource(TestDatabase.Engine.class)
class DatabaseSnapshotTest {
    @Parameter
    TestDatabase.Engine engine;

    @TempDir
    Path dir;

    Database db;

    @BeforeEach
    void open() {
        db = TestDatabase.open(engine, dir);
        TestClaims.insert(db, ClaimStatus.EVIDENCE_PENDING);
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void everyStatementSeesTheDatabaseAsItStoodAtTheFirstWhileOthersWriteMeanwhile() {
        int[] seen = db.snapshot(h -> {
            int before = count(h);
            // committed on another connection, as another workstation or the worker would
            TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
            return new int[] {before, count(h)};
        });

        assertThat(seen).containsExactly(1, 1);
        assertThat(Sql.count(db, "claim")).isEqualTo(2);
    }

    /** Reads made through the database's own methods on this thread, as the console's exports make them. */
    @Test
    void readsThroughTheDatabaseOnThisThreadSeeOneStateWhileAnotherThreadWrites() throws Exception {
        java.util.concurrent.ExecutorService elsewhere = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            int[] seen = db.snapshotOfReads(() -> {
                int before = db.read(DatabaseSnapshotTest::count);
                try {
                    elsewhere.submit(() -> TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING)).get();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                return new int[] {before, db.read(DatabaseSnapshotTest::count)};
            });

            assertThat(seen).containsExactly(1, 1);
            assertThat(db.read(DatabaseSnapshotTest::count)).isEqualTo(2);
        } finally {
            elsewhere.shutdownNow();
        }
    }

    @Test
    void aFailureInsideComesOutAsItIsAndLeavesNoConnectionInsideATransaction() {
        for (int i = 0; i < 12; i++) {
            IllegalStateException failure = new IllegalStateException("the export's disk is full");
            assertThatThrownBy(() -> db.snapshot(h -> {
                count(h);
                throw failure;
            })).isSameAs(failure);
        }
        // every pooled connection serves reads and writes again, seeing what is committed
        for (int i = 0; i < 12; i++) {
            TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
            assertThat(db.read(DatabaseSnapshotTest::count)).isEqualTo(2 + i);
            assertThat(db.snapshot(DatabaseSnapshotTest::count)).isEqualTo(2 + i);
        }
    }

    /**
     * A read that failed after its transaction had already ended (SQLite rolls back by itself after some failures, a
     * disk full in a sort) comes out as it is, not hidden behind a failed COMMIT; an Error too; and the pool goes on.
     */
    @Test
    void aFailureAfterTheTransactionEndedOrAnErrorComesOutAsItIsAndThePoolGoesOn() {
        for (int i = 0; i < 12; i++) {
            IllegalStateException failure = new IllegalStateException("the sort's disk is full");
            assertThatThrownBy(() -> db.snapshot(h -> {
                count(h);
                h.execute("ROLLBACK");
                throw failure;
            })).isSameAs(failure);
            AssertionError error = new AssertionError("a bug in the export");
            assertThatThrownBy(() -> db.snapshot(h -> {
                count(h);
                throw error;
            })).isSameAs(error);
        }
        for (int i = 0; i < 12; i++) {
            TestClaims.insert(db, ClaimStatus.IDENTITY_PENDING);
            assertThat(db.read(DatabaseSnapshotTest::count)).isEqualTo(2 + i);
            assertThat(db.snapshot(DatabaseSnapshotTest::count)).isEqualTo(2 + i);
        }
    }

    private static int count(org.jdbi.v3.core.Handle h) {
        return h.createQuery("SELECT count(*) FROM claim").mapTo(Integer.class).one();
    }
}
