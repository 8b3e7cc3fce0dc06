-- ClaimDesk schema, version 6: claim editing and evidence references.

-- How to reach the claimant; optional, checked by the claim field rules (domain ClaimField).
ALTER TABLE claim ADD COLUMN claimant_email TEXT;
ALTER TABLE claim ADD COLUMN claimant_phone TEXT;
ALTER TABLE claim ADD COLUMN claimant_address TEXT;

-- Evidence references: a web address, or a file copied into the evidence folder next to the database
-- (stored_name is the file's name there, its SHA-256). Rows are added, never changed.
CREATE TABLE evidence (
    evidence_id INTEGER PRIMARY KEY,
    claim_id    INTEGER NOT NULL REFERENCES claim (claim_id),
    kind        TEXT    NOT NULL CHECK (kind IN ('identity', 'address', 'ownership', 'heirship', 'business')),
    title       TEXT    NOT NULL,
    url         TEXT,
    file_name   TEXT,
    stored_name TEXT,
    size_bytes  INTEGER CHECK (size_bytes IS NULL OR size_bytes >= 0),
    sha256      TEXT,
    added_by    TEXT    NOT NULL,
    added_at    INTEGER NOT NULL,
    CHECK ((url IS NULL) <> (stored_name IS NULL)),
    CHECK (stored_name IS NULL OR (file_name IS NOT NULL AND size_bytes IS NOT NULL AND sha256 IS NOT NULL))
);
CREATE INDEX evidence_claim_idx ON evidence (claim_id, evidence_id);
