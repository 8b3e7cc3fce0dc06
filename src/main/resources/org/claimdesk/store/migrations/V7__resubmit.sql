-- ClaimDesk schema: resubmission. A failed row whose claim was corrected is superseded by a new row
-- (a new idempotency key, the new payload); the old row keeps its attempts and names its successor.
-- SQLite cannot alter a CHECK constraint, so outbox_event is rebuilt: create, copy, drop, rename, and
-- its indexes created again (it has no triggers). Foreign keys are off while a migration runs and
-- checked before it commits (see Migrations), so delivery_attempt keeps pointing at the same ids.
CREATE TABLE outbox_event_v4 (
    outbox_event_id  INTEGER PRIMARY KEY,
    aggregate_id     INTEGER NOT NULL REFERENCES claim (claim_id),
    event_type       TEXT    NOT NULL,
    payload          TEXT    NOT NULL,
    delivery_state   TEXT    NOT NULL DEFAULT 'pending'
                     CHECK (delivery_state IN ('pending', 'sent', 'failed', 'abandoned', 'superseded')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    last_error       TEXT,
    idempotency_key  TEXT    NOT NULL UNIQUE,
    next_attempt_at  INTEGER NOT NULL,
    lease_owner      TEXT,
    lease_expires_at INTEGER,
    created_at       INTEGER NOT NULL,
    sent_at          INTEGER,
    state_case_id    TEXT,
    updated_at       INTEGER NOT NULL,
    retry_count      INTEGER NOT NULL DEFAULT 0,
    superseded_by    INTEGER REFERENCES outbox_event (outbox_event_id),
    CHECK ((delivery_state = 'superseded') = (superseded_by IS NOT NULL))
);
INSERT INTO outbox_event_v4 (outbox_event_id, aggregate_id, event_type, payload, delivery_state, attempts, last_error,
    idempotency_key, next_attempt_at, lease_owner, lease_expires_at, created_at, sent_at, state_case_id, updated_at,
    retry_count)
SELECT outbox_event_id, aggregate_id, event_type, payload, delivery_state, attempts, last_error,
    idempotency_key, next_attempt_at, lease_owner, lease_expires_at, created_at, sent_at, state_case_id, updated_at,
    retry_count
FROM outbox_event;
DROP TABLE outbox_event;
ALTER TABLE outbox_event_v4 RENAME TO outbox_event;
CREATE INDEX outbox_due_idx       ON outbox_event (delivery_state, next_attempt_at);
CREATE INDEX outbox_aggregate_idx ON outbox_event (aggregate_id);
CREATE INDEX outbox_superseded_by_idx ON outbox_event (superseded_by) WHERE superseded_by IS NOT NULL;
