package org.claimdesk.testing;

import java.util.List;
import org.jdbi.v3.core.Handle;

/** A database as an older ClaimDesk left it, its rows kept: what an upgrade starts from. */
public final class OlderSchema {
    private OlderSchema() {
    }

    /**
     * Undoes the versions after {@code version} (11, 12 or 13) in the caller's transaction. On a file versions 12 and
     * 13 change nothing but the version and 14 adds the failed rows' index; on a team database 12 and 13 add the
     * outbox's tally and the claims', and 14 changes nothing but the version.
     */
    public static void undoDownTo(Handle h, boolean server, int version) {
        if (version < 11 || version > 13) {
            throw new IllegalArgumentException("undoes versions 12 to 14 only, down to 11, 12 or 13, not to " + version);
        }
        if (!server) {
            h.execute("DROP INDEX outbox_failed_error_idx");
            h.execute("PRAGMA user_version = " + version);
            return;
        }
        h.execute("DELETE FROM flyway_schema_history WHERE version = '14'");
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
}
