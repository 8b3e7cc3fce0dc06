package org.claimdesk.testing;

import java.util.List;
import org.jdbi.v3.core.Handle;

/** A database as ClaimDesk at schema version 11 left it, its rows kept: what an upgrade to version 12 starts from. */
public final class SchemaBefore12 {
    private SchemaBefore12() {
    }

    /** Undoes version 12 in the caller's transaction: the outbox's tally on a team database, the version on both. */
    public static void undo(Handle h, boolean server) {
        if (!server) {
            // version 12 changes nothing but the version on a file
            h.execute("PRAGMA user_version = 11");
            return;
        }
        for (String trigger : List.of("insert", "update", "delete", "truncate")) {
            h.execute("DROP TRIGGER outbox_tally_" + trigger + " ON outbox_event");
        }
        h.execute("DROP FUNCTION claimdesk_outbox_tally(), claimdesk_outbox_counts(), claimdesk_outbox_tally_rebuild()");
        h.execute("DROP TABLE outbox_state_tally");
        h.execute("DELETE FROM flyway_schema_history WHERE version = '12'");
    }
}
