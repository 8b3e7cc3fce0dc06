package org.claimdesk.testing;

import java.util.List;
import org.claimdesk.domain.ClaimStatus;
import org.claimdesk.store.Database;
import org.jdbi.v3.core.Handle;

/** A database as an older ClaimDesk left it, its rows kept: what an upgrade starts from. */
public final class OlderSchema {
    private OlderSchema() {
    }

    /**
     * Writes {@code submitted} submitted claims, the first {@code failed} of their outbox rows failed, and one PAID
     * claim, then takes {@code db} back to {@code version} ({@link #undoDownTo}) and closes it: rows an upgrade finds
     * already there.
     */
    public static void rowsThenVersion(Database db, int submitted, int failed, int version) {
        Outbox.submitted(db, submitted);
        TestClaims.insert(db, ClaimStatus.PAID);
        db.useTransaction(h -> h.execute("UPDATE outbox_event SET delivery_state = 'failed' WHERE outbox_event_id IN"
                + " (SELECT outbox_event_id FROM outbox_event ORDER BY 1 LIMIT " + failed + ")"));
        db.useTransaction(h -> undoDownTo(h, db.onServer(), version));
        db.close();
    }

    /**
     * Undoes the versions after {@code version} (11 to 21) in the caller's transaction. Version 22 indexes the claims
     * awaiting a decision by due date on both engines. Version 21 indexes the rows
     * with an error text on both engines (on a team database their texts' trigrams as well). Version 20 changes nothing
     * but the version on both engines. Version 19 adds the delivery
     * state to the outbox's index by claim and the status to the claims' jurisdiction index, and indexes the failed
     * rows' claims, on both engines. Version 18 changes nothing but
     * the version on a file and makes the due date's index give the Claims page's order on a team database; version
     * 17 adds the evidence's withdrawal and its trigger on both engines. On a file versions 12, 13 and 15 change nothing but the version, 14 adds the failed
     * rows' index and 16 the outbox's tally and the claims'; on a team database 12 and 13 add those tallies, 14 and 16
     * change nothing but the version and 15 makes the delivery state's index end with the row's id, in place of that
     * index and the pending rows' own.
     */
    public static void undoDownTo(Handle h, boolean server, int version) {
        if (version < 11 || version > 21) {
            throw new IllegalArgumentException("undoes versions 12 to 22 only, down to 11 to 21, not to " + version);
        }
        h.execute("DROP INDEX claim_overdue_idx");
        if (undone(h, server, 22, version)) {
            return;
        }
        h.execute("DROP INDEX outbox_error_idx");
        if (server) {
            h.execute("DROP INDEX outbox_error_trgm");
        }
        if (undone(h, server, 21, version) || undone(h, server, 20, version)) {
            return;
        }
        h.execute("DROP INDEX outbox_aggregate_idx");
        h.execute("CREATE INDEX outbox_aggregate_idx ON outbox_event (aggregate_id)");
        h.execute("DROP INDEX claim_jurisdiction_idx");
        h.execute("CREATE INDEX claim_jurisdiction_idx ON claim (jurisdiction, claim_id)");
        h.execute("DROP INDEX outbox_failed_claim_idx");
        if (undone(h, server, 19, version)) {
            return;
        }
        if (server) {
            h.execute("DROP INDEX claim_due_idx");
            h.execute("CREATE INDEX claim_due_idx ON claim (decision_due_on)");
        }
        if (undone(h, server, 18, version)) {
            return;
        }
        h.execute(server ? "DROP TRIGGER evidence_withdrawn_once ON evidence" : "DROP TRIGGER evidence_withdrawn_once");
        if (server) {
            h.execute("DROP FUNCTION evidence_withdrawn_once()");
        }
        // the reason's column first: its check names the other two
        for (String column : List.of("withdrawn_reason", "withdrawn_at", "withdrawn_by")) {
            h.execute("ALTER TABLE evidence DROP COLUMN " + column);
        }
        if (undone(h, server, 17, version)) {
            return;
        }
        if (!server) {
            for (String table : List.of("outbox", "claim")) {
                for (String trigger : List.of("insert", "update", "delete")) {
                    h.execute("DROP TRIGGER " + table + "_tally_" + trigger);
                }
            }
            h.execute("DROP TABLE outbox_state_tally");
            h.execute("DROP TABLE claim_status_tally");
            if (version < 14) {
                h.execute("DROP INDEX outbox_failed_error_idx");
            }
            h.execute("PRAGMA user_version = " + version);
            return;
        }
        h.execute("DELETE FROM flyway_schema_history WHERE version = '16'");
        if (version == 15) {
            return;
        }
        h.execute("DROP INDEX outbox_due_idx");
        h.execute("CREATE INDEX outbox_due_idx ON outbox_event (delivery_state, next_attempt_at)");
        h.execute("CREATE INDEX outbox_due_pending_idx ON outbox_event (next_attempt_at, outbox_event_id)"
                + " WHERE delivery_state = 'pending'");
        h.execute("DELETE FROM flyway_schema_history WHERE version = '15'");
        if (version < 14) {
            h.execute("DELETE FROM flyway_schema_history WHERE version = '14'");
        }
        if (version < 13) {
            undo(h, "claim", "claim", "claim_status_tally", 13);
        }
        if (version < 12) {
            undo(h, "outbox", "outbox_event", "outbox_state_tally", 12);
        }
    }

    private static void undo(Handle h, String name, String table, String tally, int version) {
        for (String trigger : List.of("insert", "update", "delete", "truncate")) {
            h.execute("DROP TRIGGER " + name + "_tally_" + trigger + " ON " + table);
        }
        h.execute("DROP FUNCTION claimdesk_" + name + "_tally(), claimdesk_" + name + "_counts(), claimdesk_" + name
                + "_tally_rebuild()");
        h.execute("DROP TABLE " + tally);
        h.execute("DELETE FROM flyway_schema_history WHERE version = '" + version + "'");
    }

    /**
     * Records version {@code undone} as undone (a team database's Flyway entry removed) and says whether the version
     * asked for, {@code version}, is then reached: a file's {@code user_version} is set to it.
     */
    private static boolean undone(Handle h, boolean server, int undone, int version) {
        if (server) {
            h.execute("DELETE FROM flyway_schema_history WHERE version = '" + undone + "'");
        }
        if (version < undone - 1) {
            return false;
        }
        if (!server) {
            h.execute("PRAGMA user_version = " + version);
        }
        return true;
    }
}
