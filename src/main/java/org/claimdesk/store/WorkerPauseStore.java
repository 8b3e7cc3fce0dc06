package org.claimdesk.store;

import java.time.Instant;
import java.util.Optional;
import org.claimdesk.domain.WorkerPause;
import org.jdbi.v3.core.Handle;

/** The delivery worker's pause by staff ({@code worker_pause}, one row at most): kept until staff resume it. */
public final class WorkerPauseStore {

    public Optional<WorkerPause> find(Handle handle) {
        return handle.createQuery("SELECT paused_by, paused_at, reason FROM worker_pause WHERE id = 1")
                .map((rs, ctx) -> new WorkerPause(rs.getString("paused_by"), Instant.ofEpochMilli(rs.getLong("paused_at")),
                        rs.getString("reason")))
                .findOne();
    }

    /**
     * As {@link #find}, with the caller's transaction the only one pausing or resuming until it ends: two
     * workstations deciding on the same pause one after the other, never both on the one they read first.
     */
    public Optional<WorkerPause> findForChange(Handle handle) {
        Dialect.of(handle).serialize(handle, "claimdesk.worker-pause");
        return find(handle);
    }

    /** Records {@code pause}, replacing the one held before if any. */
    public void put(Handle handle, WorkerPause pause) {
        handle.createUpdate("""
                INSERT INTO worker_pause (id, paused_by, paused_at, reason) VALUES (1, :actor, :at, :reason)
                ON CONFLICT (id) DO UPDATE SET paused_by = excluded.paused_by, paused_at = excluded.paused_at,
                    reason = excluded.reason
                """)
                .bind("actor", pause.actor())
                .bind("at", pause.at().toEpochMilli())
                .bind("reason", pause.reason())
                .execute();
    }

    /** Ends the pause; true when there was one. */
    public boolean clear(Handle handle) {
        return handle.execute("DELETE FROM worker_pause WHERE id = 1") > 0;
    }
}
