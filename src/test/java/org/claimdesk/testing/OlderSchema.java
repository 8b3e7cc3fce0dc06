package org.claimdesk.testing;

import java.util.List;
import org.jdbi.v3.core.Handle;

/** A database as an older ClaimDesk left it, its rows kept: what an upgrade starts from. */
public final class OlderSchema {
    private OlderSchema() {
    }

    /**
     * Undoes the versions after {@code version} (11 or 12) in the caller's transaction. On a file versions 12 and 13
     * change nothing but the version; on a team database they add the outbox's tally (12) and the claims' (13).
     */
    public static void undoDownTo(Handle h, boolean server, int version) {
        if (version < 11 || version > 12) {
            throw new IllegalArgumentException("undoes versions 12 and 13 only, down to 11 or 12, not to " + version);
        }
        if (!server) {
            h.execute("PRAGMA user_version = " + version);
            return;
        }
        undo(h, "claim", "claim", "claim_status_tally", 13);
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
}
