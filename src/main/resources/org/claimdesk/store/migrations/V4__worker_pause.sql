-- ClaimDesk schema, version 4: a pause of the delivery worker by staff, kept until staff resume it.

-- At most one row (id 1): while it exists, every console on this database starts its worker paused.
-- Pause and resume each write an audit entry in the same transaction as the row.
CREATE TABLE worker_pause (
    id        INTEGER PRIMARY KEY CHECK (id = 1),
    paused_by TEXT    NOT NULL,
    paused_at INTEGER NOT NULL,
    reason    TEXT    NOT NULL
);
