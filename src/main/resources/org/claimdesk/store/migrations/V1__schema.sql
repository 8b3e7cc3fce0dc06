-- ClaimDesk schema, version 1. Times are epoch milliseconds (UTC); dates are ISO-8601 text.

CREATE TABLE claim (
    claim_id          INTEGER PRIMARY KEY,
    claim_number      TEXT    NOT NULL UNIQUE,
    jurisdiction      TEXT    NOT NULL,
    state_property_id TEXT    NOT NULL,
    holder_name       TEXT    NOT NULL,
    holder_id         TEXT,
    property_type     TEXT    NOT NULL,
    claim_type        TEXT    NOT NULL,
    claimant_name     TEXT    NOT NULL,
    tax_id            TEXT    NOT NULL,
    amount_cents      INTEGER NOT NULL CHECK (amount_cents >= 0),
    status            TEXT    NOT NULL,
    state_case_id     TEXT,
    filed_on          TEXT    NOT NULL,
    decision_due_on   TEXT,
    version           INTEGER NOT NULL DEFAULT 0,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL
);
CREATE INDEX claim_status_idx       ON claim (status, claim_id);
CREATE INDEX claim_jurisdiction_idx ON claim (jurisdiction, claim_id);
CREATE INDEX claim_due_idx          ON claim (decision_due_on);
CREATE INDEX claim_claimant_idx     ON claim (claimant_name COLLATE NOCASE);
CREATE INDEX claim_property_idx     ON claim (state_property_id);

CREATE TABLE claim_status_history (
    history_id  INTEGER PRIMARY KEY,
    claim_id    INTEGER NOT NULL REFERENCES claim (claim_id),
    from_status TEXT,
    to_status   TEXT    NOT NULL,
    actor       TEXT    NOT NULL,
    reason      TEXT,
    at          INTEGER NOT NULL
);
CREATE INDEX claim_status_history_claim_idx ON claim_status_history (claim_id, history_id);

-- One row per staff request key: a replay returns the first result instead of acting twice.
CREATE TABLE request_key (
    request_key   TEXT    PRIMARY KEY,
    claim_id      INTEGER NOT NULL REFERENCES claim (claim_id),
    operation     TEXT    NOT NULL,
    target_status TEXT    NOT NULL,
    from_status   TEXT    NOT NULL,
    result_version INTEGER NOT NULL,
    at            INTEGER NOT NULL
);

CREATE TABLE outbox_event (
    outbox_event_id  INTEGER PRIMARY KEY,
    aggregate_id     INTEGER NOT NULL REFERENCES claim (claim_id),
    event_type       TEXT    NOT NULL,
    payload          TEXT    NOT NULL,
    delivery_state   TEXT    NOT NULL DEFAULT 'pending'
                     CHECK (delivery_state IN ('pending', 'sent', 'failed', 'abandoned')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    last_error       TEXT,
    idempotency_key  TEXT    NOT NULL UNIQUE,
    next_attempt_at  INTEGER NOT NULL,
    lease_owner      TEXT,
    lease_expires_at INTEGER,
    created_at       INTEGER NOT NULL,
    sent_at          INTEGER,
    state_case_id    TEXT,
    updated_at       INTEGER NOT NULL
);
CREATE INDEX outbox_due_idx       ON outbox_event (delivery_state, next_attempt_at);
CREATE INDEX outbox_aggregate_idx ON outbox_event (aggregate_id);

CREATE TABLE delivery_attempt (
    attempt_id      INTEGER PRIMARY KEY,
    outbox_event_id INTEGER NOT NULL REFERENCES outbox_event (outbox_event_id),
    attempt_no      INTEGER NOT NULL,
    started_at      INTEGER NOT NULL,
    duration_ms     INTEGER NOT NULL,
    outcome         TEXT    NOT NULL,
    http_status     INTEGER,
    detail          TEXT,
    worker_id       TEXT
);
CREATE INDEX delivery_attempt_event_idx ON delivery_attempt (outbox_event_id, attempt_no);

CREATE TABLE audit_log (
    audit_id     INTEGER PRIMARY KEY,
    at           INTEGER NOT NULL,
    actor        TEXT    NOT NULL,
    action       TEXT    NOT NULL,
    subject_type TEXT    NOT NULL,
    subject_id   TEXT    NOT NULL,
    reason       TEXT,
    details      TEXT
);
CREATE INDEX audit_subject_idx ON audit_log (subject_type, subject_id);
CREATE INDEX audit_actor_idx   ON audit_log (actor);

-- The audit trail is append-only.
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only: updates are refused');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only: deletes are refused');
END;
