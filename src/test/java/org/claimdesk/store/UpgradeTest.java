package org.claimdesk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.claimdesk.domain.DeliveryAttempt;
import org.claimdesk.testing.Sql;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A database left by the first release (schema version 1) is migrated on first start and keeps its data. */
class UpgradeTest {
    @TempDir
    Path dir;

    @Test
    void aVersionOneDatabaseIsMigratedAndKeepsItsRows() throws Exception {
        Path file = dir.resolve("v1.db");
        String v1;
        try (InputStream in = Migrations.class.getResourceAsStream("migrations/V1__schema.sql")) {
            v1 = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            for (String statement : SqlScript.statements(v1)) {
                s.execute(statement);
            }
            s.execute("PRAGMA user_version = 1");
            s.execute("PRAGMA application_id = " + Migrations.APPLICATION_ID);
            s.execute("""
                    INSERT INTO claim (claim_id, claim_number, jurisdiction, state_property_id, holder_name, property_type,
                        claim_type, claimant_name, tax_id, amount_cents, status, filed_on, created_at, updated_at)
                    VALUES (1, 'UPC-2025-000001', 'CA', '1234567', 'Holder', 'AC01', 'OWNER', 'Maria Garcia',
                        '123-00-4567', 1000, 'SUBMITTING', '2025-06-01', 0, 0)""");
            s.execute("""
                    INSERT INTO outbox_event (outbox_event_id, aggregate_id, event_type, payload, delivery_state, attempts,
                        idempotency_key, next_attempt_at, created_at, updated_at)
                    VALUES (1, 1, 'state_claim_submission_requested', '{}', 'failed', 8, 'sub-old-1', 0, 0, 0)""");
            s.execute("""
                    INSERT INTO delivery_attempt (outbox_event_id, attempt_no, started_at, duration_ms, outcome,
                        http_status, detail, worker_id)
                    VALUES (1, 8, 0, 120, 'PERMANENT', 422, '422 invalid_claim: holder id not found', 'worker-1')""");
        }

        try (Database db = Database.open(file)) {
            assertThat(db.schemaVersion()).isEqualTo(Migrations.latestVersion()).isGreaterThan(1);
            assertThat(Sql.count(db, "claim")).isEqualTo(1);
            assertThat(Sql.scalar(db, "SELECT attempts FROM outbox_event", Integer.class)).isEqualTo(8);
            List<String> columns = db.read(h -> h.createQuery("SELECT name FROM pragma_table_info('outbox_event')")
                    .mapTo(String.class).list());
            assertThat(columns).contains("retry_count");
            assertThat(Sql.scalar(db, "SELECT retry_count FROM outbox_event", Integer.class)).isZero();
            // an attempt made before the state named fields reads back without one
            List<DeliveryAttempt> attempts = db.read(h -> new OutboxStore().attempts(h, 1));
            assertThat(attempts).singleElement().satisfies(a -> {
                assertThat(a.detail()).isEqualTo("422 invalid_claim: holder id not found");
                assertThat(a.field()).isNull();
            });
            // the trigram search index is built from the claims already there
            int found = db.read(h -> new ClaimStore().count(h, ClaimQuery.all().withSearch("garcia")));
            assertThat(found).isEqualTo(1);
        }
        try (Database again = Database.open(file)) {
            assertThat(again.schemaVersion()).isEqualTo(Migrations.latestVersion());
        }
    }
}
